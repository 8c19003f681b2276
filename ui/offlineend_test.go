package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

func newOfflineModel(t *testing.T, warnings []string) *model {
	t.Helper()
	m := newModel(Options{Theme: "plain", Title: "trace t.jsonl", TraceWarnings: warnings, FromTrace: true})
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	return m
}

var recordedHandshake = []mcpclient.Event{
	life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 42}),
	ev(2, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`+"\n"),
	ev(3, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`+"\n"),
	life(4, mcpclient.LifeInfo{Kind: mcpclient.LifeInitialized, PID: 42}),
}

// An opened trace that ends without the server's exit (the inspector was killed, or the
// file was cut) must not read "connected" once every event is in.
func TestOpenedTraceWithoutExitSaysSo(t *testing.T) {
	m := newOfflineModel(t, nil)
	// While the trace is being read, the recorded "connected" is not shown as a live state.
	send(t, m, eventsMsg{events: recordedHandshake})
	if bar := m.statusBar(); strings.Contains(bar, "connected") || !strings.Contains(bar, "reading the trace") {
		t.Fatalf("status bar while reading: %q", bar)
	}
	send(t, m, eventsMsg{closed: true})
	if bar := m.statusBar(); strings.Contains(bar, "connected") || !strings.Contains(bar, "recording ends here (no exit recorded)") {
		t.Fatalf("status bar of a trace without an exit: %q", bar)
	}
	// A trace whose reader found its last line cut says it is incomplete, and why on 4 Server.
	m = newOfflineModel(t, []string{"the last line (685 bytes at byte 2315) is incomplete"})
	send(t, m, eventsMsg{events: recordedHandshake, closed: true})
	if bar := m.statusBar(); !strings.Contains(bar, "incomplete") {
		t.Fatalf("status bar of a cut trace: %q", bar)
	}
	press(t, m, "4")
	if v := view(m); !strings.Contains(v, "trace: the last line (685 bytes at byte 2315) is incomplete") {
		t.Fatalf("the Server pane does not list the trace's problem:\n%s", v)
	}
	// A complete trace (the inspector shut the server down) still reads "closed".
	m = newOfflineModel(t, nil)
	send(t, m, eventsMsg{events: append(append([]mcpclient.Event(nil), recordedHandshake...),
		life(5, mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, PID: 42}),
		life(6, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 42, ExitCode: 0})), closed: true})
	if bar := m.statusBar(); !strings.Contains(bar, "closed") {
		t.Fatalf("status bar of a complete trace: %q", bar)
	}
}

// An attached viewer (a live tap: no session, not a trace file) shows live states.
func TestAttachedViewerShowsLiveState(t *testing.T) {
	m := newModel(Options{Theme: "plain", Title: "tap"})
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	send(t, m, eventsMsg{events: recordedHandshake})
	if bar := m.statusBar(); strings.Contains(bar, "reading the trace") || strings.Contains(bar, "recording ends") {
		t.Fatalf("an attached viewer must show the live state: %q", bar)
	}
}
