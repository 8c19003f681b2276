package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A --strict session that stopped at a violation says so first, names the rule, and says
// that mcp-inspect stopped the server: the server's exit is not shown as its failure.
func TestStrictStopLeadsTheFailureBox(t *testing.T) {
	m := newTestModel(t, nil, 140, 40)
	v := &mcpclient.ViolationError{Seq: 2, Problem: mcpclient.Problem{Severity: mcpclient.Warning, Code: "not-jsonrpc", Text: "stdout line that is not JSON-RPC"}}
	drive(t, m,
		eventsMsg{events: []mcpclient.Event{
			life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 42}),
			life(2, mcpclient.LifeInfo{Kind: mcpclient.LifeNote, PID: 42, Err: v, Text: v.Error()}),
			life(3, mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, PID: 42, Text: "closing the server's stdin"}),
			life(4, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 42, ExitCode: 0}),
		}},
		initializedMsg{err: v},
	)
	out := view(m)
	lead := strings.Index(out, "--strict stopped the session at the first protocol violation (event #2): stdout line that is not JSON-RPC")
	if lead < 0 {
		t.Fatalf("no --strict lead:\n%s", out)
	}
	if !strings.Contains(out, "rule: MCP 2025-11-25 basic/transports §stdio") {
		t.Errorf("the rule is not named:\n%s", out)
	}
	if !strings.Contains(out, "mcp-inspect then stopped the server (after that it exited with code 0)") {
		t.Errorf("does not say mcp-inspect stopped the server:\n%s", out)
	}
	if strings.Contains(out, "server exited with code 0") || strings.Contains(out, "dead: exited") {
		t.Errorf("the exit reads as the server's failure:\n%s", out)
	}
}

// A call refused because the server is already gone says it was not sent (no "took",
// no "was pending") and offers E (restart).
func TestCallToDeadServerSaysNotSent(t *testing.T) {
	s := &fakeSession{
		init:  &mcpclient.InitializeResult{ProtocolVersion: "2025-11-25", ServerInfo: mcpclient.Implementation{Name: "fake", Version: "1"}},
		tools: []mcpclient.Tool{{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}},
		err:   &mcpclient.ExitError{PID: 7, Signal: "KILL", Pending: "request id 4 (tools/call echo)", NotSent: true},
	}
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "fake", Session: s, Restartable: true})
	m.now = func() time.Time { return t0 }
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	exec(t, m, m.Init(), 0)
	keys(t, m, "enter")
	typeIn(t, m, "x")
	keys(t, m, "ctrl+s", "1", "enter", "ctrl+s") // a second call shows the list of calls
	out := view(m)
	for _, want := range []string{"not sent: the server is not running (it was killed by signal KILL)", "✗ not sent (server gone)",
		"request id 4 (tools/call echo) was refused before it was written", "E edits the command and restarts the server"} {
		if !strings.Contains(out, want) {
			t.Errorf("the call view lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"was pending", "took ", "request #8"} {
		if strings.Contains(out, bad) {
			t.Errorf("the call view says %q:\n%s", bad, out)
		}
	}
}

// A server that exits before the handshake leaves no pane waiting for it: Resources and
// Prompts say the handshake failed (Tools shows the failure).
func TestDeadAtStartNoPaneWaits(t *testing.T) {
	m := newTestModel(t, nil, 120, 30)
	drive(t, m,
		eventsMsg{events: []mcpclient.Event{
			life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 42}),
			life(2, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 42, ExitCode: 2}),
		}},
		initializedMsg{err: &mcpclient.ExitError{PID: 42, ExitCode: 2}},
	)
	for _, p := range []string{"5", "6"} {
		keys(t, m, p)
		out := view(m)
		if strings.Contains(out, "waiting for the handshake") || !strings.Contains(out, "handshake failed") {
			t.Errorf("pane %s still waits for the handshake:\n%s", p, out)
		}
	}
}
