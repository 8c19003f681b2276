package ui

import (
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// A server that answers every listing with another list_changed (case B02's fake does) must
// not make the UI list forever: after a burst, automatic re-listing pauses with a note, and
// r lists again.
func TestListChangedStormPauses(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	changed := func(seq uint64) mcpclient.Event {
		return ev(seq, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`+"\n")
	}
	for i := uint64(0); i < session.ListChangedBurst-1; i++ {
		_, cmd := m.Update(eventsMsg{events: []mcpclient.Event{changed(100 + i)}})
		if cmd == nil || !m.sess.Lists().InFlight(session.Tools) {
			t.Fatalf("list_changed %d did not list again", i+1)
		}
		exec(t, m, cmd, 0)
		if m.sess.Lists().InFlight(session.Tools) {
			t.Fatalf("listing %d did not finish", i+1)
		}
	}
	_, cmd := m.Update(eventsMsg{events: []mcpclient.Event{changed(100 + session.ListChangedBurst)}})
	exec(t, m, cmd, 0)
	if !m.sess.Lists().Paused(session.Tools) || m.sess.Lists().InFlight(session.Tools) {
		t.Fatalf("the storm was not paused (paused=%v inFlight=%v)", m.sess.Lists().Paused(session.Tools), m.sess.Lists().InFlight(session.Tools))
	}
	keys(t, m, "7")
	mustContain(t, "note", view(m), "automatic re-listing of tools is paused")
	_, cmd = m.Update(eventsMsg{events: []mcpclient.Event{changed(200)}})
	exec(t, m, cmd, 0)
	if m.sess.Lists().InFlight(session.Tools) {
		t.Fatal("a paused kind was listed again automatically")
	}
	keys(t, m, "1", "r")
	if m.sess.Lists().Paused(session.Tools) {
		t.Fatal("r must resume")
	}
}
