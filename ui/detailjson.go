package ui

import (
	"bytes"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// detailJSON is a JSON value drawn in the detail beside a list (a tool's input schema, a
// log entry's data) through a JSON view the JSON keys explore, as in 3 Wire (issue 27):
// kept while its source is the same (folds survive a redraw); at is the detail line its
// first row is on (set by the pane's sync), explore is set while the keys act on it.
type detailJSON struct {
	view    *jsonView
	at      int
	explore bool
}

// set keeps the view of src, laid out w wide: a new one when src changed, none when src
// is not one whole JSON value. prefix goes before its paths (".inputSchema"). Called from
// sync and key handling, never from View.
func (d *detailJSON) set(src []byte, prefix string, w int) {
	if d.view == nil || !bytes.Equal(d.view.doc.src, src) || d.view.prefix != prefix {
		v := newJSONView(src)
		if v == nil || v.doc.errAt >= 0 || v.doc.cut {
			*d = detailJSON{}
			return
		}
		v.whole, v.prefix = true, prefix
		*d = detailJSON{view: v}
	}
	d.view.layout(w)
}

// rows draws the view: the same lines jsonLines gives, with the cursor while explored.
func (d *detailJSON) rows(st *themes.Styles) []string {
	return d.view.rowsText(st, 0, d.view.len(), d.explore)
}

// exploring reports whether the JSON keys act on the view.
func (d *detailJSON) exploring() bool { return d.explore && d.view != nil }

// key handles the JSON keys: Explore focuses the view (when canExplore), then the list
// keys move among its nodes and the fold, expand and copy keys act on the selected one,
// until Leave. off is the detail's scroll offset, kept so the cursor shows in h rows.
func (d *detailJSON) key(c *common, msg tea.KeyPressMsg, canExplore bool, off *int, h int) (bool, tea.Cmd) {
	k := c.keys.JSON
	switch {
	case d.view == nil:
		return false, nil
	case !d.explore && canExplore && key.Matches(msg, k.Explore):
		d.explore = true
		*off = max(d.at-1, 0) // the heading with the first node
		d.keepCursor(off, h)
		return true, nil
	case !d.explore:
		return false, nil
	case key.Matches(msg, k.Leave) && !d.view.searchShown():
		d.explore = false
		return true, nil
	}
	ok, cmd := jsonViewKey(c, d.view, msg, max(h-1, 1))
	if ok {
		d.keepCursor(off, h)
	}
	return ok, cmd
}

// keepCursor scrolls off so the cursor's line is among the h rows shown.
func (d *detailJSON) keepCursor(off *int, h int) {
	line := d.at + d.view.cur
	if *off > line {
		*off = line
	}
	if line >= *off+h {
		*off = line - h + 1
	}
}

// jsonBindings are the keys offered while a JSON view is explored.
func jsonBindings(k *keyMap) []key.Binding {
	return append(k.offered("json"), k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown, k.List.Top, k.List.Bottom)
}
