package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The header quotes argv like a shell would; -e variable names show (values masked) on
// the Server pane and in the dead-server panel (B09, B22, B25).
func TestTitleQuotedAndEnvKeys(t *testing.T) {
	argv := []string{"/tmp/mcp", "inspect", "fixtures/demo server", "--root", "/data/My Projects/demo", "--name=a b"}
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Argv: argv, EnvKeys: []string{"API_KEY", "DEBUG"}, Session: &fakeSession{}})
	m.now = func() time.Time { return t0 }
	drive(t, m, tea.WindowSizeMsg{Width: 200, Height: 30})
	want := `/tmp/mcp inspect 'fixtures/demo server' --root '/data/My Projects/demo' '--name=a b'`
	mustContain(t, "header", view(m), want)
	keys(t, m, "4")
	mustContain(t, "server pane", view(m), "env: API_KEY=*** DEBUG=***")
	drive(t, m, eventsMsg{events: []mcpclient.Event{
		ev(1, mcpclient.Stderr, "error: required environment variable DEMO_API_KEY is not set\n"),
		life(2, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, ExitCode: 2}),
	}})
	keys(t, m, "1")
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
		exec(t, m, m.Init(), 0)
		bar := m.statusBar()
		if !strings.Contains(bar, c.want) {
			t.Errorf("%s: status bar %q lacks %q", c.version, bar, c.want)
		}
		if c.warns == nil && strings.Contains(bar, "⚠") {
			t.Errorf("a known version is flagged: %q", bar)
		}
	}
}
