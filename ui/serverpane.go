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
	c *common
	// r is the pane's rectangle; draw gives the host's server lines r.w wide (they read
	// the session, the launch and the stderr tail; the capabilities come from capsLines).
	r    rect
	draw func(w int) []string
	// off is the first line shown (drawn in range; kept in range before a key scrolls).
	off int
	// lines are the pane's lines as sync drew them; caps the capabilities' JSON view.
	lines []string
	caps  serverCaps
}

func (p *serverPane) title() string                       { return "Server" }
func (p *serverPane) setSize(r rect)                      { p.r = r }
func (p *serverPane) inputFocused() bool                  { return p.caps.view.searching() }
func (p *serverPane) updateInput(tea.Msg) (tea.Cmd, bool) { return nil, false }

// sync draws the lines (the capabilities' JSON view is laid out here, not in view), with
// the markdown of the instructions rendered (sync runs in Update).
func (p *serverPane) sync() {
	if p.c.md != nil {
		p.c.md.filling = true
		defer func() { p.c.md.filling = false }()
	}
	p.lines = p.draw(p.r.w)
}

func (p *serverPane) view(time.Time) string {
	r := p.r
	h := p.rows()
	out := window(p.lines, clampScroll(p.off, len(p.lines), h), h, r.w)
	if p.exploring() {
		out = append(out, p.caps.view.pathLine(p.c.st, &p.c.keys, r.w))
	}
	return strings.Join(out, "\n")
}

// handleKey scrolls the pane; it asks nothing of the root.
func (p *serverPane) handleKey(msg tea.KeyPressMsg) (bool, tea.Msg, tea.Cmd) {
	handled, cmd := p.scrollKey(msg)
	return handled, nil, cmd
}

// scrollKey explores the capabilities' JSON, or scrolls.
func (p *serverPane) scrollKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := p.c.keys
	r := p.r
	page := max(r.h-2, 1)
	if ok, cmd := p.capsKey(msg); ok {
		return true, cmd
	}
	if ok, cmd := p.c.copyShownKey(msg, p.copySource); ok {
		return true, cmd
	}
	n := len(p.draw(r.w))
	p.off = clampScroll(p.off, n, p.rows())
	// The same scroll keys as Logs and Wire: g/home the first line, G/end the last.
	d, ok := k.List.scrollStep(msg, page, n)
	if !ok {
		return false, nil
	}
	p.off = clampScroll(p.off+d, n, p.rows())
	return true, nil
}

func (p *serverPane) bindings() []key.Binding {
	k := &p.c.keys
	if p.exploring() {
		return append(k.offered("json"), k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown, k.List.Top, k.List.Bottom)
	}
	return k.offered("server")
}
