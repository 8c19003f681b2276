package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// rect is a screen rectangle in cells.
type rect struct{ x, y, w, h int }

// Minimum usable terminal; below it a "too small" screen is shown.
const (
	minWidth  = 40
	minHeight = 10
	// wideWire and wideTools are the widths from which list and detail sit side by side.
	wideWire  = 110
	wideTools = 80
)

// layout holds the rectangles computed once per resize.
type layout struct {
	tooSmall bool
	header   rect
	body     rect
	status   rect
}

// computeLayout splits the window: a header line (pane tabs), the body, a status line.
func computeLayout(w, h int) layout {
	if w < minWidth || h < minHeight {
		return layout{tooSmall: true}
	}
	return layout{
		header: rect{0, 0, w, 1},
		body:   rect{0, 1, w, h - 2},
		status: rect{0, h - 1, w, 1},
	}
}

// resize recomputes the layout and sizes every pane.
func (m *model) resize(w, h int) {
	m.width, m.height = w, h
	m.lay = computeLayout(w, h)
	if m.lay.tooSmall {
		return
	}
	for _, p := range m.panes {
		p.setSize(m.lay.body)
	}
	for _, d := range m.overlay.all() {
		d.setSize(m.lay.body.w, m.lay.body.h)
	}
}

// inputStyles styles text inputs from the theme.
func inputStyles(st *themes.Styles) textinput.Styles {
	s := textinput.Styles{}
	s.Focused.Text = st.Base
	s.Focused.Prompt = st.Focus
	s.Focused.Placeholder = st.Muted
	s.Focused.Suggestion = st.Muted
	s.Blurred.Text = st.Base
	s.Blurred.Prompt = st.Muted
	s.Blurred.Placeholder = st.Muted
	s.Blurred.Suggestion = st.Muted
	s.Cursor.Color = st.Palette.Focus
	return s
}

// areaStyles styles the raw-JSON editor from the theme.
func areaStyles(st *themes.Styles) textarea.Styles {
	s := textarea.Styles{}
	s.Focused.Base = st.Base
	s.Focused.Text = st.Base
	s.Focused.LineNumber = st.Muted
	s.Focused.CursorLineNumber = st.Accent
	s.Focused.Placeholder = st.Muted
	s.Focused.Prompt = st.Muted
	s.Focused.EndOfBuffer = st.Muted
	s.Blurred = s.Focused
	s.Cursor.Color = st.Palette.Focus
	return s
}

// zoomMode is which side of a list and its detail has the whole pane (the zoom key).
type zoomMode int

const (
	zoomNone zoomMode = iota
	zoomDetail
	zoomList
)

// Split bounds: the list's share of a pane (Options.Split, the split keys) in percent, and
// the cells either side keeps however the share is set (rows stacked, columns beside).
const (
	splitMin    = 20
	splitMax    = 80
	splitStep   = 10
	sideMinRows = 3
	sideMinCols = 16
)

// splitSize is how many of total cells (less one for the border) the list gets: share
// percent of them when share is set (0 keeps def, the pane's own default), kept so both
// sides hold least cells when total allows.
func splitSize(total, def, share, least int) int {
	n := def
	if share > 0 {
		n = (total - 1) * share / 100
	}
	return max(min(n, total-1-least), min(least, total-1), 0)
}

// zoomRects gives one side all of r when zoom asks (the other an empty rectangle at r's
// corner, which joinSplit leaves out).
func zoomRects(r, list, det rect, zoom zoomMode) (rect, rect) {
	switch zoom {
	case zoomDetail:
		return rect{r.x, r.y, 0, 0}, r
	case zoomList:
		return r, rect{r.x, r.y, 0, 0}
	}
	return list, det
}

// share is the list's share in percent of the cells list and det take (the list above
// the detail when stacked, else beside it).
func share(list, det rect, stacked bool) int {
	if stacked {
		return list.h * 100 / max(list.h+det.h, 1)
	}
	return list.w * 100 / max(list.w+det.w, 1)
}

// nextShare is the share a split key moves to from cur: one step up or down (up true),
// kept in [splitMin, splitMax] and on the step grid.
func nextShare(cur int, up bool) int {
	s := max(cur-1, 0) / splitStep * splitStep
	if up {
		s = (cur/splitStep + 1) * splitStep
	}
	return min(max(s, splitMin), splitMax)
}

// splitter is a pane with a list beside its detail: it says the list's share of the pane.
type splitter interface {
	listShare() int
}

// splitKey zooms (one side of the focused pane gets it all, then the other, then both
// share it again) or moves the split of every pane one step, and says so. A split key
// while zoomed leaves the zoom, at the share before it.
func (m *model) splitKey(msg tea.KeyPressMsg) {
	k := m.c.keys.Global
	sp, ok := m.panes[m.focus].(splitter)
	if !ok {
		m.note("info", "this pane has no list and detail to zoom or split")
		return
	}
	if key.Matches(msg, k.Zoom) {
		m.c.zoom = (m.c.zoom + 1) % 3
		m.resize(m.width, m.height)
		m.note("info", [...]string{"zoom off: the list and the detail share the pane", "zoom: the detail takes the pane (" + k.Zoom.Help().Key + " the list)", "zoom: the list takes the pane (" + k.Zoom.Help().Key + " both)"}[m.c.zoom])
		return
	}
	cur := m.c.split
	switch {
	case cur > 0:
	case m.c.zoom == zoomNone:
		cur = sp.listShare() // the pane's default
	default:
		cur = 50 // zoomed: the measure is 0 or 100
	}
	m.c.zoom = zoomNone
	m.c.split = nextShare(cur, key.Matches(msg, k.SplitMore))
	m.resize(m.width, m.height)
	m.note("info", fmt.Sprintf("split: the list takes %d%% of the pane for this session (split = %d in the settings file keeps it)", m.c.split, m.c.split))
}
