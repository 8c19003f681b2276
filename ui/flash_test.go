package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestFlashQueuesItsExpiry: a status note set by an event (resources/updated) queues the
// redraw that takes it away after flashFor, like m.note does, so an idle screen does not
// keep it; once flashFor has passed it is gone from the status bar.
func TestFlashQueuesItsExpiry(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "5", "s", "1")
	upd := ev(7, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///notes.txt"}}`+"\n")
	m.pending = nil
	m.observeEvent(&upd)
	if !strings.Contains(m.flashText(), "resource updated: file:///notes.txt") {
		t.Fatalf("flash %q", m.flashText())
	}
	if len(m.pending) != 1 {
		t.Fatalf("%d commands queued with the flash, want its expiry redraw", len(m.pending))
	}
	at := m.now().Add(flashFor)
	m.now = func() time.Time { return at }
	if bar := m.statusBar(); strings.Contains(bar, "resource updated") {
		t.Errorf("the flash outlived flashFor: %q", bar)
	}
}
