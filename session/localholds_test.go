package session

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// holdsClient starts the fake minimal server with h as the client's Intercept, after the
// handshake; the client's events are collected.
func holdsClient(t *testing.T, h *LocalHolds) (*mcpclient.Client, func() []mcpclient.Event) {
	t.Helper()
	c, err := mcpclient.Start(mcpclient.Config{Command: fake.Binary(t), Args: []string{"--scenario", "minimal"}, Timeout: 10 * time.Second,
		ShutdownGrace: 500 * time.Millisecond, Intercept: h})
	if err != nil {
		t.Fatal(err)
	}
	evs := make(chan []mcpclient.Event, 1)
	go func() {
		var all []mcpclient.Event
		for ev := range c.Events() {
			all = append(all, ev)
		}
		evs <- all
	}()
	t.Cleanup(func() { c.Close() })
	if _, err := c.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c, func() []mcpclient.Event { c.Close(); return <-evs }
}

func update(t *testing.T, h *LocalHolds) HoldUpdate {
	t.Helper()
	select {
	case u := <-h.Updates():
		return u
	case <-time.After(10 * time.Second):
		t.Fatal("no update")
	}
	return HoldUpdate{}
}

// TestLocalHolds: breakpoints on what the server sends to this client: a tools/call answer
// held and edited (the call returns the edit), one dropped (the call times out), one held
// past the timeout (it is handled unchanged); notes say each.
func TestLocalHolds(t *testing.T) {
	h := NewLocalHolds(time.Minute)
	c, events := holdsClient(t, h)
	_ = h.Set(BreakpointSet{Filters: []string{"dir:in method:tools/call"}})
	if u := update(t, h); u.Set == nil || u.Set.Filters[0] != "dir:in method:tools/call" || u.Set.Timeout != time.Minute {
		t.Fatalf("set: %+v", u)
	}
	call := func(ctx context.Context) <-chan string {
		out := make(chan string, 1)
		go func() {
			r, _, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"from the server"}`))
			switch {
			case err != nil:
				out <- "error: " + err.Error()
			case len(r.Content) == 0:
				out <- "no content"
			default:
				out <- r.Content[0].Text
			}
		}()
		return out
	}
	got := call(context.Background())
	u := update(t, h)
	if u.Held == nil || u.Held.Request || u.Held.Dir != mcpclient.ServerToClient || !strings.Contains(u.Held.What, "response id") ||
		!strings.Contains(u.Held.What, "(tools/call echo) from the server") {
		t.Fatalf("hold: %+v", u)
	}
	if err := h.Decide(u.Held.ID, HoldDecision{Kind: HoldAnswer, Message: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if r := update(t, h); !strings.Contains(r.Refused, "cannot be answered in the receiver's place") {
		t.Fatalf("answering a response: %+v", r)
	}
	edited := strings.Replace(string(u.Held.Raw), "from the server", "edited here", 1)
	_ = h.Decide(u.Held.ID, HoldDecision{Kind: HoldSend, Message: []byte(edited)})
	if e := update(t, h); e.Ended == nil || e.Ended.How != "edited" {
		t.Fatalf("end: %+v", e)
	}
	if text := <-got; !strings.Contains(text, "edited here") {
		t.Errorf("the call returned %q, want the edit", text)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	got = call(ctx)
	u = update(t, h)
	_ = h.Decide(u.Held.ID, HoldDecision{Kind: HoldDrop})
	if text := <-got; !strings.HasPrefix(text, "error: ") {
		t.Errorf("the dropped answer's call returned %q", text)
	}
	cancel()
	update(t, h) // its end

	_ = h.Set(BreakpointSet{Filters: []string{"dir:in method:tools/call"}, Timeout: 200 * time.Millisecond})
	update(t, h)
	got = call(context.Background())
	update(t, h)
	if e := update(t, h); e.Ended == nil || e.Ended.How != "timeout" {
		t.Fatalf("end: %+v", e)
	}
	if text := <-got; !strings.Contains(text, "from the server") {
		t.Errorf("the timed-out hold's call returned %q", text)
	}
	h.End()
	var notes []string
	for _, ev := range events() {
		if ev.Dir == mcpclient.ServerToClient && strings.Contains(string(ev.Raw), "edited here") &&
			(mcpclient.HasCode(ev.Problems, mcpclient.CodeNoNewline) || ev.Pair == 0) {
			t.Errorf("the edit as handled: problems %v, pair %d (want its line ending kept, paired)", ev.Problems, ev.Pair)
		}
		if ev.Life != nil && ev.Life.Cond != "" {
			notes = append(notes, string(ev.Life.Cond)+": "+ev.Life.Text)
		}
	}
	all := strings.Join(notes, "\n")
	for _, w := range []string{
		"held: breakpoint (dir:in method:tools/call): holding response id",
		"edited: breakpoint (dir:in method:tools/call): sent an edited message in place of response id",
		"dropped: breakpoint (dir:in method:tools/call): dropped response id",
		"released: breakpoint (dir:in method:tools/call): forwarded response id",
		"no decision within the hold's timeout",
	} {
		if !strings.Contains(all, w) {
			t.Errorf("notes lack %q:\n%s", w, all)
		}
	}
}

// TestLocalHoldsEnd: End releases a held message unchanged and holds nothing more.
func TestLocalHoldsEnd(t *testing.T) {
	h := NewLocalHolds(time.Minute)
	c, _ := holdsClient(t, h)
	_ = h.Set(BreakpointSet{Filters: []string{"method:tools/call"}})
	update(t, h)
	got := make(chan error, 1)
	go func() {
		_, _, err := c.CallTool(context.Background(), "echo", json.RawMessage(`{"text":"x"}`))
		got <- err
	}()
	update(t, h)
	h.End()
	if err := <-got; err != nil {
		t.Errorf("call after End: %v", err)
	}
	if e := update(t, h); e.Ended == nil || e.Ended.How != "ended" {
		t.Errorf("end: %+v", e)
	}
	if _, _, err := c.CallTool(context.Background(), "echo", json.RawMessage(`{"text":"y"}`)); err != nil {
		t.Errorf("a call after End was held or failed: %v", err)
	}
}

// TestLocalHoldsAnswer: a server request held and answered with the user's message: the
// server gets that answer (not the client's own -32601), and it is recorded as sent.
func TestLocalHoldsAnswer(t *testing.T) {
	h := NewLocalHolds(time.Minute)
	c, err := mcpclient.Start(mcpclient.Config{Command: fake.Binary(t), Args: []string{"--scenario", "b13-roots"}, Timeout: 10 * time.Second,
		ShutdownGrace: 500 * time.Millisecond, Intercept: h})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() {
		for range c.Events() {
		}
	}()
	if _, err := c.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	_ = h.Set(BreakpointSet{Filters: []string{"kind:request"}})
	update(t, h)
	got := make(chan string, 1)
	go func() {
		r, _, err := c.CallTool(context.Background(), "summarize", json.RawMessage(`{"text":"x"}`))
		if err != nil {
			got <- err.Error()
			return
		}
		got <- r.Content[0].Text
	}()
	u := update(t, h)
	if u.Held == nil || !u.Held.Request || u.Held.What != "request id 1 (roots/list) from the server" {
		t.Fatalf("hold: %+v", u)
	}
	_ = h.Decide(u.Held.ID, HoldDecision{Kind: HoldAnswer, Message: []byte(`{"jsonrpc":"2.0","id":1,"result":{"roots":[{"uri":"file:///from/the/user"}]}}`)})
	if text := <-got; !strings.Contains(text, "file:///from/the/user") {
		t.Errorf("the tool returned %q, want the server to have seen the user's answer", text)
	}
}

// TestLocalHoldsToolOfResponse: an answer to this client's tools/call is named, and matched
// by tool:, by the tool the call named, as a tap's are.
func TestLocalHoldsToolOfResponse(t *testing.T) {
	h := NewLocalHolds(time.Minute)
	c, _ := holdsClient(t, h)
	_ = h.Set(BreakpointSet{Filters: []string{"dir:in kind:response tool:echo"}})
	update(t, h)
	got := make(chan error, 1)
	go func() {
		_, _, err := c.CallTool(context.Background(), "echo", json.RawMessage(`{"text":"x"}`))
		got <- err
	}()
	u := update(t, h)
	if u.Held == nil || !strings.Contains(u.Held.What, "(tools/call echo) from the server") {
		t.Fatalf("hold: %+v, want the answer to tools/call echo", u)
	}
	_ = h.Decide(u.Held.ID, HoldDecision{Kind: HoldForward})
	if err := <-got; err != nil {
		t.Errorf("the call: %v", err)
	}
	h.End()
}
