package ui

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/schemaform"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// kindWidth is the width of the kind column ("integer", "date-time", "one of", ...).
const kindWidth = 9

// view draws the form: a fixed header (tool, mode, notes, messages), the fields (or the
// raw editor) scrolled to keep the focused one in view, and a fixed help footer. It only
// reads: sync keeps the offset, the preview and the editor's height.
func (p *formPane) view() string {
	lay := p.layout()
	if p.rawMode {
		body := append([]string{p.raw.View()}, lay.status...) // sync set its height
		return strings.Join(append(append(lay.head, body...), lay.foot...), "\n")
	}
	body := window(lay.lines, lay.scroll(p.off), lay.bodyH, p.w)
	return strings.Join(append(append(lay.head, body...), lay.foot...), "\n")
}

// sync keeps the state the view reads in line after an update: the offset that keeps the
// focused field in view, the arguments preview, the raw editor's height.
func (p *formPane) sync() {
	if p.preview == nil || p.previewW != p.w {
		p.preview, p.previewW = p.buildPreview(), p.w
	}
	lay := p.layout()
	if p.rawMode {
		p.raw.SetHeight(lay.rawHeight)
		return
	}
	p.off = lay.scroll(p.off)
}

// formLayout is the form drawn but not yet scrolled: the fixed head and foot, the field
// lines with the focused field's span [curStart, curEnd), the rows they get (bodyH); in raw
// mode the editor's status lines and height instead.
type formLayout struct {
	head, foot, lines, status []string
	curStart, curEnd, bodyH   int
	rawHeight                 int
	// starts are the first line of each field and, last, the send button's line.
	starts []int
}

// scroll is the offset after off that keeps the focused field (and what is shown under it)
// in view, its first line first.
func (l *formLayout) scroll(off int) int {
	if l.curEnd > off+l.bodyH {
		off = l.curEnd - l.bodyH
	}
	if l.curStart < off {
		off = l.curStart
	}
	return clampScroll(off, len(l.lines), l.bodyH)
}

// layout draws the form's parts for view and sync.
func (p *formPane) layout() formLayout {
	st := p.c.st
	lay := formLayout{head: p.headLines(), foot: p.footLines()}
	head, foot := lay.head, lay.foot
	if p.rawMode {
		lay.status = p.rawStatus()
		lay.rawHeight = max(p.h-len(head)-len(lay.status)-len(foot), 3)
		return lay
	}
	lay.bodyH = max(p.h-len(head)-len(foot), 1)
	var lines []string
	curStart, curEnd := 0, 0
	lw := p.labelWidth()
	promptAt := p.keyPromptAt()
	for i, f := range p.fields {
		focused := i == p.cur && p.keyObj == nil
		if i == p.cur {
			curStart = len(lines)
		}
		lay.starts = append(lay.starts, len(lines))
		lines = append(lines, p.fieldLines(f, focused, lw)...)
		if focused {
			lines = append(lines, p.suggestionLines(strings.Repeat(" ", lw+kindWidth+3))...)
		}
		if i == promptAt {
			if p.keyObj != nil {
				curStart = len(lines)
			}
			lines = append(lines, p.keyPromptLines(p.keyObj.Depth+1)...)
			if p.keyObj != nil {
				curEnd = len(lines)
			}
		}
		if i == p.cur && p.keyObj == nil {
			curEnd = len(lines)
		}
	}
	if promptAt < 0 && p.keyObj != nil {
		curStart = len(lines)
		lines = append(lines, p.keyPromptLines(0)...)
		curEnd = len(lines)
	}
	send := "[ " + p.what + " ]"
	if p.armed {
		send = "[ " + p.what + " anyway ]"
	}
	hint := "  " + p.c.keys.Form.Submit.Help().Key + " sends from any field"
	if !p.c.canSend() {
		send, hint = "[ offline: recorded session ]", "  nothing is sent"
	}
	if p.cur == len(p.fields) {
		curStart = len(lines)
		send = st.Focus.Render("▸") + st.Selection.Render(send)
	} else {
		send = " " + send
	}
	lay.starts = append(lay.starts, len(lines)+1)
	lines = append(lines, "", send+st.Muted.Render(hint))
	lines = append(lines, p.previewLines()...)
	if p.cur == len(p.fields) {
		curEnd = len(lines)
	}
	lay.lines, lay.curStart, lay.curEnd = lines, curStart, curEnd
	return lay
}

// headLines: the tool, the mode, notes about the schema, where the values came from,
// form-level problems and the answer to the last key.
func (p *formPane) headLines() []string {
	st := p.c.st
	mode := "form"
	if p.rawMode {
		mode = "raw JSON"
	}
	lines := []string{st.Title.Render(fit(p.title, max(p.w-len(mode)-3, 1))) + st.Muted.Render(" ["+mode+"]")}
	lines = append(lines, p.descLines()...)
	if p.buildErr != nil {
		lines = append(lines, wrapStyled(st.Warning, clean(p.buildErr.Error()), p.w)...)
	}
	if p.shapeWarn != "" {
		lines = append(lines, wrapStyled(st.Warning, "⚠ "+p.shapeWarn, p.w)...)
	}
	for _, n := range p.form.Notes() {
		if p.buildErr != nil && n == p.buildErr.Error() {
			continue // drawn above
		}
		lines = append(lines, wrapStyled(st.Muted, "note: "+clean(n), p.w)...)
	}
	if p.rawMode {
		// Text that does not parse is in the editor as typed: say so, field by field.
		for _, t := range p.rawTyped {
			lines = append(lines, wrapStyled(st.Warning, "note: "+clean(t.problem.Error())+" — shown here as typed, as send anyway sends it", p.w)...)
		}
	}
	if p.origin != "" {
		lines = append(lines, wrapStyled(st.Muted, p.origin, p.w)...)
	}
	if x := p.form.Root().Extra(); x != nil && !p.rawMode {
		lines = append(lines, wrapStyled(st.Warning, "also sent, not in the schema: "+clean(string(x))+" ("+p.c.keys.Form.RawJSON.Help().Key+" edits them)", p.w)...)
	}
	if e := p.c.hist.err; e != nil {
		lines = append(lines, wrapStyled(st.Warning, clean(e.Error()), p.w)...)
	}
	if !p.rawMode {
		// Rules of the whole value (anyOf of required, if/then/else), live.
		for _, e := range p.rootProbs {
			if p.tried {
				lines = append(lines, wrapStyled(st.Error, "✗ "+clean(e), p.w)...)
			} else {
				lines = append(lines, wrapStyled(st.Muted, "schema: "+clean(e), p.w)...)
			}
		}
	}
	for _, e := range p.errs {
		lines = append(lines, wrapStyled(st.Error, "✗ "+clean(e), p.w)...)
	}
	if p.flash != "" {
		lines = append(lines, wrapStyled(st.Accent, p.flash, p.w)...)
	}
	return lines
}

// footLines is the help for what the focused field takes, from the key map.
func (p *formPane) footLines() []string {
	k := p.c.keys
	var bs []key.Binding
	if p.keyObj != nil {
		return wrapStyled(p.c.st.Muted, "enter sets the key · esc cancels", p.w)
	}
	if p.rawMode {
		bs = []key.Binding{k.Form.Submit, k.Form.RawJSON}
		if len(p.history()) > 0 {
			bs = append(bs, k.Form.History)
		}
		bs = append(bs, k.Form.Cancel)
	} else {
		bs = p.fieldBindings(p.focused())
		if p.focused() == nil && p.form.Root().AllowsEntries() {
			bs = append(bs, k.Form.AddItem)
		}
		if p.completing() != "" {
			bs = append(bs, k.Form.SuggestNext, k.Form.SuggestPrev)
		}
		bs = append(bs, k.Form.Submit, k.Form.RawJSON)
		if len(p.history()) > 0 {
			bs = append(bs, k.Form.History)
		}
		bs = append(bs, k.Form.NextField, k.Form.Cancel)
	}
	var parts []string
	for _, b := range bs {
		if b.Enabled() {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return wrapStyled(p.c.st.Muted, strings.Join(parts, " · "), p.w)
}

// fieldBindings are the keys that do something on f.
func (p *formPane) fieldBindings(f *schemaform.Field) []key.Binding {
	if f == nil {
		return nil
	}
	k := p.c.keys
	var bs []key.Binding
	switch f.Kind {
	case schemaform.KindBoolean, schemaform.KindEnum, schemaform.KindUnion,
		schemaform.KindMultiSelect, schemaform.KindObject, schemaform.KindArray:
		bs = append(bs, k.Form.Toggle)
	}
	switch {
	case addsHere(f):
		add := k.Form.AddItem
		add.SetHelp(k.Form.AddItem.Help().Key+"/"+k.Form.AddItemRow.Help().Key, k.Form.AddItem.Help().Desc)
		bs = append(bs, add)
	case f.AllowsEntries():
		bs = append(bs, k.Form.AddItem)
	}
	if m, c := memberOf(f); m != nil {
		if !f.AllowsEntries() && f.Kind != schemaform.KindArray {
			bs = append(bs, k.Form.AddItem)
		}
		bs = append(bs, k.Form.RemoveItem)
		if c.Kind == schemaform.KindArray {
			bs = append(bs, k.Form.MoveUp, k.Form.MoveDown)
		} else {
			bs = append(bs, k.Form.RenameKey)
		}
	}
	if f.Default != nil {
		bs = append(bs, k.Form.AcceptDefault)
	}
	if len(f.Suggestions()) > 0 {
		bs = append(bs, k.Form.Example)
	}
	if f.Nullable {
		bs = append(bs, k.Form.SetNull)
	}
	if f.Kind == schemaform.KindString {
		bs = append(bs, k.Form.EmptyString)
	}
	if f.State() != schemaform.Unset || f.Present() {
		bs = append(bs, k.Form.Omit)
	}
	return bs
}

// keyPromptAt is the index of the field the entry-key prompt is drawn under: the
// entry being renamed, else the map's last visible row; -1 when there is no prompt.
func (p *formPane) keyPromptAt() int {
	if p.keyObj == nil {
		return -1
	}
	at := -1
	for i, f := range p.fields {
		if p.keyOld != "" {
			if f.IsEntry() && f.Parent() == p.keyObj && f.Key == p.keyOld {
				return i
			}
			continue
		}
		for a := f; a != nil; a = a.Parent() {
			if a == p.keyObj {
				at = i
				break
			}
		}
	}
	return at
}

func (p *formPane) keyPromptLines(depth int) []string {
	st := p.c.st
	label := "new key: "
	if p.keyOld != "" {
		label = "rename " + clean(p.keyOld) + " to: "
	}
	pad := " " + strings.Repeat("  ", max(depth, 0)) + " "
	out := []string{fit(pad+st.Focus.Render(label)+p.keyIn.View(), p.w)}
	if p.keyErr != "" {
		out = append(out, fit(pad+st.Error.Render("↳ "+clean(p.keyErr)), p.w))
	}
	return out
}

// previewLines show the arguments the form holds now, as they would be sent.
func (p *formPane) previewLines() []string {
	if p.preview == nil || p.previewW != p.w {
		return p.buildPreview() // not synced yet: drawn, not kept
	}
	return slices.Clone(p.preview)
}

// buildPreview encodes the arguments and wraps their first lines.
func (p *formPane) buildPreview() []string {
	st := p.c.st
	val, _ := p.form.ValueAsTyped() // what send anyway sends; the same when all is valid
	text := "{}"
	if val != nil {
		// Only four lines show: wrap no more than they can hold (4 bytes a cell at
		// most), so a long value does not cost its length at each frame.
		raw := string(val)
		if k := 4 * 5 * max(p.w, 10); len(raw) > k {
			for k > 0 && !utf8.RuneStart(raw[k]) {
				k--
			}
			raw = raw[:k] + "…"
		}
		text = clean(raw)
	}
	lines := wrap("arguments: "+text, max(p.w, 10))
	if p.expand != nil {
		// A template's variables: what is read is the URI they make.
		uri, err := p.expand(stringArgs(val))
		if err != nil {
			uri = "(does not expand: " + err.Error() + ")"
		}
		lines = wrap("uri: "+clean(uri), max(p.w, 10))
	}
	if len(lines) > 4 {
		lines = append(lines[:3], "… ("+p.c.keys.Form.RawJSON.Help().Key+" shows all)")
	}
	for i, l := range lines {
		lines[i] = st.Muted.Render(l)
	}
	return lines
}

// rawStatus is the live verdict on the editor's text.
func (p *formPane) rawStatus() []string {
	st := p.c.st
	if len(p.rawProbs) == 0 {
		return []string{st.Success.Render("✓ valid JSON, matches the schema")}
	}
	var out []string
	for i, e := range p.rawProbs {
		if i == 4 {
			out = append(out, st.Error.Render(fmt.Sprintf("  … and %d more", len(p.rawProbs)-4)))
			break
		}
		out = append(out, wrapStyled(st.Error, "✗ "+clean(e.Error()), p.w)...)
	}
	return out
}

// labelCells is the width of a field's label as drawn.
func labelCells(f *schemaform.Field) int { return ansi.StringWidth(fieldLabel(f)) }

// fieldLabel names a field: its title or key, an entry's key quoted, "[i]" for items,
// "↳" for the value of a union's chosen variant (the kind column names its type).
func fieldLabel(f *schemaform.Field) string {
	switch {
	case f.IsEntry():
		return fmt.Sprintf("%q", clean(f.Key))
	case isUnionBody(f):
		return "↳"
	case f.Parent() == nil && f.Label == "":
		return "arguments" // a schema whose root is not an object (a variant picker)
	}
	return clean(f.Label)
}

// isUnionBody reports whether f edits the chosen variant of its parent union.
func isUnionBody(f *schemaform.Field) bool {
	return f.Parent() != nil && f.Parent().Kind == schemaform.KindUnion
}

// kindLabel names what a field holds, briefly.
func kindLabel(f *schemaform.Field) string {
	switch f.Kind {
	case schemaform.KindRaw:
		switch f.Expect {
		case "":
			return "JSON"
		case "object":
			return "JSON obj"
		case "array":
			return "JSON list"
		}
		return "JSON " + clean(f.Expect)
	case schemaform.KindString:
		if f.Format != "" && ansi.StringWidth(clean(f.Format)) <= kindWidth {
			return clean(f.Format)
		}
	case schemaform.KindEnum:
		if len(f.Options) > 0 && f.Options[0].Null {
			return "null"
		}
	case schemaform.KindObject:
		if f.IsMap() {
			return "map"
		}
	case schemaform.KindArray:
		return "list"
	case schemaform.KindMultiSelect:
		return "multi"
	case schemaform.KindUnion:
		return "one of"
	}
	return f.Kind.String()
}

// declaredRequired reports whether f is a property its object lists in `required`
// (items, entries, union bodies and the root are required by construction: no mark).
func declaredRequired(f *schemaform.Field) bool {
	par := f.Parent()
	return f.Required && par != nil && par.Kind == schemaform.KindObject && !f.IsEntry()
}

// fieldLines renders one field: focus mark, indentation, required mark, label, kind, the
// editor or value, marks; under it its problem, and for the focused field what the
// schema says about it.
func (p *formPane) fieldLines(f *schemaform.Field, focused bool, lw int) []string {
	st := p.c.st
	cursor := " "
	ls := st.Base
	if focused {
		cursor = "▸"
		ls = st.Focus
	}
	indent := strings.Repeat("  ", max(f.Depth, 0))
	req := " "
	if declaredRequired(f) {
		req = st.Warning.Render("*")
	}
	head := ls.Render(cursor) + indent + req + ls.Render(fit(fieldLabel(f), max(lw-len(indent)-1, 1))) + " " +
		st.Muted.Render(fit(kindLabel(f), kindWidth)) + " "
	valW := max(p.w-ansi.StringWidth(head), 8)
	val := p.valueText(f, focused, ls, valW)
	if marks := fieldMarks(f); len(marks) > 0 {
		val += "  " + st.Warning.Render(strings.Join(marks, " "))
	}
	out := []string{fit(head+val, p.w)}
	pad := strings.Repeat(" ", lw+kindWidth+3)
	if e := p.shownError(f); e != "" {
		for _, l := range wrap("↳ "+clean(e), max(p.w-len(pad), 10)) {
			out = append(out, fit(pad+st.Error.Render(l), p.w))
		}
	}
	if focused {
		for _, l := range wrap(strings.Join(p.infoLines(f), "\n"), max(p.w-len(pad), 10)) {
			if l != "" {
				out = append(out, pad+st.Muted.Render(l))
			}
		}
	}
	return out
}

// fieldMarks are the flags drawn after a field's value.
func fieldMarks(f *schemaform.Field) []string {
	var marks []string
	if f.ReadOnly {
		marks = append(marks, "read-only")
	}
	if f.Deprecated {
		marks = append(marks, "deprecated")
	}
	if f.Foreign() {
		marks = append(marks, "loaded value does not fit")
	}
	if f.Parent() != nil && f.Extra() != nil {
		marks = append(marks, "+ keys not in the schema: "+clean(string(f.Extra())))
	}
	return marks
}

// marksWidth is the room fieldMarks take on the row.
func marksWidth(f *schemaform.Field) int {
	if m := fieldMarks(f); len(m) > 0 {
		return 2 + ansi.StringWidth(strings.Join(m, " "))
	}
	return 0
}

// valueText draws a field's value: the input or the choices when focused.
func (p *formPane) valueText(f *schemaform.Field, focused bool, ls lipgloss.Style, w int) string {
	st := p.c.st
	muted := func(s string) string { return st.Muted.Render(s) }
	if f.State() == schemaform.Null && !f.IsText() && f.Kind != schemaform.KindBoolean && f.Kind != schemaform.KindEnum && f.Kind != schemaform.KindUnion {
		return "null"
	}
	if f.Foreign() && !f.IsText() {
		return clean(f.Text())
	}
	switch f.Kind {
	case schemaform.KindObject:
		if f.Collapsed() {
			return muted("▸ … (space opens)")
		}
		if f.IsMap() {
			return muted(fmt.Sprintf("▾ %s", jsontext.Count(len(f.Entries()), "entry", "entries")) + hintsSuffix(st, f, "propert"))
		}
		n := len(f.Children()) - len(f.Entries())
		s := fmt.Sprintf("▾ %s", jsontext.Count(n, "field", "fields"))
		if e := len(f.Entries()); e > 0 {
			s += fmt.Sprintf(" + %s", jsontext.Count(e, "entry", "entries"))
		}
		if !f.Present() && f.State() == schemaform.Unset {
			s += " · not sent until a field is set"
		}
		return muted(s) + hintsSuffix(st, f, "propert")
	case schemaform.KindArray:
		var s string
		switch n := len(f.Children()); {
		case f.State() == schemaform.Unset && !f.Present():
			s = "— not sent · " + p.c.keys.Form.AddItem.Help().Key + " adds an item"
		case n == 0:
			s = "[] empty list"
		case f.Collapsed():
			s = "▸ " + jsontext.Count(n, "item", "items") + " (space opens)"
		default:
			s = "▾ " + jsontext.Count(n, "item", "items")
		}
		return muted(s) + hintsSuffix(st, f, "item")
	case schemaform.KindBoolean, schemaform.KindEnum, schemaform.KindUnion:
		if focused {
			return p.choices(f, ls, w)
		}
		if t := clean(f.Text()); t != "" {
			if f.FromDefault() {
				return t + muted(" (default)")
			}
			return t
		}
		return p.unsetText(f)
	case schemaform.KindMultiSelect:
		return p.checkboxes(f, focused, w)
	}
	// Text kinds.
	if focused && p.inputOf == f {
		return p.input.View()
	}
	switch t := f.Text(); {
	case f.State() == schemaform.Null:
		return "null"
	case f.State() == schemaform.Set && t == "" && !f.Foreign():
		return `""` + muted(" (empty string)")
	case t != "":
		if f.FromDefault() {
			return clean(t) + muted(" (default)")
		}
		return clean(t)
	}
	return p.unsetText(f)
}

// unsetText shows a field that is not sent: its default or format hint, or a dash.
func (p *formPane) unsetText(f *schemaform.Field) string {
	st := p.c.st
	if f.Default != nil {
		return st.Muted.Render(clean(f.Placeholder()) + " (default, not sent)")
	}
	if f.FormatHint != "" {
		return st.Muted.Render("— " + clean(f.FormatHint))
	}
	return st.Muted.Render("—")
}

// choices draws a focused select: every option as a radio button when they fit, else
// the chosen one between arrows.
func (p *formPane) choices(f *schemaform.Field, ls lipgloss.Style, w int) string {
	st := p.c.st
	sel := f.Selected()
	var parts []string
	for i, o := range f.Options {
		mark := "( ) "
		if i == sel {
			mark = "(•) "
		}
		item := mark + clean(o.Label)
		if i == sel {
			item = ls.Render(item)
		}
		parts = append(parts, item)
	}
	all := strings.Join(parts, "  ")
	if ansi.StringWidth(all) <= w {
		return all
	}
	label := "choose"
	if sel >= 0 {
		label = clean(f.Options[sel].Label)
	}
	return ls.Render("‹ "+label+" ›") + st.Muted.Render(fmt.Sprintf("  %d/%d ←/→", sel+1, len(f.Options)))
}

// checkboxes draws a multi-select: every option with its box when they fit; else, when
// focused, the options around the cursor, and unfocused, the chosen labels.
func (p *formPane) checkboxes(f *schemaform.Field, focused bool, w int) string {
	st := p.c.st
	tail := hintsSuffix(st, f, "item")
	if f.State() == schemaform.Unset {
		tail = st.Muted.Render("  (omitted)") + tail
	}
	room := max(w-ansi.StringWidth(tail), 10)
	items := make([]string, len(f.Options))
	for i, o := range f.Options {
		box := "[ ]"
		if f.Checked(i) {
			box = "[x]"
		}
		items[i] = box + " " + clean(o.Label)
	}
	mark := func(i int) string {
		switch {
		case !focused || i != p.opt:
			return items[i]
		case st.Plain:
			return "▸" + items[i] // no attributes to show the cursor with
		}
		return st.Selection.Render(items[i])
	}
	if ansi.StringWidth(strings.Join(items, " ")) <= room {
		var parts []string
		for i := range items {
			parts = append(parts, mark(i))
		}
		return strings.Join(parts, " ") + tail
	}
	n := 0
	for i := range f.Options {
		if f.Checked(i) {
			n++
		}
	}
	count := st.Muted.Render(fmt.Sprintf("  %d of %d chosen", n, len(items)))
	if !focused {
		return clean(f.Text()) + count + tail
	}
	// The cursor's option and as many neighbours as fit.
	lo, hi := p.opt, p.opt+1
	width := func(a, b int) int { return ansi.StringWidth(strings.Join(items[a:b], " ")) + 4 }
	for grown := true; grown; {
		grown = false
		if hi < len(items) && width(lo, hi+1) <= room-ansi.StringWidth(count) {
			hi++
			grown = true
		}
		if lo > 0 && width(lo-1, hi) <= room-ansi.StringWidth(count) {
			lo--
			grown = true
		}
	}
	var parts []string
	if lo > 0 {
		parts = append(parts, "…")
	}
	for i := lo; i < hi; i++ {
		parts = append(parts, mark(i))
	}
	if hi < len(items) {
		parts = append(parts, "…")
	}
	return strings.Join(parts, " ") + count + tail
}

// hintsSuffix shows the hints about counts (items, properties) on the row.
func hintsSuffix(st *themes.Styles, f *schemaform.Field, about string) string {
	var hs []string
	for _, h := range f.Hints {
		if strings.Contains(h, about) || strings.Contains(h, "duplicates") {
			hs = append(hs, clean(h))
		}
	}
	if len(hs) == 0 {
		return ""
	}
	return st.Muted.Render(" · " + strings.Join(hs, ", "))
}

// infoLines is what the schema says about the focused field, in words.
func (p *formPane) infoLines(f *schemaform.Field) []string {
	k := p.c.keys
	var info []string
	if f.Description != "" {
		info = append(info, block(f.Description))
	}
	if f.Key != "" && !f.IsEntry() && !isUnionBody(f) && f.Label != f.Key && !strings.HasPrefix(f.Label, "[") {
		info = append(info, fmt.Sprintf("sent as %q", clean(f.Key)))
	}
	if i := f.Selected(); i >= 0 && f.Options[i].Description != "" {
		info = append(info, clean(f.Options[i].Label)+": "+block(f.Options[i].Description))
	}
	if f.Format != "" {
		s := "format " + clean(f.Format)
		if f.FormatHint != "" {
			s += " (" + clean(f.FormatHint) + ")"
		}
		info = append(info, s+", checked as you type")
	}
	if len(f.Hints) > 0 {
		info = append(info, clean(strings.Join(f.Hints, " · ")))
	}
	if f.Default != nil {
		info = append(info, "default "+clean(string(f.Default))+" · "+k.Form.AcceptDefault.Help().Key+" accepts it")
	}
	if ex := f.Suggestions(); len(ex) > 0 {
		var s []string
		for _, e := range ex {
			s = append(s, clean(string(e)))
		}
		word := "examples "
		if len(f.Examples) == 0 {
			word = "e.g. "
		}
		info = append(info, word+strings.Join(s, " · ")+" · "+k.Form.Example.Help().Key+" fills one in")
	}
	if f.ReadOnly {
		info = append(info, "readOnly: the server manages this value and may ignore or reject one sent")
	}
	if f.Deprecated {
		info = append(info, "deprecated: the server may stop accepting it")
	}
	if f.Note != "" {
		info = append(info, clean(f.Note))
	}
	if f.Foreign() {
		info = append(info, "the loaded value does not fit this field; it is sent unchanged")
	}
	if f.IsEntry() {
		info = append(info, "entry of "+clean(f.Parent().Label)+" · "+k.Form.RenameKey.Help().Key+" renames its key")
	}
	return info
}
