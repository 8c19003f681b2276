package mcpclient_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A request that times out names the responses with unknown ids that came meanwhile:
// id-zero-answer answers tools/list with id 0 (issue #14 §2).
func TestTimeoutNamesUnknownIDsMeanwhile(t *testing.T) {
	t.Parallel()
	s := startFake(t, "id-zero-answer", func(c *mcpclient.Config) { c.Timeout = 300 * time.Millisecond })
	ctx := context.Background()
	if _, err := s.c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.c.ListTools(ctx)
	var te *mcpclient.TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("ListTools err = %v, want a *TimeoutError", err)
	}
	msg := err.Error()
	for _, want := range []string{"request id 2 (tools/list): no response", "meanwhile a response with id 0 arrived", "no request has that id"} {
		if !strings.Contains(msg, want) {
			t.Errorf("timeout message %q lacks %q", msg, want)
		}
	}
	var unknown int
	for _, ev := range s.events(t) {
		if problem(ev, mcpclient.CodeUnknownID) != nil {
			unknown++
		}
	}
	if unknown != 1 {
		t.Errorf("%d events flagged unknown-id, want the one response with id 0", unknown)
	}
}

// A response whose id has the pending request's value as a string is named a type
// mismatch showing both ids, on the event and in the error that ends the request's wait
// at once (not after --timeout: the timeout here is long, and the error is no timeout).
func TestIDTypeMismatch(t *testing.T) {
	t.Parallel()
	s := startFake(t, "id-stringly", func(c *mcpclient.Config) { c.Timeout = time.Minute })
	ctx := context.Background()
	if _, err := s.c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.c.ListTools(ctx)
	var mm *mcpclient.IDTypeMismatchError
	if !errors.As(err, &mm) || mm.Got != `"2"` || mm.Want != "2" {
		t.Fatalf("ListTools err = %v (%T), want an *IDTypeMismatchError for id \"2\" against 2", err, err)
	}
	for _, want := range []string{"request id 2 (tools/list)", `answered with id "2" (a string`, "request's id 2 (a number)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	var found *mcpclient.Problem
	for _, ev := range s.events(t) {
		if p := problem(ev, mcpclient.CodeIDTypeMismatch); p != nil {
			found = p
		}
		if problem(ev, mcpclient.CodeUnknownID) != nil {
			t.Errorf("event #%d flagged unknown-id; the type mismatch is the one problem", ev.Seq)
		}
	}
	if found == nil {
		t.Fatal("no event flagged id-type-mismatch")
	}
	for _, want := range []string{`response id "2" (a string)`, "pending request id 2 (a number)"} {
		if !strings.Contains(found.Text, want) {
			t.Errorf("problem %q lacks %q", found.Text, want)
		}
	}
	if mcpclient.Rule(mcpclient.CodeIDTypeMismatch) == "" {
		t.Error("id-type-mismatch has no rule for --strict")
	}
}

// FirstIDZero numbers requests from 0: drop-id-0 never answers id 0, so the handshake
// times out with it and succeeds without it.
func TestFirstIDZero(t *testing.T) {
	t.Parallel()
	s := startFake(t, "drop-id-0", func(c *mcpclient.Config) { c.Timeout = 300 * time.Millisecond; c.FirstIDZero = true })
	_, err := s.c.Connect(context.Background())
	var te *mcpclient.TimeoutError
	if !errors.As(err, &te) || !strings.Contains(te.Request, "request id 0 (initialize)") {
		t.Fatalf("Connect err = %v, want a timeout of request id 0 (initialize)", err)
	}
	s2 := startFake(t, "drop-id-0", nil)
	if _, err := s2.c.Connect(context.Background()); err != nil {
		t.Fatalf("Connect with ids from 1: %v", err)
	}
	tools, _, err := s2.c.ListTools(context.Background())
	if err != nil || len(tools) != 1 {
		t.Fatalf("ListTools = %d tools, %v; want echo", len(tools), err)
	}
}
