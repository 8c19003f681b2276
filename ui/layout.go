package ui

import (
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
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
