package tap

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	mcpsession "github.com/mcp-inspect/mcp-inspect/session"
)

// controller attaches to h's tap and reads its stream (trace lines are skipped); the
// breakpoint updates come on the channel.
func controller(t *testing.T, h *harness) (*Stream, <-chan mcpsession.HoldUpdate) {
	t.Helper()
	st, err := Attach(h.socket)
	if err != nil {
		t.Fatal(err)
	}
	ch := st.Updates()
	go func() {
		for {
			if _, err := st.Next(); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { st.Close() })
	return st, ch
}

// nextUpdate waits for the next update.
func nextUpdate(t *testing.T, ch <-chan mcpsession.HoldUpdate) mcpsession.HoldUpdate {
	t.Helper()
	select {
	case u, ok := <-ch:
		if !ok {
			t.Fatal("the updates ended")
		}
		return u
	case <-time.After(10 * time.Second):
		t.Fatal("no update from the tap")
	}
	return mcpsession.HoldUpdate{}
}

// setBreakpoints sets filters and waits for the tap's word on them.
func setBreakpoints(t *testing.T, st *Stream, ch <-chan mcpsession.HoldUpdate, timeout time.Duration, filters ...string) {
	t.Helper()
	if err := st.Set(mcpsession.BreakpointSet{Filters: filters, Timeout: timeout}); err != nil {
		t.Fatal(err)
	}
	u := nextUpdate(t, ch)
	if u.Set == nil || strings.Join(u.Set.Filters, ";") != strings.Join(filters, ";") {
		t.Fatalf("after Set: %+v (refused %q)", u, u.Refused)
	}
}

// heldNext waits for a hold.
func heldNext(t *testing.T, ch <-chan mcpsession.HoldUpdate) *mcpsession.Hold {
	t.Helper()
	u := nextUpdate(t, ch)
	if u.Held == nil {
		t.Fatalf("want a hold, got %+v", u)
	}
	return u.Held
}

// endedNext waits for a hold's end.
func endedNext(t *testing.T, ch <-chan mcpsession.HoldUpdate) *mcpsession.HoldEnd {
	t.Helper()
	u := nextUpdate(t, ch)
	if u.Ended == nil {
		t.Fatalf("want a hold's end, got %+v", u)
	}
	return u.Ended
}

// TestBreakpointDecisions holds host requests on cat (each line the host sends comes back)
// and settles each hold a different way: forward, send edited, drop, answer.
func TestBreakpointDecisions(t *testing.T) {
	h := startTap(t, catArgv(), nil)
	st, ch := controller(t, h)
	setBreakpoints(t, st, ch, time.Minute, "dir:out method:tools/call")

	// Forward: the held request goes on unchanged; nothing passed it while held.
	h.write([]byte(callReq))
	hd := heldNext(t, ch)
	if string(hd.Raw)+"\n" != callReq || hd.Dir != mcpclient.ClientToServer || !hd.Request ||
		hd.Breakpoint != "dir:out method:tools/call" || hd.What != "request id 7 (tools/call echo) from the host" {
		t.Fatalf("hold = %+v", hd)
	}
	h.write([]byte(pingReq)) // behind the held frame: order is kept
	time.Sleep(100 * time.Millisecond)
	if got := h.hostGot(); len(got) != 0 {
		t.Fatalf("the host got %q while the request was held", got)
	}
	if err := st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldForward}); err != nil {
		t.Fatal(err)
	}
	if e := endedNext(t, ch); e.ID != hd.ID || e.How != "forwarded" {
		t.Fatalf("end = %+v", e)
	}
	h.waitHost(len(callReq+pingReq), 10*time.Second)

	// Send: an edited message goes on in its place, compacted to one line.
	h.write([]byte(callReq))
	hd = heldNext(t, ch)
	edited := "{\n  \"jsonrpc\": \"2.0\", \"id\": 7,\n  \"method\": \"tools/call\", \"params\": {\"name\": \"echo\", \"arguments\": {\"message\": \"edited\"}}\n}"
	if err := st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldSend, Message: []byte(edited)}); err != nil {
		t.Fatal(err)
	}
	if e := endedNext(t, ch); e.How != "edited" {
		t.Fatalf("end = %+v", e)
	}
	sent := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":"edited"}}}` + "\n"
	h.waitHost(len(callReq+pingReq+sent), 10*time.Second)

	// Drop: nothing goes on; the next frame does.
	h.write([]byte(callReq))
	hd = heldNext(t, ch)
	_ = st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldDrop})
	if e := endedNext(t, ch); e.How != "dropped" {
		t.Fatalf("end = %+v", e)
	}
	h.write([]byte(listReq))
	h.waitHost(len(callReq+pingReq+sent+listReq), 10*time.Second)

	// Answer: the host gets the attach's answer; the server never sees the request.
	h.write([]byte(callReq))
	hd = heldNext(t, ch)
	answer := `{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"held and refused"}}`
	_ = st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldAnswer, Message: []byte(answer)})
	if e := endedNext(t, ch); e.How != "answered" {
		t.Fatalf("end = %+v", e)
	}
	want := callReq + pingReq + sent + listReq + answer + "\n"
	got := h.waitHost(len(want), 10*time.Second)
	h.finish()
	if string(got) != want {
		t.Fatalf("the host got\n%s\nwant\n%s", got, want)
	}

	_, evs := readTrace(t, h.trace)
	n := strings.Join(notes(evs), "\n")
	for _, w := range []string{
		"breakpoints: the attach set breakpoints: dir:out method:tools/call",
		"held: breakpoint (dir:out method:tools/call): holding request id 7 (tools/call echo) from the host #1",
		"released: breakpoint (dir:out method:tools/call): forwarded request id 7 (tools/call echo) from the host #1 unchanged after",
		"edited: breakpoint (dir:out method:tools/call): sent an edited message in place of request id 7 (tools/call echo) from the host #2",
		"dropped: breakpoint (dir:out method:tools/call): dropped request id 7 (tools/call echo) from the host #3",
		"injected: breakpoint (dir:out method:tools/call): answered request id 7 (tools/call echo) from the host #4",
	} {
		if !strings.Contains(n, w) {
			t.Errorf("notes lack %q:\n%s", w, n)
		}
	}
	// The trace has the original frames the host sent, and what went on in their place.
	c2s := string(stream(evs, mcpclient.ClientToServer))
	if strings.Count(c2s, callReq) != 4 || !strings.Contains(c2s, sent) {
		t.Errorf("trace c2s:\n%s", c2s)
	}
	if s2c := string(stream(evs, mcpclient.ServerToClient)); !strings.Contains(s2c, answer) {
		t.Errorf("trace s2c lacks the answer:\n%s", s2c)
	}
}

// TestBreakpointRefusals: a second attach cannot set breakpoints, a bad filter is refused
// with its column, answering a response or sending non-JSON is refused, and the hold stays.
func TestBreakpointRefusals(t *testing.T) {
	h := startTap(t, catArgv(), nil)
	st, ch := controller(t, h)
	if err := st.Set(mcpsession.BreakpointSet{Filters: []string{"method:(tools"}}); err != nil {
		t.Fatal(err)
	}
	if u := nextUpdate(t, ch); !strings.Contains(u.Refused, `breakpoint "method:(tools": column`) {
		t.Fatalf("bad filter: %+v", u)
	}
	setBreakpoints(t, st, ch, time.Minute, "dir:in kind:response")

	other, och := controller(t, h)
	if err := other.Set(mcpsession.BreakpointSet{Filters: []string{"method:ping"}}); err != nil {
		t.Fatal(err)
	}
	if u := nextUpdate(t, och); !strings.Contains(u.Refused, "another attach has set breakpoints") {
		t.Fatalf("second attach: %+v", u)
	}

	h.write([]byte(okResp)) // cat echoes it: a response from the server
	hd := heldNext(t, ch)
	if hd.Dir != mcpclient.ServerToClient || hd.Request {
		t.Fatalf("hold = %+v", hd)
	}
	if err := other.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldDrop}); err != nil {
		t.Fatal(err)
	}
	if u := nextUpdate(t, och); !strings.Contains(u.Refused, "did not set the breakpoints") {
		t.Fatalf("decide from the other attach: %+v", u)
	}
	_ = st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldAnswer, Message: []byte(`{"jsonrpc":"2.0","id":5,"result":{}}`)})
	if u := nextUpdate(t, ch); !strings.Contains(u.Refused, "cannot be answered in the receiver's place: only a request can be") {
		t.Fatalf("answer a response: %+v", u)
	}
	// Lines Decide would not send, written raw on the socket.
	for line, want := range map[string]string{
		`{"op":"decide","hold":1,"decision":"send"}`:          "decision send needs a message",
		`{"op":"decide","hold":1,"decision":"ignore"}`:        `decision "ignore": want forward, send, drop or answer`,
		`{"op":"decide","hold":1,"decision":"send",`:          "the line is not JSON",
		`{"op":"decide","hold":9,"decision":"forward"}`:       "hold #9 is no longer held",
		`{"op":"break","filters":["dir:in"],"timeout":"-1s"}`: `timeout "-1s": want a positive Go duration`,
	} {
		if _, err := st.conn.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
		if u := nextUpdate(t, ch); !strings.Contains(u.Refused, want) {
			t.Errorf("%s: %+v, want refused %q", line, u, want)
		}
	}
	_ = st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldForward})
	if e := endedNext(t, ch); e.How != "forwarded" {
		t.Fatalf("end = %+v", e)
	}
	h.waitHost(len(okResp), 10*time.Second)
	h.finish()
}

// TestBreakpointReleases: a hold times out, and holds left when the attach detaches go on
// unchanged, in order; the breakpoints go with the attach.
func TestBreakpointReleases(t *testing.T) {
	h := startTap(t, catArgv(), nil)
	st, ch := controller(t, h)
	setBreakpoints(t, st, ch, 300*time.Millisecond, "dir:out")
	h.write([]byte(pingReq))
	hd := heldNext(t, ch)
	if e := endedNext(t, ch); e.ID != hd.ID || e.How != "timeout" {
		t.Fatalf("end = %+v", e)
	}
	h.waitHost(len(pingReq), 10*time.Second)

	setBreakpoints(t, st, ch, time.Minute, "dir:out", "dir:in method:tools/list")
	h.write([]byte(listReq + callReq))
	held := heldNext(t, ch)
	if held.What != "request id 2 (tools/list) from the host" {
		t.Fatalf("first hold = %+v", held)
	}
	st.Close() // detach with a frame held (and one waiting behind it)
	got := h.waitHost(len(pingReq+listReq+callReq), 10*time.Second)
	h.finish()
	if string(got) != pingReq+listReq+callReq {
		t.Fatalf("the host got %q", got)
	}
	_, evs := readTrace(t, h.trace)
	n := strings.Join(notes(evs), "\n")
	for _, w := range []string{
		"released: breakpoint (dir:out): forwarded request id 1 (ping) from the host #1 unchanged after",
		"no decision within the hold's timeout",
		"breakpoints: the attach that set breakpoints detached: they are cleared",
		"released: breakpoint (dir:out): forwarded request id 2 (tools/list) from the host #2 unchanged after",
		"the attach that held it detached",
	} {
		if !strings.Contains(n, w) {
			t.Errorf("notes lack %q:\n%s", w, n)
		}
	}
	if strings.Contains(n, "#3") {
		t.Errorf("a frame was held after the attach detached:\n%s", n)
	}
}

// TestBreakpointSessionEnd: the server exits while a frame it sent is held; it still
// reaches the host.
func TestBreakpointSessionEnd(t *testing.T) {
	h := startTap(t, catArgv(), nil)
	st, ch := controller(t, h)
	setBreakpoints(t, st, ch, time.Minute, "dir:in")
	h.write([]byte(okResp))
	heldNext(t, ch)
	h.in.Close() // the host closes stdin: cat exits, the tap ends
	got := h.waitHost(len(okResp), 10*time.Second)
	h.finish()
	if string(got) != okResp {
		t.Fatalf("the host got %q", got)
	}
	_, evs := readTrace(t, h.trace)
	if n := strings.Join(notes(evs), "\n"); !strings.Contains(n, "the session is ending") {
		t.Errorf("notes:\n%s", n)
	}
}

// TestBreakpointLargeEdit: an edit far larger than a socket read (200 KB) is taken whole.
func TestBreakpointLargeEdit(t *testing.T) {
	h := startTap(t, catArgv(), nil)
	st, ch := controller(t, h)
	setBreakpoints(t, st, ch, time.Minute, "dir:out")
	h.write([]byte(callReq))
	hd := heldNext(t, ch)
	big := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":"` + strings.Repeat("x", 200<<10) + `"}}}`
	if err := st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldSend, Message: []byte(big)}); err != nil {
		t.Fatal(err)
	}
	if e := endedNext(t, ch); e.How != "edited" {
		t.Fatalf("end = %+v", e)
	}
	if got := h.waitHost(len(big)+1, 10*time.Second); string(got) != big+"\n" {
		t.Fatalf("the host got %d bytes, want the %d-byte edit", len(got), len(big)+1)
	}
	h.finish()
}

// TestBreakpointAheadGoesOn: lines that came in the same read ahead of a held one go on at
// once; only what is behind it waits.
func TestBreakpointAheadGoesOn(t *testing.T) {
	h := startTap(t, catArgv(), nil)
	st, ch := controller(t, h)
	setBreakpoints(t, st, ch, time.Minute, "dir:out method:tools/call")
	h.write([]byte(pingReq + callReq + listReq))
	hd := heldNext(t, ch)
	if got := h.waitHost(len(pingReq), 10*time.Second); string(got) != pingReq {
		t.Fatalf("while held the host got %q, want the ping ahead of it", got)
	}
	time.Sleep(50 * time.Millisecond)
	if got := h.hostGot(); string(got) != pingReq {
		t.Fatalf("while held the host got %q: the line behind the held one passed it", got)
	}
	_ = st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldForward})
	if got := h.waitHost(len(pingReq+callReq+listReq), 10*time.Second); string(got) != pingReq+callReq+listReq {
		t.Fatalf("the host got %q", got)
	}
	h.finish()
}

// TestBreakpointServerDies: the server dies while a frame from the host is held: the
// frame's end is in the trace (the session ended), before the recording closes.
func TestBreakpointServerDies(t *testing.T) {
	h := startTap(t, catArgv(), nil)
	st, ch := controller(t, h)
	setBreakpoints(t, st, ch, time.Minute, "dir:out")
	h.write([]byte(pingReq))
	heldNext(t, ch)
	p, err := os.FindProcess(h.pid)
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Kill()
	select {
	case <-h.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the tap did not end after its server died")
	}
	_, evs := readTrace(t, h.trace)
	n := strings.Join(notes(evs), "\n")
	if !strings.Contains(n, "released: breakpoint (dir:out): forwarded request id 1 (ping) from the host #1 unchanged after") ||
		!strings.Contains(n, "the session is ending") {
		t.Errorf("the trace does not say how the hold ended:\n%s", n)
	}
}

// TestBreakpointEditedRequestResponse: the response to a request the attach edited (its
// tool changed) is held and named as the answer to the edited request, the one the server
// got.
func TestBreakpointEditedRequestResponse(t *testing.T) {
	h := startTap(t, catArgv(), nil)
	st, ch := controller(t, h)
	setBreakpoints(t, st, ch, time.Minute, "dir:out kind:request method:tools/call", "dir:in kind:response tool:other")
	h.write([]byte(callReq))
	hd := heldNext(t, ch)
	edited := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"other"}}`
	if err := st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldSend, Message: []byte(edited)}); err != nil {
		t.Fatal(err)
	}
	if e := endedNext(t, ch); e.How != "edited" {
		t.Fatalf("end = %+v", e)
	}
	h.waitHost(len(edited)+1, 10*time.Second) // cat sends the edited request back
	resp := `{"jsonrpc":"2.0","id":7,"result":{}}` + "\n"
	h.write([]byte(resp))
	hd = heldNext(t, ch)
	if hd.What != "response id 7 (tools/call other) from the server" {
		t.Errorf("held %q, want the response to the edited request, named by it", hd.What)
	}
	_ = st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldForward})
	h.waitHost(len(edited)+1+len(resp), 10*time.Second)
	h.finish()
}
