package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// legacyTraffic is a legacy session a host had with a server: the handshake (the host's
// clientInfo and capabilities), five tools/list_changed within a few milliseconds, and
// one tools/call answered.
var legacyTraffic = []recorded{
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"the-host","version":"4.2"}}}`, nil},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"s","version":"1"}}}`, nil},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, nil},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, nil},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, nil},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, nil},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, nil},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, nil},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, nil},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}`, nil},
}

// viewerModel is the model of mcp-inspect open (fromTrace) or attach (not): no Session,
// the events delivered as the pump would.
func viewerModel(t *testing.T, fromTrace bool, evs []mcpclient.Event) *model {
	t.Helper()
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "viewer", FromTrace: fromTrace})
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	exec(t, m, m.Init(), 0)
	drive(t, m, eventsMsg{events: evs})
	return m
}

// TestViewersDoNotPauseReListing: offline and attached nothing lists tools again, so a
// burst of list_changed neither says that automatic re-listing is paused nor logs it.
func TestViewersDoNotPauseReListing(t *testing.T) {
	for _, fromTrace := range []bool{true, false} {
		m := viewerModel(t, fromTrace, pairedRecording(legacyTraffic))
		if bar := m.statusBar(); strings.Contains(bar, "re-listing") {
			t.Errorf("fromTrace=%v: the status bar speaks of re-listing: %q", fromTrace, bar)
		}
		keys(t, m, "7")
		if v := view(m); strings.Contains(v, "paused") || !strings.Contains(v, "notifications/tools/list_changed") {
			t.Errorf("fromTrace=%v: the Logs pane should list the notifications and no pause:\n%s", fromTrace, v)
		}
	}
}

// TestAttachedWordsAndNoOffers: attached to a tap, the panes say so (not "offline",
// not "recorded"), and the Server pane shows the host as the client, not the roots and
// ping this mcp-inspect would offer (R and P do nothing there). An opened trace says
// "recorded" and shows the recorded client the same way.
func TestAttachedWordsAndNoOffers(t *testing.T) {
	// Before the host's handshake went by.
	m := viewerModel(t, false, nil)
	for _, key := range []string{"1", "5", "6"} {
		keys(t, m, key)
		if v := view(m); !strings.Contains(v, "attached: waiting for the host's handshake") || strings.Contains(v, "offline") {
			t.Errorf("pane %s of a viewer attached before the handshake:\n%s", key, v)
		}
	}
	// The tools of the host's listing: enter shows the calls seen through the tap.
	m = viewerModel(t, false, pairedRecording(legacyTraffic))
	drive(t, m, toolsListedMsg{session.Listing{Tools: []mcpclient.Tool{{Name: "echo", InputSchema: []byte(`{"type":"object"}`)}}}})
	keys(t, m, "1")
	mustContain(t, "attached Tools detail", view(m), "enter: the calls of this tool seen through the tap (read-only)")
	// Nothing can be sent: enter shows calls, c (call by name) and r (list tasks) are not offered.
	keys(t, m, "?")
	if v := view(m); !strings.Contains(v, "the calls of this tool") || strings.Contains(v, "call a tool by name") || strings.Contains(v, "call tool") {
		t.Errorf("the attached Tools help offers to call:\n%s", v)
	}
	keys(t, m, "?")
	keys(t, m, "8")
	if v := view(m); strings.Contains(v, "r lists") {
		t.Errorf("the attached Tasks pane offers r:\n%s", v)
	}

	m = viewerModel(t, false, pairedRecording(legacyTraffic))
	mustContain(t, "attached Tools pane", view(m), "attached: the host has not sent tools/list yet")
	keys(t, m, "2")
	v := view(m)
	mustContain(t, "attached Call pane", v, "calls seen (1) · attached to the tap (read-only)")
	keys(t, m, "4")
	v = view(m)
	mustContain(t, "attached Server pane", v, "client (the host, seen through the tap: read-only)", "name: the-host 4.2", `capabilities: {"roots":{"listChanged":true}}`)
	for _, bad := range []string{"offline", "recorded", "R adds some", "P measures", "mcp-inspect) offers"} {
		if strings.Contains(v, bad) {
			t.Errorf("the attached Server pane says %q:\n%s", bad, v)
		}
	}

	m = viewerModel(t, true, pairedRecording(legacyTraffic))
	mustContain(t, "opened Tools pane", view(m), "offline: no tools/list recorded")
	keys(t, m, "2")
	mustContain(t, "opened Call pane", view(m), "recorded calls (1) · offline: recorded session")
	keys(t, m, "4")
	v = view(m)
	mustContain(t, "opened Server pane", v, "client (as recorded)", "name: the-host 4.2")
	if strings.Contains(v, "R adds some") || strings.Contains(v, "P measures") {
		t.Errorf("the opened trace offers roots or ping:\n%s", v)
	}
}

// TestOpenedTraceLostLinesUpFront: an opened trace that holds its server's exit but lost
// a line says it is incomplete in the status bar next to "closed", and the Call pane does
// not claim the recording holds no tools/call: it counts the unreadable lines.
func TestOpenedTraceLostLinesUpFront(t *testing.T) {
	lines := append(append([]recorded(nil), legacyTraffic[:2]...),
		recorded{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, PID: 42}},
		recorded{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 42}})
	evs := pairedRecording(lines)
	// Two lines were lost before the shutdown: one held a tools/call.
	// As the trace reader marks them (session.MarkLostLines): the count, and the note.
	evs[2].LostLines = 2
	evs[2].Problems = append(evs[2].Problems, mcpclient.Problem{Severity: mcpclient.Info, Code: mcpclient.CodeTraceLinesLost,
		Text: "2 trace lines just before this event could not be read (first: the line at byte 900: bad json); the events on them are missing here"})
	m := viewerModel(t, true, evs)
	drive(t, m, eventsMsg{closed: true})
	bar := m.statusBar()
	mustContain(t, "status bar", bar, "closed", "trace incomplete")
	keys(t, m, "2")
	v := view(m)
	mustContain(t, "Call pane", v, "recorded calls (0) · 2 unreadable trace lines", "could not be read (a call may have been on one)")
	if strings.Contains(v, "no tools/call in the recording") {
		t.Errorf("the Call pane claims there was no call:\n%s", v)
	}
	// A trace that lost a line and holds no exit says where to look too.
	noExit := pairedRecording(legacyTraffic[:2])
	noExit[1].LostLines = 1
	noExit[1].Problems = append(noExit[1].Problems, mcpclient.Problem{Severity: mcpclient.Info, Code: mcpclient.CodeTraceLinesLost,
		Text: "1 trace line(s) just before this event could not be read (the line at byte 300: bad json); the events on them are missing here"})
	m = viewerModel(t, true, noExit)
	drive(t, m, eventsMsg{closed: true})
	mustContain(t, "status bar without an exit", m.statusBar(), "incomplete", "4 Server says why")
	// Without lost lines a complete trace reads "closed" alone.
	m = viewerModel(t, true, pairedRecording(lines))
	drive(t, m, eventsMsg{closed: true})
	if bar := m.statusBar(); !strings.Contains(bar, "closed") || strings.Contains(bar, "incomplete") {
		t.Errorf("status bar of a complete trace: %q", bar)
	}
}

func newOfflineModel(t *testing.T, warnings []string) *model {
	t.Helper()
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "trace t.jsonl", TraceWarnings: warnings, FromTrace: true})
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	return m
}

// An opened trace that ends without the server's exit (the inspector was killed, or the
// file was cut) must not read "connected" once every event is in.
func TestOpenedTraceWithoutExitSaysSo(t *testing.T) {
	m := newOfflineModel(t, nil)
	// While the trace is being read, the recorded "connected" is not shown as a live state.
	drive(t, m, eventsMsg{events: recordedHandshake})
	if bar := m.statusBar(); strings.Contains(bar, "connected") || !strings.Contains(bar, "reading the trace") {
		t.Fatalf("status bar while reading: %q", bar)
	}
	drive(t, m, eventsMsg{closed: true})
	if bar := m.statusBar(); strings.Contains(bar, "connected") || !strings.Contains(bar, "recording ends here (no exit recorded)") {
		t.Fatalf("status bar of a trace without an exit: %q", bar)
	}
	// A trace whose reader found its last line cut says it is incomplete, and why on 4 Server.
	m = newOfflineModel(t, []string{"the last line (685 bytes at byte 2315) is incomplete"})
	drive(t, m, eventsMsg{events: recordedHandshake, closed: true})
	if bar := m.statusBar(); !strings.Contains(bar, "incomplete") {
		t.Fatalf("status bar of a cut trace: %q", bar)
	}
	keys(t, m, "4")
	if v := view(m); !strings.Contains(v, "trace: the last line (685 bytes at byte 2315) is incomplete") {
		t.Fatalf("the Server pane does not list the trace's problem:\n%s", v)
	}
	// A complete trace (the inspector shut the server down) still reads "closed".
	m = newOfflineModel(t, nil)
	drive(t, m, eventsMsg{events: append(append([]mcpclient.Event(nil), recordedHandshake...),
		life(5, mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, PID: 42}),
		life(6, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 42, ExitCode: 0})), closed: true})
	if bar := m.statusBar(); !strings.Contains(bar, "closed") {
		t.Fatalf("status bar of a complete trace: %q", bar)
	}
}

// An attached viewer (a live tap: no session, not a trace file) shows live states.
func TestAttachedViewerShowsLiveState(t *testing.T) {
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "tap"})
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	drive(t, m, eventsMsg{events: recordedHandshake})
	if bar := m.statusBar(); strings.Contains(bar, "reading the trace") || strings.Contains(bar, "recording ends") {
		t.Fatalf("an attached viewer must show the live state: %q", bar)
	}
}

var recordedHandshake = []mcpclient.Event{
	life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 42}),
	ev(2, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`+"\n"),
	ev(3, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`+"\n"),
	life(4, mcpclient.LifeInfo{Kind: mcpclient.LifeInitialized, PID: 42}),
}
