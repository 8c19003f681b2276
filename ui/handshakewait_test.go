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
