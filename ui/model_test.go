package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A server that writes "missing API_KEY" to stderr and exits 1 (cases B09): the UI says
// exactly that, with the command line, as soon as the events arrive.
func TestDeadServerPanel(t *testing.T) {
	s := &fakeSession{} // Initialize fails with an ExitError
	m := newTestModel(t, s, 100, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{
		life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 99}),
		ev(2, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`+"\n"),
		ev(3, mcpclient.Stderr, "missing API_KEY\n"),
		life(4, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 99, ExitCode: 1, Text: "server exited with code 1"}),
	}})
	out := view(m)
	for _, want := range []string{"server exited with code 1", "missing API_KEY", "command: fake-server --flag", "dead: exited with code 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("dead panel lacks %q\n%s", want, out)
		}
	}
	// The failed handshake adds no noise when it says the same thing.
	exec(t, m, m.Init(), 0)
	if m.state().InitErr == nil {
		t.Fatal("handshake error not recorded")
	}
	keys(t, m, "4")
	if out := view(m); !strings.Contains(out, "missing API_KEY") || !strings.Contains(out, "server exited with code 1") {
		t.Fatalf("server pane:\n%s", out)
	}
}

func TestKilledBySignalAndSpawnFailure(t *testing.T) {
	m := newTestModel(t, nil, 100, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 5, ExitCode: -1, Signal: "KILL"})}})
	if !strings.Contains(view(m), "server was killed by signal KILL") {
		t.Fatalf("signal:\n%s", view(m))
	}
	m = newTestModel(t, nil, 100, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeSpawnFailed, Err: errors.New("exec: \"nope\": executable file not found in $PATH")})}, closed: true})
	if out := view(m); !strings.Contains(out, "server could not be started: exec: \"nope\": executable file not") || !strings.Contains(out, "found in $PATH") {
		t.Fatalf("spawn failure:\n%s", out)
	}
}

// A normal shutdown (q) is not reported as a death.
func TestShutdownIsNotDeath(t *testing.T) {
	m := newTestModel(t, nil, 100, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{
		life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, Text: "closing the server's stdin"}),
		life(2, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, ExitCode: 0}),
	}})
	if m.state().Failed() || !strings.Contains(view(m), "closed") {
		t.Fatalf("shutdown shown as failure:\n%s", view(m))
	}
}

func TestResultBlocks(t *testing.T) {
	s := greetSession()
	size := int64(3)
	s.result = &mcpclient.CallToolResult{
		Content: []mcpclient.ContentBlock{
			{Type: "text", Text: strings.Repeat("long text ", 40) + "END"},
			{Type: "image", MimeType: "image/png", Data: "iVBORw0KGgo="},
			{Type: "audio", MimeType: "audio/wav", Data: "not base64!"},
			{Type: "resource_link", URI: "file:///a.txt", Name: "a.txt", MimeType: "text/plain", Size: &size},
			{Type: "resource", Resource: &mcpclient.ResourceContents{URI: "mem://x", MimeType: "text/plain", Text: "inline body"}},
			{Type: "hologram", Raw: json.RawMessage(`{"type":"hologram","z":1}`)},
		},
		StructuredContent: json.RawMessage(`{"sum":3}`),
	}
	m := newTestModel(t, s, 80, 60)
	exec(t, m, m.Init(), 0)
	keys(t, m, "enter") // add: a, b required numbers
	typeIn(t, m, "1")
	keys(t, m, "tab")
	typeIn(t, m, "2")
	keys(t, m, "ctrl+s")
	if len(s.calls) != 1 || string(s.calls[0]) != `{"a":1,"b":2}` {
		t.Fatalf("calls %q", s.calls)
	}
	all := strings.Join(m.call.lines, "\n")
	for _, want := range []string{
		"ok · 6 content block(s)", "END",
		"[2] image", "mime: image/png", "size: 8B decoded (8 bytes)",
		"[3] audio", "do not decode",
		"[4] resource_link", "uri:  file:///a.txt", "name: a.txt",
		"[5] resource", "uri:  mem://x", "inline body",
		"[6] unknown content type 'hologram'", `"z": 1`,
		"structuredContent", `"sum": 3`, "took 42ms",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("result lacks %q\n%s", want, all)
		}
	}
	// JSON-RPC errors carry the code's name.
	s.result, s.err = nil, &mcpclient.RPCError{Code: -32602, Message: "bad a"}
	keys(t, m, "e", "ctrl+s")
	if all := strings.Join(m.call.lines, "\n"); !strings.Contains(all, "JSON-RPC error -32602 (invalid params)") || !strings.Contains(all, "bad a") {
		t.Fatalf("rpc error:\n%s", all)
	}
}

func TestCallProgressAndCancel(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := greetSession()
		s.block = true
		m := newTestModel(t, s, 100, 30)
		exec(t, m, m.Init(), 0)
		keys(t, m, "enter")
		typeIn(t, m, "1")
		keys(t, m, "tab")
		typeIn(t, m, "2")
		_, cmd := m.Update(keyMsg("ctrl+s"))
		if !m.call.run.running() {
			t.Fatal("call not running")
		}
		done := make(chan tea.Msg, 4)
		go func() {
			for _, c := range cmd().(tea.BatchMsg) {
				c := c
				go func() { done <- c() }()
			}
		}()
		// The fake reports its request sent as #8 (OnSent): the call knows its own request.
		for msg := range done {
			if sent, ok := msg.(callSentMsg); ok {
				drive(t, m, sent)
				break
			}
		}
		req := ev(8, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":3}}}`+"\n")
		prog := ev(11, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":3,"total":10,"message":"step 3"}}`+"\n")
		prog.Pair = 8
		drive(t, m, eventsMsg{events: []mcpclient.Event{req, prog}})
		m.now = func() time.Time { return t0.Add(3 * time.Second) }
		out := view(m)
		assertClean(t, "in flight", out)
		for _, want := range []string{"waiting for the answer… 1.5s", "###", "3/10", "step 3", "ctrl+x cancels"} {
			if !strings.Contains(out, want) {
				t.Errorf("in-flight view lacks %q\n%s", want, out)
			}
		}
		keys(t, m, "ctrl+x")
		var msg tea.Msg
		for msg = range done {
			if _, ok := msg.(callDoneMsg); ok {
				break
			}
		}
		drive(t, m, msg)
		if m.call.run.running() || !errors.Is(m.call.run.err, context.Canceled) {
			t.Fatalf("cancel: %+v", m.call.run)
		}
		if !strings.Contains(view(m), "cancelled by you") {
			t.Fatalf("cancel view:\n%s", view(m))
		}
	})
}

func TestPumpBatchesInOrder(t *testing.T) {
	ch := make(chan mcpclient.Event, 10)
	for i := 1; i <= 5; i++ {
		ch <- ev(uint64(i), mcpclient.Stderr, "x\n")
	}
	close(ch)
	msg := pumpEvents(ch)().(eventsMsg)
	if len(msg.events) != 5 || !msg.closed {
		t.Fatalf("got %d events closed=%v", len(msg.events), msg.closed)
	}
	for i, e := range msg.events {
		if e.Seq != uint64(i+1) {
			t.Fatalf("out of order: %d at %d", e.Seq, i)
		}
	}
	m := newTestModel(t, nil, 80, 20)
	m.events = ch
	_, cmd := m.Update(msg)
	if cmd != nil || !m.state().EventsClosed || m.tl.len() != 5 {
		t.Fatal("closed channel is re-pumped or events lost")
	}
	open := make(chan mcpclient.Event, 1)
	m.events = open
	if _, cmd := m.Update(eventsMsg{events: []mcpclient.Event{ev(6, mcpclient.Stderr, "y\n")}}); cmd == nil {
		t.Fatal("the pump is not re-issued")
	}
}

func TestLayoutAndTooSmall(t *testing.T) {
	for _, sz := range [][2]int{{40, 10}, {80, 24}, {200, 60}} {
		l := computeLayout(sz[0], sz[1])
		if l.tooSmall || l.header.h+l.body.h+l.status.h != sz[1] || l.body.w != sz[0] {
			t.Fatalf("%v: %+v", sz, l)
		}
		m := newTestModel(t, greetSession(), sz[0], sz[1])
		exec(t, m, m.Init(), 0)
		for _, p := range []string{"1", "2", "3", "4"} {
			keys(t, m, p)
			lines := strings.Split(view(m), "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%v pane %s: %d lines", sz, p, len(lines))
			}
		}
	}
	m := newTestModel(t, nil, 30, 8)
	if out := view(m); !strings.Contains(out, "too small") {
		t.Fatalf("too small:\n%s", out)
	}
	keys(t, m, "q")
	if !m.quitting {
		t.Fatal("q does not quit on the too-small screen")
	}
}

func TestKeysAndHelp(t *testing.T) {
	m := newTestModel(t, greetSession(), 100, 30)
	exec(t, m, m.Init(), 0)
	keys(t, m, "tab")
	if m.focus != paneCall {
		t.Fatal("tab does not cycle")
	}
	keys(t, m, "shift+tab", "3")
	if m.focus != paneWire {
		t.Fatal("3 does not select the wire")
	}
	keys(t, m, "?")
	out := view(m)
	if !strings.Contains(out, "jump request ⇄ response") || strings.Contains(out, "cancel call") {
		t.Fatalf("help shows the wrong keys (cancel is disabled with no call):\n%s", out)
	}
	keys(t, m, "q") // closes help, does not quit
	if m.quitting || m.help.shown {
		t.Fatal("q in help")
	}
	drive(t, m, keyMsg("ctrl+c"))
	if !m.quitting {
		t.Fatal("ctrl+c does not quit")
	}
}

// Run's program path works headless: the view is an alt-screen view.
func TestViewIsAltScreen(t *testing.T) {
	m := newTestModel(t, nil, 80, 24)
	if v := m.View(); !v.AltScreen || !strings.Contains(v.Content, "Wire") {
		t.Fatal("view")
	}
}
