package ui

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// recordedSession is a legacy session as a client and server exchanged it: the handshake,
// a tools/list in two pages, resources and prompts listings, three tools/call (ok, isError,
// JSON-RPC error) and one left unanswered.
var recordedSession = []struct {
	dir mcpclient.Direction
	raw string
}{
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-inspect","version":"0.1.0"}}}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{},"prompts":{}},"serverInfo":{"name":"recorded-demo","version":"9.8.7"},"instructions":"Use echo wisely."}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","description":"Echoes its input","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}],"nextCursor":"p2"}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"p2"}}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"add","inputSchema":{"type":"object"}}]}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"resources/list"}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":3,"result":{"resources":[{"uri":"file:///readme.md","name":"readme"}]}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":4,"method":"resources/templates/list"}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":4,"result":{"resourceTemplates":[{"uriTemplate":"file:///{path}","name":"files"}]}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":5,"method":"prompts/list"}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":5,"result":{"prompts":[{"name":"greet","description":"Says hello"}]}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello offline"}}}`},
	{mcpclient.Stderr, "echo called\n"},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"echoed: hello offline"}]}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"b is required"}],"isError":true}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"nope","arguments":{}}}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Unknown tool: nope"}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"never answered"}}}`},
}

// recordTrace writes the session through the trace writer and reads it back the way
// mcp-inspect open does (classification and pairing recomputed on load).
func recordTrace(t *testing.T) []mcpclient.Event {
	t.Helper()
	tr := recordedTrace(t)
	var evs []mcpclient.Event
	for e, err := range tr.Events() {
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	if len(evs) != len(recordedSession) {
		t.Fatalf("read %d events back, want %d", len(evs), len(recordedSession))
	}
	return evs
}

// recordedTrace writes the session through the trace writer and opens it.
func recordedTrace(t *testing.T) *trace.Trace {
	t.Helper()
	var buf bytes.Buffer
	start := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	w, err := trace.NewWriter(&buf, trace.Header{Start: start, Argv: []string{"demo-server"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range recordedSession {
		e := ev(uint64(i+1), r.dir, r.raw)
		// Each event 10 ms after the one before, so elapsed times are known.
		e.Time = w.Start().Add(time.Duration(i+1) * 10 * time.Millisecond)
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := trace.OpenReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// openOffline builds an opened-trace model (no Session, Options.FromTrace) and delivers the recorded events in
// two batches, as the event pump would.
func openOffline(t *testing.T, evs []mcpclient.Event) *model {
	t.Helper()
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "trace t.jsonl", FromTrace: true})
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	exec(t, m, m.Init(), 0)
	half := len(evs) / 2
	drive(t, m, eventsMsg{events: evs[:half]}, eventsMsg{events: evs[half:], closed: true})
	return m
}

func TestOfflineDerivesServerListsAndCalls(t *testing.T) {
	m := openOffline(t, recordTrace(t))

	// Server pane: serverInfo, protocol, instructions, as the live handshake sets them.
	keys(t, m, "4")
	v := view(m)
	for _, want := range []string{"recorded-demo", "9.8.7", "2025-11-25", "Use echo wisely."} {
		if !strings.Contains(v, want) {
			t.Errorf("Server pane lacks %q:\n%s", want, v)
		}
	}

	// Tools pane: both pages of the one listing.
	keys(t, m, "1")
	if got := len(m.tools.tools); got != 2 {
		t.Fatalf("tools = %d, want 2 (two pages of one listing)", got)
	}
	v = view(m)
	for _, want := range []string{"tools (2)", "echo", "add", "Echoes its input", "recorded calls of this tool"} {
		if want == "recorded calls of this tool" {
			want = "the calls of this tool in the recording"
		}
		if !strings.Contains(v, want) {
			t.Errorf("Tools pane lacks %q:\n%s", want, v)
		}
	}

	// Resources and prompts panes.
	if len(m.resources.resources) != 1 || len(m.resources.templates) != 1 {
		t.Errorf("resources = %d, templates = %d; want 1 and 1", len(m.resources.resources), len(m.resources.templates))
	}
	if len(m.prompts.prompts) != 1 || m.prompts.prompts[0].Name != "greet" {
		t.Errorf("prompts = %+v, want greet", m.prompts.prompts)
	}

	// Enter on echo: its recorded calls, the latest (unanswered) selected.
	keys(t, m, "enter")
	if m.focus != paneCall {
		t.Fatalf("focus = %v after enter on a tool offline, want Call", m.focus)
	}
	v = view(m)
	for _, want := range []string{"recorded calls of echo (2)", "no response", "never answered", "no response in the recording"} {
		if !strings.Contains(v, want) {
			t.Errorf("echo's calls lack %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "[ send ]") {
		t.Errorf("offline Call pane offers to send:\n%s", v)
	}
	// Up: the answered call, its arguments as sent, its result like a live one, its timing.
	keys(t, m, "left") // ←/→ choose calls, as live
	v = view(m)
	for _, want := range []string{`arguments: {"text":"hello offline"}`, "echoed: hello offline", "ok · 1 content block(s)", "took 20ms", "request #14 → response #16"} {
		if !strings.Contains(v, want) {
			t.Errorf("past call lacks %q:\n%s", want, v)
		}
	}

	// esc: every tool's calls; the isError and the JSON-RPC error ones are there.
	keys(t, m, "esc")
	v = view(m)
	for _, want := range []string{"recorded calls (4)", "isError", "error -32602"} {
		if !strings.Contains(v, want) {
			t.Errorf("all calls lack %q:\n%s", want, v)
		}
	}
	if c := m.recorded().Call(1); c.Outcome != session.OutcomeIsError || c.Tool != "add" {
		t.Errorf("add call: %+v, want isError", c)
	}
	if c := m.recorded().Call(2); c.Outcome != session.OutcomeRPCError || m.tl.codes[c.RespSeq] != -32602 {
		t.Errorf("nope call: %+v, want the JSON-RPC error -32602", c)
	}
	keys(t, m, "right", "right")
	if v = view(m); !strings.Contains(v, "Unknown tool: nope") {
		t.Errorf("the JSON-RPC error call does not show its error:\n%s", v)
	}
}

// TestOfflineModernDiscover: a modern recording's server/discover answer fills the Server
// pane (serverInfo from _meta, the version the request asked for).
func TestOfflineModernDiscover(t *testing.T) {
	evs := []mcpclient.Event{
		ev(1, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`),
		ev(2, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern-one","version":"2.0"}}}}`),
	}
	p := mcpclient.NewPairer()
	for i := range evs {
		p.Add(&evs[i])
	}
	m := openOffline(t, evs)
	if m.state().Init == nil || m.state().Init.ServerInfo.Name != "modern-one" || m.state().Init.ProtocolVersion != "2026-07-28" || m.state().Era() != mcpclient.EraModern {
		t.Fatalf("init = %+v", m.state().Init)
	}
	keys(t, m, "1")
	if v := view(m); !strings.Contains(v, "offline: no tools/list recorded") {
		t.Errorf("Tools pane does not say the recording has no listing:\n%s", v)
	}
}

// TestOfflineLoadsOnDemand: with a loader (mcp-inspect open), the timeline keeps no bytes;
// a row drawn from its bytes and the selected frame say "loading…" until the load Cmd's
// answer arrives, then show the bytes; a past call is read back the same way; a load that
// fails says so instead of loading forever.
func TestOfflineLoadsOnDemand(t *testing.T) {
	tr := recordedTrace(t)
	var loads []uint64
	m := newTestModel(t, nil, 140, 40)
	m.tl.setLoader(func(seq uint64) (mcpclient.Event, error) {
		loads = append(loads, seq)
		return tr.EventBySeq(seq)
	})
	var evs []mcpclient.Event
	for e, err := range tr.Events() {
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	m.update(eventsMsg{events: evs, closed: true})
	if len(m.tl.raws) != 0 {
		t.Fatalf("the timeline kept %d events' bytes", len(m.tl.raws))
	}
	// The stderr line (#15) selected: its row and the detail wait for the bytes.
	m.update(keyMsg("3"))
	m.wire.jump(15)
	v := view(m)
	mustContain(t, "before the load", v, "loading…", "loading the frame's bytes from the trace…")
	if strings.Contains(v, "echo called") {
		t.Fatalf("bytes shown before they were loaded:\n%s", v)
	}
	cmd := m.loadShown()
	if cmd == nil {
		t.Fatal("nothing asked for the shown bytes")
	}
	if again := m.loadShown(); again != nil {
		t.Error("the same events were asked for twice")
	}
	m.update(cmd())
	v = view(m)
	mustContain(t, "after the load", v, "echo called")
	if strings.Contains(v, "loading") {
		t.Errorf("still loading after the load:\n%s", v)
	}
	if !slices.Contains(loads, 15) {
		t.Errorf("loads %v do not include the stderr line #15", loads)
	}
	// A past call: rows and detail read back through the loader, in one round of loads
	// (the Cmd that comes with the key).
	m3 := newTestModel(t, nil, 140, 40)
	m3.tl.setLoader(tr.EventBySeq)
	m3.update(eventsMsg{events: evs, closed: true})
	m3.update(keyMsg("2"))
	m3.update(keyMsg("G"))
	v = view(m3)
	mustContain(t, "past call before the load", v, "loading the call from the trace…", "#17    add                      isError            10ms  …")
	m3.update(m3.loadShown()())
	v = view(m3)
	mustContain(t, "past call", v, `{"text":"never answered"}`, "no response in the recording", `{"a":1}`, `{"text":"hello offline"}`)
	if strings.Contains(v, "…") {
		t.Errorf("a row still waits for its request:\n%s", v)
	}

	// A load that fails: the frame says why.
	m2 := newTestModel(t, nil, 140, 40)
	m2.tl.setLoader(func(seq uint64) (mcpclient.Event, error) { return mcpclient.Event{}, errors.New("disk on fire") })
	m2.update(eventsMsg{events: evs, closed: true})
	m2.update(keyMsg("3"))
	m2.wire.jump(15)
	_ = view(m2)
	m2.update(m2.loadShown()())
	mustContain(t, "failed load", view(m2), "could not read this event from the trace: disk on fire", "« stderr       (could not read this event from the")
	if m2.loadShown() != nil {
		t.Error("a failed event was asked for again")
	}
	m2.update(keyMsg("2"))
	_ = view(m2)
	mustContain(t, "failed past call", view(m2), "the request could not be read back from the trace: disk on fire")
}

// TestOfflineReadingCount: while a trace's events still arrive, the wire title counts them
// against the trace's length; once Events closes it stops.
func TestOfflineReadingCount(t *testing.T) {
	evs := recordTrace(t)
	m := newModel(Options{Tick: fakeTick, Theme: "plain", TraceLen: 50})
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 30})
	m.update(eventsMsg{events: evs[:10]})
	m.update(keyMsg("3"))
	mustContain(t, "reading", view(m), "reading the trace: 10 of 50")
	m.update(eventsMsg{events: evs[10:], closed: true})
	if v := view(m); strings.Contains(v, "reading the trace") {
		t.Errorf("still reading after the last event:\n%s", v)
	}
}
