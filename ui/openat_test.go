package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// open --at N (Options.At): once event N has been read, the Wire pane is focused with it
// selected, whatever arrives after it; before it is read nothing moves.
func TestOpenAtShowsTheEvent(t *testing.T) {
	m := newModel(Options{Tick: fakeTick, Theme: "plain", FromTrace: true, At: 4})
	drive(t, m, tea.WindowSizeMsg{Width: 140, Height: 30})
	req := func(seq uint64) mcpclient.Event {
		return ev(seq, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":`+string(rune('0'+seq))+`,"method":"ping"}`+"\n")
	}
	drive(t, m, eventsMsg{events: []mcpclient.Event{req(1), req(2)}})
	if m.focus == paneWire {
		t.Fatal("focused before the event was read")
	}
	drive(t, m, eventsMsg{events: []mcpclient.Event{req(3), req(4), req(5), req(6)}})
	if m.focus != paneWire || m.wire.selected() == nil || m.wire.selected().seq != 4 {
		t.Fatalf("focus %v, selected %+v", m.focus, m.wire.selected())
	}
	drive(t, m, eventsMsg{events: []mcpclient.Event{req(7)}})
	if m.wire.selected().seq != 4 {
		t.Fatalf("the selection moved to %d", m.wire.selected().seq)
	}
}
