package session

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// requestEv is a request as the wire filter reads it.
type requestEv struct{ method string }

var _ wirefilter.Event = requestEv{}

func (e requestEv) Dir() string            { return "out" }
func (e requestEv) Kind() string           { return "request" }
func (e requestEv) Method() string         { return e.method }
func (e requestEv) ID() string             { return "1" }
func (e requestEv) Elapsed() time.Duration { return 0 }
func (e requestEv) HasProblem() bool       { return false }
func (e requestEv) Tool() string           { return "" }
func (e requestEv) ToolError() bool        { return false }
func (e requestEv) Raw() ([]byte, bool)    { return nil, false }
func (e requestEv) Exchange() uint64       { return 0 }

// TestHoldTable: a decision made before the holder waits is not lost; a hold times out
// forwarded unchanged; Release settles what is held and ends the table; refusals.
func TestHoldTable(t *testing.T) {
	var ends []HoldEnd
	tb := NewHoldTable(time.Minute)
	tb.OnEnd = func(e HoldEnd) { ends = append(ends, e) }
	if _, ok := tb.Hold(requestEv{"ping"}, mcpclient.ClientToServer, []byte(`{}`), func() string { return "ping" }, true); ok {
		t.Fatal("held with no breakpoints")
	}
	if _, _, err := tb.Set([]string{"method:(x"}, 0); err == nil || !strings.Contains(err.Error(), `breakpoint "method:(x"`) {
		t.Fatalf("bad filter: %v", err)
	}
	now, had, err := tb.Set([]string{"method:ping", " "}, 0)
	if err != nil || had || len(now.Filters) != 1 || now.Timeout != time.Minute || !tb.Active() {
		t.Fatalf("set: %+v %v %v", now, had, err)
	}
	h, ok := tb.Hold(requestEv{"ping"}, mcpclient.ClientToServer, []byte(`{"id":1}`), func() string { return "ping" }, true)
	if !ok || h.ID != 1 || h.Breakpoint != "method:ping" {
		t.Fatalf("hold: %+v %v", h, ok)
	}
	if err := tb.Decide(h.ID, HoldDecision{Kind: HoldSend, Message: []byte(`{"id": 1, "x": [1, 2]}`)}); err != nil {
		t.Fatal(err)
	}
	if v := tb.Wait(h); v.How != "edited" || string(v.Decision.Message) != `{"id":1,"x":[1,2]}` {
		t.Fatalf("verdict decided before Wait: %+v", v)
	}
	if err := tb.Decide(h.ID, HoldDecision{Kind: HoldDrop}); err == nil || !strings.Contains(err.Error(), "no longer held") {
		t.Fatalf("deciding twice: %v", err)
	}

	_, _, _ = tb.Set([]string{"method:ping"}, 20*time.Millisecond)
	h, _ = tb.Hold(requestEv{"ping"}, mcpclient.ClientToServer, []byte(`{"id":2}`), func() string { return "ping" }, false)
	if err := tb.Decide(h.ID, HoldDecision{Kind: HoldAnswer, Message: []byte(`{}`)}); err == nil || !strings.Contains(err.Error(), "cannot be answered") {
		t.Fatalf("answering what is not a request: %v", err)
	}
	if err := tb.Decide(h.ID, HoldDecision{Kind: HoldSend, Message: []byte(`{`)}); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Fatalf("an edit that is not JSON: %v", err)
	}
	if v := tb.Wait(h); v.How != "timeout" || v.Decision.Kind != HoldForward {
		t.Fatalf("timeout: %+v", v)
	}

	_, _, _ = tb.Set([]string{"method:ping"}, time.Minute)
	h, _ = tb.Hold(requestEv{"ping"}, mcpclient.ClientToServer, []byte(`{"id":3}`), func() string { return "ping" }, true)
	var released []int64
	go tb.Release("ended", true, func(hd Hold, v HoldVerdict) { released = append(released, hd.ID) })
	if v := tb.Wait(h); v.How != "ended" || v.Decision.Kind != HoldForward {
		t.Fatalf("release: %+v", v)
	}
	if tb.Active() {
		t.Error("active after the end")
	}
	if _, _, err := tb.Set([]string{"method:ping"}, 0); err == nil {
		t.Error("set after the end")
	}
	if len(ends) != 3 || ends[0].How != "edited" || ends[1].How != "timeout" || ends[2].How != "ended" {
		t.Errorf("ends told: %+v", ends)
	}
}

// dirEv is an event of which only the direction is known.
type dirEv struct{ requestEv }

func (d dirEv) Dir() string { return d.method } // the direction, in method's place

// TestHoldTableMayMatch: from the direction alone, breakpoints on what the host sends cannot
// match what the server sends (an HTTP tap then streams answers through unread).
func TestHoldTableMayMatch(t *testing.T) {
	tb := NewHoldTable(0)
	known := func(key string) bool { return key == "dir" }
	if tb.MayMatch(dirEv{requestEv{"in"}}, known) {
		t.Error("may match with no breakpoints")
	}
	_, _, _ = tb.Set([]string{"dir:out method:tools/call", "dir:out tool:delete_*"}, 0)
	if tb.MayMatch(dirEv{requestEv{"in"}}, known) || !tb.MayMatch(dirEv{requestEv{"out"}}, known) {
		t.Error("dir:out breakpoints: want no for in, maybe for out")
	}
	_, _, _ = tb.Set([]string{"method:tools/call"}, 0)
	if !tb.MayMatch(dirEv{requestEv{"in"}}, known) {
		t.Error("a breakpoint without dir: may match either way")
	}
}
