package ui

import (
	"bytes"
	"encoding/json"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// serverCaps is the Server pane's capabilities as a JSON view the JSON keys explore (as in
// 3 Wire and 2 Call): at is the pane line its first row is on, explore is set while the
// keys act on it.
type serverCaps struct {
	view    *jsonView
	at      int
	explore bool
}

// capsLines draws the server's capabilities through the pane's JSON view, its first row
// on pane line at; ok is false when src is not one whole JSON value (the caller draws
// text). Called from sync and key handling, never from View.
func (p *serverPane) capsLines(src json.RawMessage, w, at int) ([]string, bool) {
	c := &p.caps
	if c.view == nil || !bytes.Equal(c.view.doc.src, src) {
		v := newJSONView(src)
		if v == nil || v.doc.errAt >= 0 || v.doc.cut {
			*c = serverCaps{}
			return nil, false
		}
		v.prefix = ".capabilities"
		*c = serverCaps{view: v}
	}
	c.view.layout(w)
	c.at = at
	return c.view.rowsText(p.c.st, 0, c.view.len(), c.explore), true
}

// exploring reports whether the JSON keys act on the capabilities.
func (p *serverPane) exploring() bool { return p.caps.explore && p.caps.view != nil }

// capsKey handles the JSON keys on the capabilities: enter focuses them, then the list
// keys move among the nodes, the fold, expand and copy keys act on the selected one,
// until esc.
func (p *serverPane) capsKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	c := &p.caps
	k := p.c.keys.JSON
	switch {
	case c.view == nil:
		return false, nil
	case !c.explore && key.Matches(msg, k.Explore):
		c.explore = true
		p.keepCursor()
		return true, nil
	case !c.explore:
		return false, nil
	case key.Matches(msg, k.Leave) && !c.view.searchShown():
		c.explore = false
		return true, nil
	}
	ok, cmd := jsonViewKey(p.c, c.view, msg, max(p.rows()-1, 1))
	if ok {
		p.keepCursor()
	}
	return ok, cmd
}

// rows is how many pane lines show the server lines (the JSON path takes the last one
// while exploring).
func (p *serverPane) rows() int {
	h := p.r.h
	if p.exploring() {
		h--
	}
	return max(h, 1)
}

// keepCursor scrolls the pane so the JSON cursor's line is on screen.
func (p *serverPane) keepCursor() {
	w := p.r.w
	lines := p.draw(w) // lays the view out again and places it
	line, h := p.caps.at+p.caps.view.cur, p.rows()
	if p.off > line {
		p.off = line
	}
	if line >= p.off+h {
		p.off = line - h + 1
	}
	p.off = clampScroll(p.off, len(lines), h)
}
