package ui

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// An HTTP session whose GET stream ended and could not be reopened says so beside
// "connected" (tester's report: the status bar said only "connected" after the server was
// killed); a stream that ended and is being reopened does not.
func TestGETStreamLostInStatus(t *testing.T) {
	m := connected(t, moreSession(), 160, 40)
	note := func(seq uint64, cond mcpclient.NoteCond, text string) eventsMsg {
		return eventsMsg{events: []mcpclient.Event{{Seq: seq, Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: &mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: text, Cond: cond}}}}
	}
	drive(t, m, note(3, "", mcpclient.ListenNote+"ended: EOF (the server closed the stream); reconnecting in 1s"))
	if v := view(m); !strings.Contains(v, "connected") || strings.Contains(v, "GET stream lost") {
		t.Fatalf("a stream being reopened is not lost:\n%s", v)
	}
	// The condition, not the wording, is what counts: a note worded like a lost stream but
	// not marked as one leaves the status alone.
	drive(t, m, note(4, "", mcpclient.ListenNote+"reconnect failed: as worded, but no condition"))
	if v := view(m); strings.Contains(v, "GET stream lost") {
		t.Fatalf("an unmarked note set the status:\n%s", v)
	}
	drive(t, m, note(5, mcpclient.NoteStreamLost, mcpclient.ListenNote+"reconnect failed: connection refused; the server may be gone; requests will tell"))
	mustContain(t, "status line", view(m), "connected · GET stream lost (3 Wire says why)")
}
