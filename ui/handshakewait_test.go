package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// While the handshake waits, the Tools pane says for how long and what the timeout is.
func TestHandshakeWaitShowsElapsed(t *testing.T) {
	now := t0
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Session: &blockingConnect{}, Timeout: 30 * time.Second})
	m.now = func() time.Time { return now }
	drive(t, m, tea.WindowSizeMsg{Width: 140, Height: 30})
	m.Init()
	now = now.Add(7 * time.Second)
	drive(t, m, waitTickMsg{})
	mustContain(t, "waiting", view(m), "waiting for the handshake… 7s (timeout 30s)")
	if strings.Contains(view(m), "tools (0)") {
		t.Fatalf("before any listing the count is unknown, not 0:\n%s", view(m))
	}
	keys(t, m, "4")
	mustContain(t, "server pane", view(m), "waiting for the handshake… 7s (timeout 30s)")
}

// blockingConnect is a session whose handshake never answers.
type blockingConnect struct{ fakeSession }

func (b *blockingConnect) Connect(ctx context.Context) (*mcpclient.InitializeResult, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// A silent server (mcpclient.SilenceNote): beside the Tools list the panel says what is
// likely and offers L, which ends the UI asking for a restart with --framing
// content-length; the waiting line points at it.
func TestSilentServerPanel(t *testing.T) {
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Session: &blockingConnect{}, Timeout: 30 * time.Second, Restartable: true, Argv: []string{"python3", "server.py"}})
	m.now = func() time.Time { return t0 }
	drive(t, m, tea.WindowSizeMsg{Width: 160, Height: 40})
	m.Init()
	note := mcpclient.SilenceNote + "no answer after 3s and nothing on stdout, though it read what mcp-inspect sent: a server framed LSP-style (Content-Length headers, as MCP courses teach) reads the JSON line as a header and waits silently for more; run again with --framing content-length (or --framing auto, which tries it)"
	drive(t, m, eventsMsg{events: []mcpclient.Event{life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeNote, PID: 42, Text: note})}}, waitTickMsg{})
	out := view(m)
	for _, want := range []string{"the server says nothing", "framed LSP-style", "L restarts it with --framing content-length", "silent server (see beside) · 0s (timeout 30s)"} {
		mustContain(t, "silence panel", out, want)
	}
	keys(t, m, "L")
	res := m.result(nil)
	if res.Framing != mcpclient.FramingContentLength || strings.Join(res.Restart, " ") != "python3 server.py" {
		t.Fatalf("result %+v", res)
	}
}

// A server whose stdout is block-buffered (mcpclient.BufferedNote): the Server pane says so
// and offers U, which ends the UI asking for a restart with PYTHONUNBUFFERED=1; U on a
// server nothing was said of only says why it does nothing.
func TestBufferedServerRestartUnbuffered(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 160, 40)
	m.restart.enabled = true
	m.launch.argv = []string{"python3", "server.py"}
	keys(t, m, "U")
	if m.quitting || m.result(nil).Restart != nil {
		t.Fatal("U restarted a server nothing was said of")
	}
	note := mcpclient.BufferedNote + "5 answers came together (the last is event #14), to requests sent over 1s, one after waiting 1.25s: the server's stdout is likely block-buffered on a pipe"
	drive(t, m, eventsMsg{events: []mcpclient.Event{life(90, mcpclient.LifeInfo{Kind: mcpclient.LifeNote, PID: 42, Text: note})}})
	keys(t, m, "4")
	mustContain(t, "server pane", view(m), "stdout:   ⚠ buffered: 5 answers came together", "U restarts it with PYTHONUNBUFFERED=1")
	keys(t, m, "U")
	res := m.result(nil)
	if !m.quitting || strings.Join(res.Restart, " ") != "python3 server.py" || strings.Join(res.Env, " ") != "PYTHONUNBUFFERED=1" || res.Framing != "" {
		t.Fatalf("result %+v", res)
	}
}
