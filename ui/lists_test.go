package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// list_changed lists again (once for a burst) and says so.
func TestListChangedRefreshes(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	s.prompts = append(s.prompts, mcpclient.Prompt{Name: "added"})
	n := func(method string, seq uint64) mcpclient.Event {
		return ev(seq, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"`+method+`"}`+"\n")
	}
	drive(t, m, eventsMsg{events: []mcpclient.Event{n("notifications/prompts/list_changed", 5), n("notifications/tools/list_changed", 6), n("notifications/resources/list_changed", 7)}})
	if len(m.prompts.prompts) != 2 {
		t.Fatal("listed before the quiet interval")
	}
	// The quiet-interval timers fire (fakeTick never does: the test delivers them).
	quiet := t0.Add(7*time.Millisecond + session.ListQuiet)
	drive(t, m, relistDueMsg{session.Prompts, quiet}, relistDueMsg{session.Tools, quiet}, relistDueMsg{session.Resources, quiet})
	if len(m.prompts.prompts) != 3 {
		t.Fatalf("prompts not listed again: %d", len(m.prompts.prompts))
	}
	keys(t, m, "7")
	mustContain(t, "notes", view(m), "prompts list changed: listed again, 3 prompts: + added", "tools list changed: listed again, 1 tool: nothing changed", "resources list changed: listed again, 3 resources: nothing changed")
	// A burst while a listing is in flight asks for exactly one more.
	m.sess.Lists().Start(session.Tools)
	drive(t, m, eventsMsg{events: []mcpclient.Event{n("notifications/tools/list_changed", 8), n("notifications/tools/list_changed", 9)}})
	drive(t, m, relistDueMsg{session.Tools, t0.Add(9*time.Millisecond + session.ListQuiet)})
	if !m.sess.Lists().Dirty(session.Tools) {
		t.Fatal("not marked dirty")
	}
	cmd := m.toolsListed(toolsListedMsg{session.Listing{Tools: s.tools}}, "")
	if cmd == nil || m.sess.Lists().Dirty(session.Tools) || !m.sess.Lists().InFlight(session.Tools) {
		t.Fatal("the burst did not list once more")
	}
}

// Pagination warnings from mcpclient's guard are shown on the pane and the server tab.
func TestPaginationWarningsShown(t *testing.T) {
	s := moreSession()
	s.resWarnings = []string{`stopped paging resources/list: cursor "same" repeated`}
	m := connected(t, s, 120, 30)
	keys(t, m, "5")
	mustContain(t, "warning", view(m), `⚠ stopped paging resources/list: cursor "same" repeated`)
	mustContain(t, "server warnings", strings.Join(m.serverLines(120), "\n"), `⚠ stopped paging resources/list`)
}
