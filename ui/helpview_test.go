package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestHelpSmallTerminal: at 40x10 the help overlay shows keys (one column), scrolls with
// j and pgdn to the last global key, and at 60x16 no row is cut past the width.
func TestHelpSmallTerminal(t *testing.T) {
	m := newTestModel(t, greetSession(), 40, 10)
	run(t, m, m.Init(), 0)
	press(t, m, "?")
	out := view(m)
	if !strings.Contains(out, "keys · ") || !strings.Contains(out, m.c.keys.List.Up.Help().Desc) {
		t.Fatalf("help at 40x10 shows no keys:\n%s", out)
	}
	last := m.c.keys.Global.ForceQuit.Help().Desc
	if strings.Contains(out, last) {
		t.Fatalf("the whole help fits in 10 lines? then this test proves nothing:\n%s", out)
	}
	press(t, m, "j")
	if m.helpOff != 1 {
		t.Fatalf("j did not scroll the help: offset %d", m.helpOff)
	}
	for range 20 {
		send(t, m, tea.KeyPressMsg{Code: tea.KeyPgDown})
		_ = view(m)
	}
	if out = view(m); !strings.Contains(out, last) {
		t.Fatalf("pgdn never reaches the last key (%q):\n%s", last, out)
	}
	press(t, m, "esc")
	if m.showHelp || m.helpOff != 0 {
		t.Fatal("esc did not close the help and reset its scroll")
	}

	m = newTestModel(t, greetSession(), 60, 16)
	run(t, m, m.Init(), 0)
	press(t, m, "?")
	out = view(m)
	for _, l := range strings.Split(out, "\n") {
		if strings.HasSuffix(strings.TrimRight(l, " "), "…") {
			t.Fatalf("a help row is cut at 60 columns:\n%s", out)
		}
	}
	press(t, m, "G")
	if out = view(m); !strings.Contains(out, m.c.keys.Global.ForceQuit.Help().Desc) {
		t.Fatalf("G does not reach the last global key at 60x16:\n%s", out)
	}
}
