package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// callJSON is a finished call's structuredContent drawn as a JSON view: kept with the
// call (folds survive a redraw), at is the result line its first row is on, and explore
// is set while the JSON keys act on it.
type callJSON struct {
	view    *jsonView
	at      int
	explore bool
}

// structuredLines draws structuredContent (up to limit bytes) through the run's JSON
// view, whose first row goes on result line at; ok is false when it holds no JSON value
// (the caller draws it as text).
func (r *callRun) structuredLines(st *themes.Styles, sc json.RawMessage, limit, w, at int) ([]string, bool) {
	src := sc[:runeCut(sc, limit)]
	if v := r.js.view; v == nil || !bytes.Equal(v.doc.src, src) { // masked or revealed since
		r.js = callJSON{view: newJSONView(src)}
		if r.js.view == nil {
			return nil, false
		}
		r.js.view.prefix = ".structuredContent"
	}
	v := r.js.view
	v.layout(w)
	r.js.at = at
	lines := v.rowsText(st, 0, v.len(), r.js.explore)
	if len(src) < len(sc) {
		r.cut = true
		lines = append(lines, st.Warning.Render(fmt.Sprintf("… structuredContent shown up to byte %d of %d", len(src), len(sc))))
	}
	return lines, true
}

// jsonOrText draws raw JSON highlighted, every string whole; text that is not one JSON
// value is drawn as it is (sanitized).
func jsonOrText(st *themes.Styles, raw []byte, w int) []string {
	if lines, ok := jsonLines(st, raw, w); ok {
		return lines
	}
	pretty, _ := jsontext.Indent(raw)
	return wrap(block(pretty), w)
}

// explorable reports whether the shown result has a structuredContent to explore.
func (p *callPane) explorable() bool {
	r := p.run
	return r != nil && r.done && r.js.view != nil && p.form == nil
}

// pathRows is the line the path of the focused JSON takes under the result (0 or 1).
func (p *callPane) pathRows() int {
	if r := p.run; r != nil && r.done && r.js.explore && r.js.view != nil && p.form == nil {
		return 1
	}
	return 0
}

// jsonKey handles the JSON keys on the shown result's structuredContent: enter focuses
// it, then the list keys move among its nodes (the result drawn again per key: a
// structuredContent is drawn whole anyway) until esc.
func (p *callPane) jsonKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	r := p.run
	if r == nil || !r.done || r.js.view == nil || p.form != nil {
		return false, nil
	}
	k := p.c.keys.JSON
	switch {
	case !r.js.explore && key.Matches(msg, k.Explore):
		r.js.explore = true
		p.render()
		p.off = max(r.js.at-1, 0) // the heading with the first node
		p.keepJSONCursor()
		return true, nil
	case !r.js.explore:
		return false, nil
	case key.Matches(msg, k.Leave) && !r.js.view.searchShown():
		r.js.explore = false
		p.render()
		return true, nil
	}
	v := r.js.view
	was, layouts := v.cur, v.layouts
	ok, cmd := jsonViewKey(p.c, v, msg, max(p.bodyHeight()-1, 1))
	if !ok {
		return false, nil
	}
	if end := r.js.at + v.len(); v.layouts == layouts && end <= len(p.lines) {
		// The cursor moved: only its old and new rows are drawn again.
		st := p.c.st
		copy(p.lines[r.js.at+was:], v.rowsText(st, was, was+1, true))
		copy(p.lines[r.js.at+v.cur:], v.rowsText(st, v.cur, v.cur+1, true))
	} else {
		p.render()
	}
	p.keepJSONCursor()
	return true, cmd
}

// keepJSONCursor scrolls the result so the JSON cursor's line is on screen.
func (p *callPane) keepJSONCursor() {
	r := p.run
	line, h := r.js.at+r.js.view.cur, p.bodyHeight()
	if p.off > line {
		p.off = line
	}
	if line >= p.off+h {
		p.off = line - h + 1
	}
	p.off = clampScroll(p.off, len(p.lines), h)
}

// jsonMime reports whether a MIME type names JSON (application/json, a +json suffix such
// as application/schema+json), parameters aside.
func jsonMime(mime string) bool {
	mime, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(mime)), ";")
	mime = strings.TrimSpace(mime)
	return mime == "application/json" || mime == "text/json" || strings.HasSuffix(mime, "+json")
}
