package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// serverPane is pane 4: who the server is (identity, protocol, capabilities, instructions),
// the era and what the client offers, warnings, the command line and the stderr tail.
type serverPane struct {
	m *model
	// off is the first line shown (drawn in range; kept in range before a key scrolls).
	off int
}

func (p *serverPane) title() string                       { return "Server" }
func (p *serverPane) setSize(rect)                        {}
func (p *serverPane) inputFocused() bool                  { return false }
func (p *serverPane) updateInput(tea.Msg) (tea.Cmd, bool) { return nil, false }

func (p *serverPane) view(time.Time) string {
	r := p.m.lay.body
	lines := p.m.serverLines(r.w)
	return strings.Join(window(lines, clampScroll(p.off, len(lines), r.h), r.h, r.w), "\n")
}

// handleKey scrolls the pane.
func (p *serverPane) handleKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := p.m.c.keys
	r := p.m.lay.body
	page := max(r.h-2, 1)
	p.off = clampScroll(p.off, len(p.m.serverLines(r.w)), r.h)
	// Bottom is not the Server pane's (its key table says so): the pane reads from the top.
	d, ok := k.List.scrollStep(msg, page, p.off)
	if !ok || key.Matches(msg, k.List.Bottom) {
		return false, nil
	}
	p.off = max(p.off+d, 0)
	return true, nil
}

func (p *serverPane) bindings() []key.Binding {
	return p.m.c.keys.offered("server")
}
