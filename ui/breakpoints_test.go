package ui

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// fakeBreakpoints is a holder that records what the UI asks of it; ch (nil unless a test
// sets it) is its Updates channel.
type fakeBreakpoints struct {
	mu        sync.Mutex
	ch        chan session.HoldUpdate
	sets      []session.BreakpointSet
	decisions []fakeDecision
}

type fakeDecision struct {
	id int64
	d  session.HoldDecision
}

func (f *fakeBreakpoints) Updates() <-chan session.HoldUpdate {
	if f.ch == nil {
		return nil
	}
	return f.ch
}

func (f *fakeBreakpoints) Set(s session.BreakpointSet) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sets = append(f.sets, s)
	return nil
}

func (f *fakeBreakpoints) Decide(id int64, d session.HoldDecision) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.decisions = append(f.decisions, fakeDecision{id, d})
	return nil
}

func (f *fakeBreakpoints) decided() []fakeDecision {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeDecision(nil), f.decisions...)
}

// heldCall is a held tools/call request (hold id, request id).
func heldCall(id int64, reqID int, tool string) *session.Hold {
	raw := `{"jsonrpc":"2.0","id":` + itoa(reqID) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"path":"/tmp/x"}}}`
	return &session.Hold{ID: id, Dir: mcpclient.ClientToServer, Raw: []byte(raw), What: "request id " + itoa(reqID) + " (tools/call " + tool + ")",
		Breakpoint: "method:tools/call tool:delete_*", Request: true, Deadline: t0.Add(2 * time.Minute)}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// bpModel is an attached viewer with the holder f; keys are taken at once (no guard).
func bpModel(t *testing.T, f *fakeBreakpoints) *model {
	t.Helper()
	m := newTestModel(t, nil, 120, 40, func(o *Options) { o.Breakpoints = f })
	m.dialogGuard = 0
	return m
}

// held delivers holder updates as the listener does.
func held(t *testing.T, m *model, ups ...session.HoldUpdate) {
	t.Helper()
	drive(t, m, holdUpdatesMsg{ups: ups})
}

func screen(m *model) string { return ansi.Strip(view(m)) }

// b opens the breakpoints dialog; filters typed are checked by the wire filter parser
// (a bad one is not added, its error shows); t sets the timeout; enter asks the holder
// for the set. The set in force (the holder's answer) shows in the status bar, and a
// refusal is a note.
func TestBreakpointsDialogSetsFilters(t *testing.T) {
	f := &fakeBreakpoints{}
	m := bpModel(t, f)
	keys(t, m, "b")
	mustContain(t, "the breakpoints dialog", screen(m), "breakpoints", "(none: nothing is held)", "hold timeout 2m0s")
	keys(t, m, "a")
	typeIn(t, m, "method:(")
	if out := screen(m); !strings.Contains(out, "✗") {
		t.Errorf("a malformed filter shows no error:\n%s", out)
	}
	keys(t, m, "enter") // refused: it does not parse
	keys(t, m, "esc", "a")
	typeIn(t, m, "method:tools/call tool:delete_*")
	keys(t, m, "enter", "a")
	typeIn(t, m, "dir:in kind:response")
	keys(t, m, "enter", "t", "ctrl+u")
	typeIn(t, m, "30s")
	keys(t, m, "enter")
	mustContain(t, "the breakpoints dialog", screen(m), "method:tools/call tool:delete_*", "dir:in kind:response", "hold timeout 30s")
	keys(t, m, "enter")
	want := session.BreakpointSet{Filters: []string{"method:tools/call tool:delete_*", "dir:in kind:response"}, Timeout: 30 * time.Second}
	if len(f.sets) != 1 || strings.Join(f.sets[0].Filters, "|") != strings.Join(want.Filters, "|") || f.sets[0].Timeout != want.Timeout {
		t.Fatalf("Set calls %+v, want one with %+v", f.sets, want)
	}
	if strings.Contains(screen(m), "a message one matches is held") {
		t.Errorf("the dialog stayed open after enter")
	}
	held(t, m, session.HoldUpdate{Set: &want})
	mustContain(t, "the status bar", screen(m), "break method:tools/call tool:delete… +1")
	// Removing one and setting again asks for the rest.
	keys(t, m, "b", "d", "enter")
	if len(f.sets) != 2 || strings.Join(f.sets[1].Filters, "|") != "dir:in kind:response" {
		t.Fatalf("after removing the first: Set calls %+v", f.sets)
	}
	held(t, m, session.HoldUpdate{Refused: "another viewer has the breakpoints"})
	mustContain(t, "the refusal note", screen(m), "the tap refused: another viewer has the breakpoints")
}

// A held request opens the hold dialog with the message indented, what it is, the
// breakpoint and the countdown; the header counts it; ctrl+s unchanged forwards it.
func TestHoldDialogForwardUnchanged(t *testing.T) {
	f := &fakeBreakpoints{}
	m := bpModel(t, f)
	held(t, m, session.HoldUpdate{Held: heldCall(1, 7, "delete_file")})
	out := screen(m)
	mustContain(t, "the hold dialog", out, "held at a breakpoint: request id 7 (tools/call delete_file)", "host → server",
		"breakpoint method:tools/call tool:delete_*", "goes on unchanged in 1m59s", `"name": "delete_file"`, "⏸ 1 held", "✓ JSON-RPC request")
	keys(t, m, "ctrl+s")
	got := f.decided()
	if len(got) != 1 || got[0].id != 1 || got[0].d.Kind != session.HoldForward || got[0].d.Message != nil {
		t.Fatalf("decisions %+v, want hold 1 forwarded unchanged", got)
	}
	if strings.Contains(screen(m), "held at a breakpoint") {
		t.Errorf("the dialog stayed open after forwarding")
	}
	held(t, m, session.HoldUpdate{Ended: &session.HoldEnd{ID: 1, How: "forwarded"}})
	if out := screen(m); strings.Contains(out, "held") && strings.Contains(out, "⏸") {
		t.Errorf("the header still counts a held message:\n%s", out)
	}
}

// Editing the message and sending it decides HoldSend with the edited JSON; while the text
// is not JSON-RPC the dialog says why and sends nothing.
func TestHoldDialogEditSendAndInvalid(t *testing.T) {
	f := &fakeBreakpoints{}
	m := bpModel(t, f)
	held(t, m, session.HoldUpdate{Held: heldCall(3, 9, "delete_file")})
	typeIn(t, m, "x")
	out := screen(m)
	mustContain(t, "an invalid edit", out, "✗ not JSON: line 1, column 1")
	keys(t, m, "ctrl+s")
	mustContain(t, "the refused send", screen(m), "not sent: not JSON")
	if got := f.decided(); len(got) != 0 {
		t.Fatalf("an invalid message was decided: %+v", got)
	}
	keys(t, m, "backspace")
	drive(t, m, coverKey("end"))
	typeIn(t, m, ` "x-edited": true,`)
	mustContain(t, "a valid edit", screen(m), "✓ JSON-RPC request", "edited")
	keys(t, m, "ctrl+s")
	got := f.decided()
	if len(got) != 1 || got[0].id != 3 || got[0].d.Kind != session.HoldSend {
		t.Fatalf("decisions %+v, want hold 3 sent as edited", got)
	}
	var v map[string]any
	if err := json.Unmarshal(got[0].d.Message, &v); err != nil || v["x-edited"] != true || v["method"] != "tools/call" {
		t.Errorf("sent %s (%v)", got[0].d.Message, err)
	}
	// A request edited into something that is not JSON-RPC is refused too.
	held(t, m, session.HoldUpdate{Held: heldCall(4, 10, "delete_file")})
	drive(t, m, coverKey("end"))
	typeIn(t, m, ` "result": 1,`)
	keys(t, m, "ctrl+s")
	mustContain(t, "a request with a result", screen(m), `not sent: a message with a method must not carry result or error`)
	if got := f.decided(); len(got) != 1 {
		t.Fatalf("a request with a result was decided: %+v", got)
	}
}

// ctrl+d drops the held message.
func TestHoldDialogDrop(t *testing.T) {
	f := &fakeBreakpoints{}
	m := bpModel(t, f)
	held(t, m, session.HoldUpdate{Held: heldCall(2, 5, "delete_file")})
	keys(t, m, "ctrl+d")
	got := f.decided()
	if len(got) != 1 || got[0].id != 2 || got[0].d.Kind != session.HoldDrop {
		t.Fatalf("decisions %+v, want hold 2 dropped", got)
	}
}

// alt+e puts an error response with the held request's id in the editor, alt+r a result;
// ctrl+s sends the answer (HoldAnswer). A notification cannot be answered.
func TestHoldDialogAnswer(t *testing.T) {
	f := &fakeBreakpoints{}
	m := bpModel(t, f)
	held(t, m, session.HoldUpdate{Held: heldCall(5, 42, "delete_file")})
	keys(t, m, "alt+e")
	mustContain(t, "the error answer", screen(m), `"id": 42`, `"code": -32000`, "✓ JSON-RPC error response", "sends it back")
	keys(t, m, "ctrl+s")
	got := f.decided()
	if len(got) != 1 || got[0].id != 5 || got[0].d.Kind != session.HoldAnswer {
		t.Fatalf("decisions %+v, want hold 5 answered", got)
	}
	var resp struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(got[0].d.Message, &resp); err != nil || string(resp.ID) != "42" || resp.Error.Code != -32000 || resp.JSONRPC != "2.0" {
		t.Errorf("answer %s (%v)", got[0].d.Message, err)
	}
	held(t, m, session.HoldUpdate{Held: heldCall(6, 43, "delete_file")})
	keys(t, m, "alt+r", "ctrl+s")
	got = f.decided()
	if len(got) != 2 || got[1].d.Kind != session.HoldAnswer || string(got[1].d.Message) != `{"jsonrpc":"2.0","id":43,"result":{}}` {
		t.Fatalf("decisions %+v, want hold 6 answered with a result", got)
	}
	note := &session.Hold{ID: 7, Dir: mcpclient.ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`),
		What: "notification notifications/message", Breakpoint: "dir:in"}
	held(t, m, session.HoldUpdate{Held: note})
	keys(t, m, "alt+e")
	mustContain(t, "a notification", screen(m), "server → host", "only a held request can be answered")
	if len(f.decided()) != 2 {
		t.Errorf("answering a notification decided something: %+v", f.decided())
	}
}

// Holds queue in arrival order: the dialog shows the first, then the next once it is
// decided; the header counts them until they end.
func TestHoldsQueueInOrder(t *testing.T) {
	f := &fakeBreakpoints{}
	m := bpModel(t, f)
	held(t, m, session.HoldUpdate{Held: heldCall(1, 7, "delete_a")}, session.HoldUpdate{Held: heldCall(2, 8, "delete_b")})
	mustContain(t, "two holds", screen(m), "⏸ 2 held", "delete_a")
	keys(t, m, "ctrl+s")
	mustContain(t, "the second hold", screen(m), "held at a breakpoint: request id 8 (tools/call delete_b)")
	keys(t, m, "ctrl+d")
	got := f.decided()
	if len(got) != 2 || got[0].id != 1 || got[0].d.Kind != session.HoldForward || got[1].id != 2 || got[1].d.Kind != session.HoldDrop {
		t.Fatalf("decisions %+v, want 1 forwarded then 2 dropped", got)
	}
	held(t, m, session.HoldUpdate{Ended: &session.HoldEnd{ID: 1, How: "forwarded"}})
	mustContain(t, "one end", screen(m), "⏸ 1 held")
}

// A hold that ends while its dialog is open (the timeout) closes the dialog with a note
// saying how it ended; nothing is decided.
func TestHoldEndedClosesDialog(t *testing.T) {
	f := &fakeBreakpoints{}
	m := bpModel(t, f)
	held(t, m, session.HoldUpdate{Held: heldCall(1, 7, "delete_file")})
	mustContain(t, "the hold", screen(m), "held at a breakpoint: request id 7")
	held(t, m, session.HoldUpdate{Ended: &session.HoldEnd{ID: 1, How: "timeout"}})
	out := screen(m)
	if strings.Contains(out, "held at a breakpoint") {
		t.Errorf("the dialog stayed open after its hold ended:\n%s", out)
	}
	mustContain(t, "the end note", out, "held request id 7 (tools/call delete_file): timed out: forwarded unchanged")
	if len(f.decided()) != 0 {
		t.Errorf("decided %+v", f.decided())
	}
}

// esc hides the dialog: the message stays held (counted), new holds do not reopen it, B
// shows the first again.
func TestHoldDialogHideAndReopen(t *testing.T) {
	f := &fakeBreakpoints{}
	m := bpModel(t, f)
	held(t, m, session.HoldUpdate{Held: heldCall(1, 7, "delete_a")})
	keys(t, m, "esc")
	held(t, m, session.HoldUpdate{Held: heldCall(2, 8, "delete_b")})
	out := screen(m)
	if strings.Contains(out, "held at a breakpoint") {
		t.Errorf("the dialog shows after esc hid it:\n%s", out)
	}
	mustContain(t, "hidden holds", out, "⏸ 2 held")
	keys(t, m, "B")
	mustContain(t, "B", screen(m), "held at a breakpoint: request id 7 (tools/call delete_a)")
	if len(f.decided()) != 0 {
		t.Errorf("hiding decided %+v", f.decided())
	}
	// Once the holds hidden have all ended, the next hold shows at once.
	keys(t, m, "esc")
	held(t, m, session.HoldUpdate{Ended: &session.HoldEnd{ID: 1, How: "timeout"}}, session.HoldUpdate{Ended: &session.HoldEnd{ID: 2, How: "timeout"}})
	held(t, m, session.HoldUpdate{Held: heldCall(3, 9, "delete_c")})
	mustContain(t, "a hold after the hidden ones ended", screen(m), "held at a breakpoint: request id 9 (tools/call delete_c)")
}

// Without a holder there is no breakpoint UI: b and B do nothing and help does not list them.
func TestNoBreakpointsNoKeys(t *testing.T) {
	m := newTestModel(t, nil, 120, 40)
	before := screen(m)
	keys(t, m, "b", "B")
	if out := screen(m); out != before {
		t.Errorf("b/B changed the screen without a holder:\n%s", out)
	}
	keys(t, m, "?")
	if out := screen(m); strings.Contains(out, "breakpoints: hold the messages") {
		t.Errorf("help lists the breakpoint keys without a holder")
	}
	f := &fakeBreakpoints{}
	m = bpModel(t, f)
	keys(t, m, "?")
	mustContain(t, "help with a holder", screen(m), "breakpoints: hold the messages")
}

// The model listens on Updates from Init: a hold already waiting opens the dialog, and a
// closed channel (detached) clears the queue with a note.
func TestHoldListenerReadsUpdates(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := &fakeBreakpoints{ch: make(chan session.HoldUpdate, 4)}
		f.ch <- session.HoldUpdate{Held: heldCall(1, 7, "delete_file")}
		m := bpModel(t, f)
		exec(t, m, m.Init(), 0)
		mustContain(t, "the listened hold", screen(m), "held at a breakpoint: request id 7", "⏸ 1 held")
		close(f.ch)
		// The listener left waiting returns the close to no one; the test delivers it.
		drive(t, m, holdUpdatesMsg{closed: true})
		out := screen(m)
		if strings.Contains(out, "held at a breakpoint") || strings.Contains(out, "⏸") {
			t.Errorf("after detaching the hold still shows:\n%s", out)
		}
		mustContain(t, "the detach note", out, "forwards the 1 message held unchanged")
	})
}

// An edit that changes a held request's id, or drops it, is sent as asked but the dialog
// says what it does: the sender's request gets no answer.
func TestHoldDialogIDCaution(t *testing.T) {
	f := &fakeBreakpoints{}
	m := bpModel(t, f)
	held(t, m, session.HoldUpdate{Held: heldCall(3, 9, "delete_file")})
	if out := screen(m); strings.Contains(out, "will get no answer") || strings.Contains(out, "is now") {
		t.Fatalf("a caution before any edit:\n%s", out)
	}
	drive(t, m, coverKey("down"))
	drive(t, m, coverKey("down"))
	drive(t, m, coverKey("end"))
	keys(t, m, "backspace", "backspace")
	typeIn(t, m, "99,")
	mustContain(t, "an edited id", screen(m), "✓ JSON-RPC request", "id 9 is now 99: the answer will have id 99, and the sender's request 9 none")
	keys(t, m, "ctrl+s")
	if got := f.decided(); len(got) != 1 || got[0].d.Kind != session.HoldSend {
		t.Fatalf("decisions %+v, want the edit sent", got)
	}
}

// Case B24 (terminal injection) in the hold dialog: a held message's controls and bidi
// overrides never reach the terminal raw. In valid JSON they are shown as JSON escapes
// (the same message, so it can be edited and sent); a frame that is not JSON is shown
// read-only with visible escapes.
func TestHoldDialogNoTerminalInjection(t *testing.T) {
	f := &fakeBreakpoints{}
	m := bpModel(t, f)
	valid := "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Server: Apache \u202eevil\u202c \u0085x\"}]}}"
	held(t, m, session.HoldUpdate{Held: &session.Hold{ID: 1, Dir: mcpclient.ServerToClient, Raw: []byte(valid), What: "response id 1", Breakpoint: "dir:in", Deadline: t0.Add(time.Minute)}})
	out := view(m)
	if strings.ContainsAny(out, "\u202e\u202c\u0085") {
		t.Fatalf("a bidi override or C1 control reached the screen:\n%q", out)
	}
	mustContain(t, "the escapes", screen(m), `\u202eevil\u202c`, "✓ JSON-RPC response")
	keys(t, m, "ctrl+s")
	if got := f.decided(); len(got) != 1 || got[0].d.Kind != session.HoldForward {
		t.Fatalf("decisions %+v, want the message forwarded unchanged (showing escapes is not an edit)", got)
	}
	broken := "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":\"\x1b[2J\x1b]0;PWNED\x07\"}"
	held(t, m, session.HoldUpdate{Held: &session.Hold{ID: 2, Dir: mcpclient.ServerToClient, Raw: []byte(broken), What: "frame", Breakpoint: "dir:in", Deadline: t0.Add(time.Minute)}})
	out = view(m)
	if strings.Contains(out, "\x1b[2J") || strings.Contains(out, "\x1b]0;") || strings.Contains(out, "\x07") {
		t.Fatalf("a control sequence reached the screen:\n%q", out)
	}
	mustContain(t, "the broken frame", screen(m), "read-only: not JSON, and its control characters are shown escaped")
}
