package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestServerPaneScrollKeys: the Server pane takes the scroll keys Logs and Wire take
// (G/end the last line, g/home the first) and its help lists them.
func TestServerPaneScrollKeys(t *testing.T) {
	m := connected(t, moreSession(), 100, 14)
	keys(t, m, "4")
	p := m.panes[paneServer].(*serverPane)
	n := len(p.lines)
	if n <= p.rows() {
		t.Fatalf("the Server pane has %d lines for %d rows: nothing to scroll", n, p.rows())
	}
	last := strings.TrimSpace(p.lines[n-1])
	for name, k := range map[string]tea.KeyPressMsg{"G": keyMsg("G"), "end": {Code: tea.KeyEnd}} {
		keys(t, m, "g")
		if p.off != 0 {
			t.Fatalf("g: offset %d, want 0", p.off)
		}
		drive(t, m, k)
		if p.off != n-p.rows() {
			t.Fatalf("%s: offset %d, want %d (the last line)", name, p.off, n-p.rows())
		}
		mustContain(t, name+" in the Server pane", view(m), last)
	}
	drive(t, m, tea.KeyPressMsg{Code: tea.KeyHome})
	if p.off != 0 {
		t.Fatalf("home: offset %d, want 0", p.off)
	}
	keys(t, m, "?")
	mustContain(t, "the Server pane's help", view(m), "g/home", "G/end")
}
