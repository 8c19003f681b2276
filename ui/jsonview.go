package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// jsonView draws a parsed JSON document (issue 16 item 3): colored from the theme's JSON
// tokens, objects and arrays foldable, long strings and base64 cut to a line with a key
// that shows them whole, and a cursor whose node's jq path is shown and can be copied.
// It lays the document out as rows (one per visible node, one per closing bracket, one per
// line of a string shown whole) and draws only the rows asked for, so a 5 MiB document
// costs its parse and one walk per fold, never a draw of every line. All source text goes
// through the sanitizer (clean) before it is drawn.
type jsonView struct {
	doc *jsonDoc
	// folded holds the folded containers; flipped the strings whose default (whole when it
	// fits on a few lines, else cut) the expand key turned around.
	folded  map[int32]bool
	flipped map[int32]bool
	rows    []jsonRow
	// w is the width the rows were laid out for (0: not laid out); wrapped keeps the lines
	// of the strings shown whole at that width.
	w       int
	wrapped map[int32][]string
	// cur is the cursor's row; layouts counts the layouts (a host that keeps drawn rows
	// draws them again when it changed).
	cur     int
	layouts int
	// masked says the source bytes had secrets masked (a copy says so).
	masked bool
	// whole shows every string whole (a view without keys: nothing could expand a cut).
	whole bool
	// prefix goes before every path: the document's own place (.structuredContent).
	prefix string
	// find is the "/" search among the rows shown (set up at the first "/").
	find listSearch
}

// jsonRow is one line of a jsonView: node's head (its key and value, or opening bracket;
// part 0), its closing bracket (part -1), or line part of a string shown whole.
type jsonRow struct {
	node int32
	part int32
}

// wholeLines is how many lines a string may take before it is cut by default.
const wholeLines = 4

// newJSONView parses src; nil when src holds no JSON value at all.
func newJSONView(src []byte) *jsonView {
	d := parseJSONDoc(src)
	if len(d.nodes) == 0 {
		return nil
	}
	return &jsonView{doc: d, folded: map[int32]bool{}, flipped: map[int32]bool{}}
}

// layout lays the rows out for width w (again only when w changed or a fold did: call
// relayout). The cursor stays on its node.
func (v *jsonView) layout(w int) {
	if v.w == w && v.rows != nil {
		return
	}
	node := v.node()
	v.layouts++
	v.w = max(w, 8)
	v.wrapped = map[int32][]string{}
	v.rows = v.rows[:0]
	d := v.doc
	var open []int32
	closeTo := func(n int32) {
		for len(open) > 0 && d.nodes[open[len(open)-1]].last < n {
			top := open[len(open)-1]
			open = open[:len(open)-1]
			if d.nodes[top].complete {
				v.rows = append(v.rows, jsonRow{top, -1})
			}
		}
	}
	for n := int32(0); int(n) < len(d.nodes); {
		closeTo(n)
		nd := &d.nodes[n]
		v.rows = append(v.rows, jsonRow{n, 0})
		switch {
		case nd.kind == jsonString:
			if lines := v.wholeString(n); len(lines) > 1 {
				v.wrapped[n] = lines
				for p := 1; p < len(lines); p++ {
					v.rows = append(v.rows, jsonRow{n, int32(p)})
				}
			}
		case (nd.kind == jsonObject || nd.kind == jsonArray) && nd.n > 0 && !v.folded[n]:
			open = append(open, n)
			n++
			continue
		}
		n = nd.last + 1
	}
	closeTo(int32(len(d.nodes)))
	v.seek(node)
}

// searching reports whether the search input takes the keys.
func (v *jsonView) searching() bool { return v != nil && v.find.typing }

// searchShown reports whether a search is typed or in force (esc then clears it before
// it leaves the view).
func (v *jsonView) searchShown() bool { return v != nil && v.find.shown() }

// relayout lays the rows out again after a fold or an expand.
func (v *jsonView) relayout() {
	w := v.w
	v.w = 0
	v.layout(w)
}

// len is the number of rows (after layout).
func (v *jsonView) len() int { return len(v.rows) }

// node is the node under the cursor (0, the root, before any layout).
func (v *jsonView) node() int32 {
	if v.cur < 0 || v.cur >= len(v.rows) {
		return 0
	}
	return v.rows[v.cur].node
}

// seek puts the cursor on node n's head row, or on its nearest shown ancestor's.
func (v *jsonView) seek(n int32) {
	for ; n >= 0; n = v.doc.nodes[n].parent {
		for i, r := range v.rows {
			if r.node == n && r.part == 0 {
				v.cur = i
				return
			}
		}
	}
	v.cur = 0
}

// move moves the cursor d rows, within the rows.
func (v *jsonView) move(d int) { v.cur = min(max(v.cur+d, 0), max(len(v.rows)-1, 0)) }

// container is the object or array the cursor is on (its head or closing row); -1 for none.
func (v *jsonView) container() int32 {
	n := v.node()
	if k := v.doc.nodes[n].kind; (k == jsonObject || k == jsonArray) && v.doc.nodes[n].n > 0 {
		return n
	}
	return -1
}

// toggle folds or unfolds the container under the cursor.
func (v *jsonView) toggle() bool {
	n := v.container()
	if n < 0 {
		return false
	}
	v.setFold(n, !v.folded[n])
	return true
}

// fold folds the open container under the cursor, else moves to the parent.
func (v *jsonView) fold() {
	if n := v.container(); n >= 0 && !v.folded[n] {
		v.setFold(n, true)
		return
	}
	if p := v.doc.nodes[v.node()].parent; p >= 0 {
		v.seek(p)
	}
}

// unfold unfolds the folded container under the cursor, else moves into it.
func (v *jsonView) unfold() {
	n := v.container()
	switch {
	case n < 0:
	case v.folded[n]:
		v.setFold(n, false)
	case v.rows[v.cur].part == 0:
		v.move(1)
	}
}

func (v *jsonView) setFold(n int32, on bool) {
	if on {
		v.folded[n] = true
	} else {
		delete(v.folded, n)
	}
	v.relayout()
	v.seek(n)
}

// foldAll folds every object and array below the top (its members stay listed); the
// cursor goes to the top-level member it was in.
func (v *jsonView) foldAll() {
	cur := v.node()
	for ; cur > 0 && v.doc.nodes[cur].depth > 1; cur = v.doc.nodes[cur].parent {
	}
	for i := range v.doc.nodes {
		if nd := &v.doc.nodes[i]; nd.depth > 0 && nd.n > 0 {
			v.folded[int32(i)] = true
		}
	}
	v.relayout()
	v.seek(cur)
}

// unfoldAll opens every object and array.
func (v *jsonView) unfoldAll() {
	n := v.node()
	clear(v.folded)
	v.relayout()
	v.seek(n)
}

// expand shows the string under the cursor whole, or cut again; false when it is not a
// string or fits one line anyway.
func (v *jsonView) expand() bool {
	n := v.node()
	if v.doc.nodes[n].kind != jsonString {
		return false
	}
	_, cut := v.stringCut(n)
	if !cut && len(v.wrapped[n]) <= 1 {
		return false
	}
	v.flipped[n] = !v.flipped[n]
	v.relayout()
	v.seek(n)
	return true
}

// indent is the indentation of node n's rows (two cells per level).
func (v *jsonView) indent(n int32) int { return 2 * int(v.doc.nodes[n].depth) }

// keyWidth is the width of node n's key and ": " (0 without a key).
func (v *jsonView) keyText(n int32) string {
	nd := &v.doc.nodes[n]
	if nd.keyEnd == nd.keyStart {
		return ""
	}
	return clean(string(v.doc.src[nd.keyStart:nd.keyEnd]))
}

// room is the width left for node n's value on its head row (a cell kept for the comma).
func (v *jsonView) room(n int32) int {
	used := v.indent(n) + 1
	if nd := &v.doc.nodes[n]; nd.keyEnd > nd.keyStart {
		used += cellWidth(v.doc.src[nd.keyStart:nd.keyEnd]) + 2
	}
	return max(v.w-used, 8)
}

// cellWidth is the width of source text once sanitized: its length when it is printable
// ASCII (which the sanitizer leaves as it is), else measured.
func cellWidth(b []byte) int {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return ansi.StringWidth(clean(string(b)))
		}
	}
	return len(b)
}

// stringCut reports whether string node n is drawn cut, and the prefix that fits.
func (v *jsonView) stringCut(n int32) (head string, cut bool) {
	tok := v.doc.token(n)
	room := v.room(n)
	lim := room*4 + 16
	if len(tok) <= lim && cellWidth(tok) <= room {
		return clean(string(tok)), false
	}
	return clean(string(tok[:runeCut(tok, lim)])), true
}

// wholeString lays string node n out whole when it is shown whole (nil when it fits on
// its head row or is cut): the head row's part, then continuation lines indented.
func (v *jsonView) wholeString(n int32) []string {
	tok := v.doc.token(n)
	room := v.room(n)
	rest := max(v.w-v.indent(n)-2, 8)
	if len(tok) <= room && cellWidth(tok) <= room {
		return nil // fits its head row
	}
	whole := v.whole || len(tok) <= room+rest*(wholeLines-1) && !looksBase64(tok)
	if v.flipped[n] {
		whole = !whole
	}
	if !whole {
		return nil
	}
	return wrapCells(clean(string(tok)), room, rest)
}

// looksBase64 reports whether a string token looks like base64 data: long, only base64
// characters in its first bytes, and upper case, lower case and digits among them (so a
// long run of one letter or a word is not taken for it).
func looksBase64(tok []byte) bool {
	if len(tok) < 66 {
		return false
	}
	var upper, lower, digit bool
	for _, c := range tok[1:min(len(tok)-1, 512)] {
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digit = true
		case c == '+', c == '/', c == '=', c == '-', c == '_':
		default:
			return false
		}
	}
	return upper && lower && digit
}

// wrapCells breaks sanitized text into lines of first cells, then rest cells, without
// looking for word ends (a JSON string is shown as it is).
func wrapCells(s string, first, rest int) []string {
	var out []string
	room := first
	for s != "" {
		n := asciiPrefix(s, room)
		chunk := s[:n]
		if n < room && n < len(s) {
			piece := s[:runeCut(s, room*4+16)]
			chunk = ansi.Truncate(piece, room, "")
			if chunk == "" || !strings.HasPrefix(piece, chunk) {
				_, size := firstRune(piece)
				chunk = piece[:size]
			}
		}
		out = append(out, chunk)
		s = s[len(chunk):]
		room = rest
	}
	return out
}

// firstRune is the first character of s and its size (1 for a byte that is not UTF-8).
func firstRune(s string) (rune, int) {
	for i, r := range s {
		if i > 0 {
			return r, i
		}
	}
	return 0, len(s)
}

// rowsText draws rows [from, to) at the laid-out width; the cursor's row is drawn
// selected when cursor is set. Each line fits the width.
func (v *jsonView) rowsText(st *themes.Styles, from, to int, cursor bool) []string {
	out := make([]string, 0, max(to-from, 0))
	for r := max(from, 0); r < min(to, len(v.rows)); r++ {
		if cursor && r == v.cur {
			out = append(out, selectRow(st, v.row(st, r, false), v.w))
			continue
		}
		if q := v.find.query(); q != "" {
			if plain := v.row(st, r, false); v.find.matches(plain) {
				out = append(out, fit(markMatches(st, plain, q), v.w))
				continue
			}
		}
		out = append(out, fit(v.row(st, r, true), v.w))
	}
	return out
}

// row draws row r; styled false draws it without styles (the selection styles it whole).
func (v *jsonView) row(st *themes.Styles, r int, styled bool) string {
	paint := func(s lipgloss.Style, text string) string {
		if !styled || text == "" {
			return text
		}
		return s.Render(text)
	}
	d := v.doc
	row := v.rows[r]
	n := row.node
	nd := &d.nodes[n]
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", v.indent(n)))
	comma := ""
	if d.hasNext(n) {
		comma = paint(st.JSONPunct, ",")
	}
	switch {
	case row.part < 0:
		b.WriteString(paint(st.JSONPunct, closer(nd.kind)))
		b.WriteString(comma)
		return b.String()
	case row.part > 0:
		lines := v.wrapped[n]
		b.WriteString("  " + paint(st.JSONString, lines[row.part]))
		if int(row.part) == len(lines)-1 {
			b.WriteString(v.cutMark(st, n, paint) + comma)
		}
		return b.String()
	}
	if k := v.keyText(n); k != "" {
		b.WriteString(paint(st.JSONKey, k) + paint(st.JSONPunct, ": "))
	}
	switch nd.kind {
	case jsonObject, jsonArray:
		open := "{"
		if nd.kind == jsonArray {
			open = "["
		}
		switch {
		case nd.n == 0 && nd.complete:
			b.WriteString(paint(st.JSONPunct, open+closer(nd.kind)))
		case nd.n > 0 && v.folded[n]:
			b.WriteString(paint(st.JSONPunct, open) + paint(st.Muted, "…") + paint(st.JSONPunct, closer(nd.kind)))
			b.WriteString(comma + paint(st.Muted, " "+foldCount(nd)))
			return b.String()
		default:
			b.WriteString(paint(st.JSONPunct, open))
			if !nd.complete && nd.n == 0 {
				b.WriteString(paint(st.Muted, " … (cut)"))
			}
			return b.String()
		}
	case jsonString:
		if lines := v.wrapped[n]; len(lines) > 1 {
			b.WriteString(paint(st.JSONString, lines[0]))
			return b.String()
		}
		head, cut := v.stringCut(n)
		if cut {
			note := v.cutNote(n)
			keep := max(v.room(n)-ansi.StringWidth(note)-1, 4)
			b.WriteString(paint(st.JSONString, ansi.Truncate(head, keep, "")) + paint(st.Muted, "…"))
			b.WriteString(comma + paint(st.Muted, note))
			return b.String()
		}
		b.WriteString(paint(st.JSONString, head) + v.cutMark(st, n, paint))
	case jsonNumber:
		b.WriteString(paint(st.JSONNumber, clean(string(d.token(n)))) + v.cutMark(st, n, paint))
	case jsonBool:
		b.WriteString(paint(st.JSONBool, string(d.token(n))) + v.cutMark(st, n, paint))
	case jsonNull:
		b.WriteString(paint(st.JSONNull, string(d.token(n))) + v.cutMark(st, n, paint))
	}
	b.WriteString(comma)
	return b.String()
}

// cutMark marks a value the source ends inside.
func (v *jsonView) cutMark(st *themes.Styles, n int32, paint func(lipgloss.Style, string) string) string {
	if v.doc.nodes[n].complete {
		return ""
	}
	return paint(st.Muted, " … (cut)")
}

// cutNote says what a cut string holds: its size, base64 or not.
func (v *jsonView) cutNote(n int32) string {
	tok := v.doc.token(n)
	what := humanSize(int64(max(len(tok)-2, 0)))
	if looksBase64(tok) {
		what = "base64, " + what
	}
	if !v.doc.nodes[n].complete {
		what += ", cut"
	}
	return " (" + what + ")"
}

// closer is a container's closing bracket.
func closer(k jsonKind) string {
	if k == jsonArray {
		return "]"
	}
	return "}"
}

// foldCount says how many members a folded container holds.
func foldCount(nd *jsonNode) string {
	s := jsontext.Count(int(nd.n), "item", "items")
	if nd.kind == jsonObject {
		s = jsontext.Count(int(nd.n), "key", "keys")
	}
	if !nd.complete {
		s += " (cut)"
	}
	return s
}

// pathLine is the line under a focused view: the cursor node's jq path and, as far as
// they fit, what the keys do with it.
func (v *jsonView) pathLine(st *themes.Styles, k *keyMap, w int) string {
	path := clean(v.path(v.node()))
	// What the keys do here first (they may not all fit), then copying, then leaving.
	var hints []string
	n := v.node()
	if v.doc.nodes[n].kind == jsonString && (len(v.wrapped[n]) > 1 || v.flipped[n]) {
		hints = append(hints, k.JSON.Expand.Help().Key+" cuts it")
	} else if _, cut := v.stringCut(n); cut && v.doc.nodes[n].kind == jsonString {
		hints = append(hints, k.JSON.Expand.Help().Key+" shows it whole")
	}
	if c := v.container(); c >= 0 && v.folded[c] {
		hints = append(hints, k.JSON.Toggle.Help().Key+" unfolds")
	} else if c >= 0 {
		hints = append(hints, k.JSON.Toggle.Help().Key+" folds")
	}
	// One short hint for both copies, so that the value copy fits beside a long path.
	hints = append(hints, k.JSON.CopyValue.Help().Key+"/"+k.JSON.CopyPath.Help().Key+" copy value/path", k.JSON.Leave.Help().Key+" leaves")
	line, used := st.Accent.Render(path), ansi.StringWidth(path)
	for i, h := range hints {
		sep := "  "
		if i > 0 {
			sep = " · "
		}
		hw := ansi.StringWidth(sep + h)
		if used+hw > w {
			break
		}
		line += st.Muted.Render(sep + h)
		used += hw
	}
	return fit(line, w)
}

// path is node n's jq path, after the view's prefix.
func (v *jsonView) path(n int32) string {
	p := v.doc.path(n)
	if v.prefix != "" && p == "." {
		return v.prefix
	}
	if v.prefix != "" {
		return v.prefix + p
	}
	return p
}

// jsonLines draws the JSON text src whole, highlighted, at width w: every row, every
// string whole. ok is false when src is not one whole JSON value (the caller shows it as
// text).
func jsonLines(st *themes.Styles, src []byte, w int) ([]string, bool) {
	v := newJSONView(src)
	if v == nil || v.doc.errAt >= 0 || v.doc.cut {
		return nil, false
	}
	v.whole = true
	v.layout(w)
	return v.rowsText(st, 0, v.len(), false), true
}
