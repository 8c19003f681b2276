package ui

import (
	"encoding/json"
	"errors"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// wireJSON is the parsed view of the selected frame (the detail's "parsed" part) and the
// lines under it. It is kept per frame and show-all state, so folds survive a resize.
type wireJSON struct {
	seq  uint64
	full bool
	view *jsonView
	tail []string
	// explore is set while the JSON keys act on the view (its cursor shown, the list keys
	// moving it).
	explore bool
}

// len is the number of lines the view and its tail take.
func (j *wireJSON) len() int {
	if j.view == nil {
		return len(j.tail)
	}
	return j.view.len() + len(j.tail)
}

// rows is how many of the detail's h lines show its content: one less while the JSON has
// the focus (the path line).
func (j *wireJSON) rows(h int) int {
	if j.explore {
		return max(h-1, 1)
	}
	return h
}

// parsedView is the parsed part of frame seq (body: its JSON text): the kept view when it
// is this frame's (never changed here: view only reads), else a new one; nil when body
// holds no JSON value.
func (p *wirePane) parsedView(seq uint64, full bool, body []byte, w int) *jsonView {
	if v := p.js.view; v != nil && p.js.seq == seq && p.js.full == full {
		return v
	}
	v := newJSONView(body)
	if v != nil {
		v.layout(w)
	}
	return v
}

// pageWindow draws lines [off, off+h) of a page made of head lines, js's JSON view rows
// and its tail lines, each fitted to w; the view's cursor is drawn while js is explored.
func pageWindow(st *themes.Styles, head []string, js *wireJSON, off, h, w int) []string {
	v, tail, cursor := js.view, js.tail, js.explore
	out := make([]string, 0, h)
	vn := 0
	if v != nil {
		vn = v.len()
	}
	for i := off; i < off+h; {
		switch {
		case i < len(head):
			out = append(out, fit(head[i], w))
			i++
		case i < len(head)+vn:
			to := min(len(head)+vn, off+h)
			for _, l := range v.rowsText(st, i-len(head), to-len(head), cursor) {
				out = append(out, fit(l, w))
			}
			i = to
		case i-len(head)-vn < len(tail):
			out = append(out, fit(tail[i-len(head)-vn], w))
			i++
		default:
			out = append(out, fit("", w))
			i++
		}
	}
	return out
}

// exploreJSON moves the focus into the selected frame's parsed JSON (its first node).
func (p *wirePane) exploreJSON() {
	if p.js.view == nil || p.detail.lines == nil {
		return
	}
	p.js.explore = true
	p.detailOff = max(len(p.detail.lines)-1, 0) // the "parsed" heading at the top
	p.keepCursor()
}

// keepCursor scrolls the detail so the view's cursor is on screen (the line under the
// detail shows its path).
func (p *wirePane) keepCursor() {
	line, h := len(p.detail.lines)+p.js.view.cur, p.js.rows(p.det.h)
	if p.js.view.cur == p.js.view.len()-1 {
		line += len(p.js.tail) // the last node with the notes under it
	}
	if p.detailOff > line {
		p.detailOff = line
	}
	if line >= p.detailOff+h {
		p.detailOff = line - h + 1
	}
	if p.js.view.cur == 0 && line > 0 {
		p.detailOff = min(p.detailOff, line-1) // the "parsed" heading with the first node
	}
}

// jsonKey handles a key while the JSON has the focus; keys it does not take go to the
// pane (save, copy the frame, jump …).
func (p *wirePane) jsonKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	v := p.js.view
	if v == nil {
		p.js.explore = false
		return false, nil
	}
	k := p.c.keys
	searched := v.searchShown()
	ok, cmd := jsonViewKey(p.c, v, msg, max(p.det.h-2, 1))
	switch {
	case key.Matches(msg, k.JSON.Leave) && !searched:
		p.js.explore = false
		return true, nil
	case !ok:
		return false, nil
	}
	p.keepCursor()
	return true, cmd
}

// jsonViewKey applies a JSON key (or a list key, which moves the cursor) to v; the Cmd
// copies. page is the rows a page key moves.
func jsonViewKey(c *common, v *jsonView, msg tea.KeyPressMsg, page int) (bool, tea.Cmd) {
	if ok, cmd := jsonSearchKey(c, v, msg); ok {
		return true, cmd
	}
	k := c.keys.JSON
	switch {
	case key.Matches(msg, k.Toggle):
		v.toggle()
	case key.Matches(msg, k.Fold):
		v.fold()
	case key.Matches(msg, k.Unfold):
		v.unfold()
	case key.Matches(msg, k.FoldAll):
		v.foldAll()
	case key.Matches(msg, k.UnfoldAll):
		v.unfoldAll()
	case key.Matches(msg, k.Expand):
		v.expand()
	case key.Matches(msg, k.CopyPath):
		return true, c.copyJSONPath(v)
	case key.Matches(msg, k.CopyValue):
		return true, c.copyJSONValue(v)
	default:
		step, ok := c.keys.List.scrollStep(msg, page, v.len())
		if !ok {
			return false, nil
		}
		v.move(step)
	}
	return true, nil
}

// jsonSearchKey handles the search keys in v ("/" as in every list): the cursor goes to
// the rows that hold the query. A changed query counts as a layout, so hosts that keep
// drawn rows draw the marks again.
func jsonSearchKey(c *common, v *jsonView, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if v.find.in.Prompt == "" {
		if !key.Matches(msg, c.keys.List.Search) {
			return false, nil
		}
		v.find = newListSearch(c)
	}
	q := v.find.query()
	ok, to, cmd := v.find.key(&c.keys, msg, len(v.rows), v.cur, func(r int) string { return v.row(c.st, r, false) })
	if !ok {
		return false, nil
	}
	v.cur = to
	if v.find.query() != q {
		v.layouts++
	}
	return true, cmd
}

// copyJSONPath copies the jq path of v's selected node.
func (c *common) copyJSONPath(v *jsonView) tea.Cmd {
	path := v.path(v.node())
	return c.copyString(fmt.Sprintf("the path %s (%s", clean(path), humanSize(int64(len(path)))), path)
}

// copyJSONValue copies the value of v's selected node: a string as its decoded text (as
// jq -r gives it), an object or array indented, anything else as written. A value the
// preview cut off is not copied (the save key writes the frame).
func (c *common) copyJSONValue(v *jsonView) tea.Cmd {
	n := v.node()
	nd := v.doc.nodes[n]
	path := clean(v.path(n))
	if !nd.complete {
		return func() tea.Msg {
			return copiedMsg{err: fmt.Errorf("the value at %s is cut off here (%s shows all of a large frame, %s saves it)", path, c.keys.Detail.ShowAll.Help().Key, c.keys.Detail.Save.Help().Key)}
		}
	}
	tok, kind, masked, dir, sysClip := v.doc.token(n), nd.kind, v.masked, c.hist.dir, c.sysClip
	return func() tea.Msg {
		text, err := jsonValueText(tok, kind)
		if err != nil {
			return copiedMsg{err: fmt.Errorf("the value at %s: %w", path, err)}
		}
		what := fmt.Sprintf("the value at %s (%s", path, humanSize(int64(len(text))))
		if masked {
			what += ", secrets masked"
		}
		return keepCopy(what, text, dir, sysClip)
	}
}

// jsonValueText is the text a value copy gives for the token of a value of kind.
func jsonValueText(tok []byte, kind jsonKind) (string, error) {
	switch kind {
	case jsonString:
		var s string
		if err := json.Unmarshal(tok, &s); err != nil {
			return "", errors.New("the string does not decode")
		}
		return s, nil
	case jsonObject, jsonArray:
		out, ok := jsontext.Indent(tok)
		if !ok {
			return "", errors.New("not valid JSON")
		}
		return out, nil
	}
	return string(tok), nil
}

// copyString copies text, named what (an open parenthesis the status line closes).
func (c *common) copyString(what, text string) tea.Cmd {
	dir, sysClip := c.hist.dir, c.sysClip
	return func() tea.Msg {
		return keepCopy(what, text, dir, sysClip)
	}
}

// parsedTail is the lines under a frame's parsed view: where the JSON stops being JSON,
// and where the parsed view stops in a frame larger than what is shown. skip is the
// header block's length (Content-Length framing) before the body.
func parsedTail(st *themes.Styles, v *jsonView, skip int, size int64, w int) []string {
	var out []string
	d := v.doc
	if d.errAt >= 0 {
		out = append(out, wrapStyled(st.Warning, fmt.Sprintf("… not JSON from byte %d on (the raw bytes above show it)", d.errAt+skip), w)...)
	}
	if used := len(d.src) + skip; int64(used) < size {
		out = append(out, st.Muted.Render(fmt.Sprintf("… parsed view stops at byte %d of %d", used, size)))
	}
	return out
}
