package ui

import (
	"time"

	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// A server that answers every listing with another list_changed (case B02's fake does) must
// not make the UI list forever: each list_changed waits for a quiet interval, and after a
// run of listings that each brought another, automatic re-listing pauses with a note naming
// the loop and its rate, and r lists again.
func TestListChangedStormPauses(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	at := t0
	changed := func(seq uint64) mcpclient.Event {
		e := ev(seq, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`+"\n")
		e.Time = at
		return e
	}
	for i := uint64(0); i < session.ListChangedBurst-1; i++ {
		drive(t, m, eventsMsg{events: []mcpclient.Event{changed(100 + i)}})
		if m.sess.Lists().InFlight(session.Tools) {
			t.Fatalf("list_changed %d listed before the quiet interval", i+1)
		}
		at = at.Add(session.ListQuiet)
		_, cmd := m.Update(relistDueMsg{session.Tools, at})
		if cmd == nil || !m.sess.Lists().InFlight(session.Tools) {
			t.Fatalf("list_changed %d did not list again", i+1)
		}
		exec(t, m, cmd, 0)
		if m.sess.Lists().InFlight(session.Tools) {
			t.Fatalf("listing %d did not finish", i+1)
		}
		at = at.Add(5 * time.Millisecond)
	}
	drive(t, m, eventsMsg{events: []mcpclient.Event{changed(100 + session.ListChangedBurst)}})
	at = at.Add(session.ListQuiet)
	drive(t, m, relistDueMsg{session.Tools, at})
	if !m.sess.Lists().Paused(session.Tools) || m.sess.Lists().InFlight(session.Tools) {
		t.Fatalf("the storm was not paused (paused=%v inFlight=%v)", m.sess.Lists().Paused(session.Tools), m.sess.Lists().InFlight(session.Tools))
	}
	keys(t, m, "7")
	mustContain(t, "note", view(m), "list_changed 5 times in 1.02s (5/s)", "is paused; r lists again")
	_, cmd := m.Update(eventsMsg{events: []mcpclient.Event{changed(200)}})
	exec(t, m, cmd, 0)
	drive(t, m, relistDueMsg{session.Tools, at.Add(time.Second)})
	if m.sess.Lists().InFlight(session.Tools) {
		t.Fatal("a paused kind was listed again automatically")
	}
	keys(t, m, "1", "r")
	if m.sess.Lists().Paused(session.Tools) {
		t.Fatal("r must resume")
	}
}
