package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/session"
)

// TestHelpSmallTerminal: at 40x10 the help overlay shows keys (one column), scrolls with
// j and pgdn to the last global key, and at 60x16 no row is cut past the width.
func TestHelpSmallTerminal(t *testing.T) {
	m := newTestModel(t, greetSession(), 40, 10)
	exec(t, m, m.Init(), 0)
	keys(t, m, "?")
	out := view(m)
	if !strings.Contains(out, "keys · ") || !strings.Contains(out, m.c.keys.List.Up.Help().Desc) {
		t.Fatalf("help at 40x10 shows no keys:\n%s", out)
	}
	last := m.c.keys.Global.ForceQuit.Help().Desc
	if strings.Contains(out, last) {
		t.Fatalf("the whole help fits in 10 lines? then this test proves nothing:\n%s", out)
	}
	keys(t, m, "j")
	if m.help.off != 1 {
		t.Fatalf("j did not scroll the help: offset %d", m.help.off)
	}
	for range 20 {
		drive(t, m, tea.KeyPressMsg{Code: tea.KeyPgDown})
		_ = view(m)
	}
	if out = view(m); !strings.Contains(out, last) {
		t.Fatalf("pgdn never reaches the last key (%q):\n%s", last, out)
	}
	keys(t, m, "esc")
	if m.help.shown || m.help.off != 0 {
		t.Fatal("esc did not close the help and reset its scroll")
	}

	m = newTestModel(t, greetSession(), 60, 16)
	exec(t, m, m.Init(), 0)
	keys(t, m, "?")
	out = view(m)
	for _, l := range strings.Split(out, "\n") {
		if strings.HasSuffix(strings.TrimRight(l, " "), "…") {
			t.Fatalf("a help row is cut at 60 columns:\n%s", out)
		}
	}
	keys(t, m, "G")
	if out = view(m); !strings.Contains(out, m.c.keys.Global.ForceQuit.Help().Desc) {
		t.Fatalf("G does not reach the last global key at 60x16:\n%s", out)
	}
}

// With help open the screen keeps its height: the status bar stays on the last line.
func TestHelpKeepsStatusBarOnLastLine(t *testing.T) {
	m := newTestModel(t, greetSession(), 140, 40)
	exec(t, m, m.Init(), 0)
	want := m.statusBar()
	keys(t, m, "?")
	if !m.help.shown {
		t.Fatal("? did not open help")
	}
	lines := strings.Split(view(m), "\n")
	if len(lines) != 40 || lines[39] != m.statusBar() || m.statusBar() == "" {
		t.Fatalf("%d lines; last %q, status bar %q (before help: %q)", len(lines), lines[len(lines)-1], m.statusBar(), want)
	}
}

// Help shows the keys of the new panes and of an open dialog; every pane fits the screen.
func TestMorePanesHelpAndLayout(t *testing.T) {
	for _, sz := range [][2]int{{40, 10}, {80, 24}, {160, 50}} {
		m := connected(t, moreSession(), sz[0], sz[1])
		for _, p := range []string{"5", "6", "7", "8"} {
			keys(t, m, p)
			if lines := strings.Split(view(m), "\n"); len(lines) != sz[1] {
				t.Fatalf("%v pane %s: %d lines", sz, p, len(lines))
			}
		}
	}
	m := connected(t, moreSession(), 120, 40)
	keys(t, m, "5", "?")
	mustContain(t, "resources help", view(m), "subscribe ⇄ unsubscribe", "save contents to a file", "ping (round trip)", "edit roots")
	keys(t, m, "?")
	var rec answerLog
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("sampling/createMessage", `{"messages":[],"maxTokens":1}`)}})
	keys(t, m, "?") // the dialog owns the keys: "?" is text in the reply
	if m.help.shown || m.overlay.requests[0].(*samplingDialog).reply.Value() != "?" {
		t.Fatalf("help over a dialog: %v %q", m.help.shown, m.overlay.requests[0].(*samplingDialog).reply.Value())
	}
	mustContain(t, "dialog keys", view(m), "ctrl+s send the reply · ctrl+d or esc reject")
}

// Each list pane's help says what enter does there: Prompts gets a prompt, Tasks sends
// tasks/get; neither offers Resources' read / fill template.
func TestHelpEnterPerPane(t *testing.T) {
	m := connected(t, moreSession(), 160, 60)
	for _, c := range []struct{ pane, want, not string }{
		{"5", "enter read the resource / fill the template", "get (fill"},
		{"6", "enter get (fill its arguments)", "template"},
		{"8", "enter tasks/get", "template"},
	} {
		keys(t, m, c.pane, "?")
		out := view(m)
		keys(t, m, "esc")
		if !strings.Contains(strings.Join(strings.Fields(out), " "), c.want) || strings.Contains(out, c.not) {
			t.Errorf("pane %s help lacks %q or says %q:\n%s", c.pane, c.want, c.not, out)
		}
	}
}

// TestHelpSearch: / in the help types a query that narrows the keys listed (a key's
// name or text holding it, in the pane's and the global keys); esc clears it, then
// closes the help.
func TestHelpSearch(t *testing.T) {
	m := goldenModel(t, 120, 30)
	keys(t, m, "3", "?")
	if !strings.Contains(view(m), "jump request ⇄ response") {
		t.Fatalf("the Wire help lacks p:\n%s", view(m))
	}
	keys(t, m, "/")
	typeIn(t, m, "match")
	out := view(m)
	mustContain(t, "help searched for match", out, "/match", "next match", "previous match")
	for _, gone := range []string{"jump request ⇄ response", "quit (always)"} {
		if strings.Contains(out, gone) {
			t.Errorf("/match still lists %q:\n%s", gone, out)
		}
	}
	// q is text while typing; enter keeps the query, esc clears it, esc again closes.
	typeIn(t, m, "q")
	if !m.help.shown || m.help.query != "matchq" {
		t.Fatalf("q while typing: shown %v query %q", m.help.shown, m.help.query)
	}
	mustContain(t, "no match", view(m), "no key matches")
	keys(t, m, "backspace", "enter")
	mustContain(t, "kept query", view(m), "/match", "next match")
	keys(t, m, "esc")
	if !m.help.shown || m.help.query != "" {
		t.Fatalf("esc with a query: shown %v query %q, want the help with every key", m.help.shown, m.help.query)
	}
	mustContain(t, "every key", view(m), "jump request ⇄ response", "/ searches the keys")
	keys(t, m, "esc")
	if m.help.shown {
		t.Fatal("esc without a query did not close the help")
	}
}
