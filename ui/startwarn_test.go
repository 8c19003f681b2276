package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestStartWarnings: the warnings the command hands the TUI (a settings theme left out)
// show in the status line and stay in the Logs pane, once each.
func TestStartWarnings(t *testing.T) {
	w := "settings: config.toml:1:9: theme: unknown theme \"drak\"; left out: --theme chooses the theme"
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "fake", Argv: []string{"fake"}, Warnings: []string{w}})
	m.now = func() time.Time { return t0.Add(time.Second) }
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 30})
	mustContain(t, "status line", view(m), "unknown theme")
	n := 0
	for _, e := range m.logs.entries {
		if e.text == w && e.level == "warning" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the Logs pane keeps the warning %d times, want once", n)
	}
	keys(t, m, "7")
	mustContain(t, "Logs pane", view(m), "left out: --theme chooses the theme")
}
