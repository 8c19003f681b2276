package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A failed tools/list says so, with the error, and never "the server has no tools"; a
// failed listing after a good one keeps the tools and says the last listing failed.
func TestToolsListFailedSaysWhy(t *testing.T) {
	s := greetSession()
	s.tools = nil
	m := newTestModel(t, s, 140, 30)
	send(t, m, initializedMsg{res: s.init})
	send(t, m, toolsListedMsg{err: &mcpclient.RPCError{Code: -32603, Message: "database is locked"}})
	out := view(m)
	mustContain(t, "failed listing", out, "tools · listing failed", "tools/list failed: JSON-RPC error -32603", "database is locked", "r lists again")
	if strings.Contains(out, "has no tools") || strings.Contains(out, "tools (0)") {
		t.Fatalf("a failed listing claims there are no tools:\n%s", out)
	}
	send(t, m, toolsListedMsg{tools: greetSession().tools})
	send(t, m, toolsListedMsg{err: errors.New("server exited with code 1")})
	out = view(m)
	mustContain(t, "failed refresh", out, "tools (2) · last listing failed", "server exited with code 1", "the tools below are from the listing before", "add")
	// r lists again; a listing the user asked for is not announced as a list_changed.
	press(t, m, "r")
	if m.tools.listErr != nil || strings.Contains(m.statusBar(), "list changed") {
		t.Fatalf("r: %v, status %q", m.tools.listErr, m.statusBar())
	}
}

// The selected tool row keeps its title; destructive and idempotent hints are said not to
// apply to a read-only tool.
func TestToolRowTitleAndReadOnlyHints(t *testing.T) {
	s := greetSession()
	m := newTestModel(t, s, 140, 30)
	run(t, m, m.Init(), 0)
	press(t, m, "j")
	out := view(m)
	mustContain(t, "tools", out, "▸greet Greeter", "readOnly     true", "destructive  — (not meaningful: readOnly is true)", "idempotent   — (not meaningful: readOnly is true)")
	if strings.Contains(out, "destructive  true (default)") {
		t.Fatalf("a read-only tool is called destructive:\n%s", out)
	}
}

// The header quotes argv like a shell would; -e variable names show (values masked) on
// the Server pane and in the dead-server panel (B09, B22, B25).
func TestTitleQuotedAndEnvKeys(t *testing.T) {
	argv := []string{"/tmp/mcp", "inspect", "fixtures/demo server", "--root", "/data/My Projects/demo", "--name=a b"}
	m := newModel(Options{Theme: "plain", Argv: argv, EnvKeys: []string{"API_KEY", "DEBUG"}, Session: &fakeSession{}})
	m.now = func() time.Time { return t0 }
	send(t, m, tea.WindowSizeMsg{Width: 200, Height: 30})
	want := `/tmp/mcp inspect 'fixtures/demo server' --root '/data/My Projects/demo' '--name=a b'`
	mustContain(t, "header", view(m), want)
	press(t, m, "4")
	mustContain(t, "server pane", view(m), "env: API_KEY=*** DEBUG=***")
	send(t, m, eventsMsg{events: []mcpclient.Event{
		ev(1, mcpclient.Stderr, "error: required environment variable DEMO_API_KEY is not set\n"),
		life(2, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, ExitCode: 2}),
	}})
	press(t, m, "1")
	out := view(m)
	mustContain(t, "dead panel", out, "exited with code 2", "command: "+want[:30], "env: API_KEY=*** DEBUG=***", "DEMO_API_KEY is not set")
}

// An unknown protocol version (or a handshake warning about the protocol) is drawn as a
// warning in the status bar; a known one is not.
func TestStatusBarProtocolWarning(t *testing.T) {
	for _, c := range []struct {
		version string
		warns   []string
		want    string
	}{
		{"2099-01-01", []string{`server answered protocol version "2099-01-01", which mcp-inspect does not know`}, "⚠ protocol 2099-01-01 (unknown)"},
		{"2025-06-18", []string{"server chose protocol version 2025-06-18 instead of the requested 2025-11-25"}, "⚠ protocol 2025-06-18 ·"},
		{"2025-11-25", nil, " protocol 2025-11-25 ·"},
	} {
		s := greetSession()
		s.init = &mcpclient.InitializeResult{ProtocolVersion: c.version, ServerInfo: s.init.ServerInfo, Warnings: c.warns}
		m := newTestModel(t, s, 140, 30)
		run(t, m, m.Init(), 0)
		bar := m.statusBar()
		if !strings.Contains(bar, c.want) {
			t.Errorf("%s: status bar %q lacks %q", c.version, bar, c.want)
		}
		if c.warns == nil && strings.Contains(bar, "⚠") {
			t.Errorf("a known version is flagged: %q", bar)
		}
	}
}

// While the handshake waits, the Tools pane says for how long and what the timeout is.
func TestHandshakeWaitShowsElapsed(t *testing.T) {
	now := t0
	m := newModel(Options{Theme: "plain", Session: &blockingConnect{}, Timeout: 30 * time.Second})
	m.now = func() time.Time { return now }
	send(t, m, tea.WindowSizeMsg{Width: 140, Height: 30})
	m.Init()
	now = now.Add(7 * time.Second)
	send(t, m, waitTickMsg{})
	mustContain(t, "waiting", view(m), "waiting for the handshake… 7s (timeout 30s)")
	if strings.Contains(view(m), "tools (0)") {
		t.Fatalf("before any listing the count is unknown, not 0:\n%s", view(m))
	}
	press(t, m, "4")
	mustContain(t, "server pane", view(m), "waiting for the handshake… 7s (timeout 30s)")
}

// blockingConnect is a session whose handshake never answers.
type blockingConnect struct{ fakeSession }

func (b *blockingConnect) Connect(ctx context.Context) (*mcpclient.InitializeResult, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}
