package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/ui/sanitize"
	"github.com/mcp-inspect/mcp-inspect/ui/schemaform"
)

// formPane edits a tool's arguments: fields generated from the input schema by
// ui/schemaform, or the same value as raw JSON (ctrl+e toggles). It owns every key while
// open (only ctrl+c gets past it), so typing "q" into a field never quits.
type formPane struct {
	c    *common
	tool mcpclient.Tool
	form *schemaform.Form
	// buildErr is set when the schema is not JSON; the form is then one raw field.
	buildErr error

	fields []*schemaform.Field
	cur    int // focused field; len(fields) is the send button
	opt    int // option cursor inside a multi-select

	input textinput.Model
	// loaded is the input's text when the field was focused or last committed.
	loaded string
	raw    textarea.Model
	// rawMode shows the raw JSON editor instead of the fields.
	rawMode bool

	// errs are form-level messages (invalid raw JSON, validation summary).
	errs []string
	// armed is set after a send was refused for schema problems: the next send goes anyway.
	armed bool

	w, h int
	off  int
}

// submitMsg is what a form hands to the root when the user sends.
type submit struct {
	args json.RawMessage
}

func newFormPane(c *common, tool mcpclient.Tool) *formPane {
	f, err := schemaform.New(tool.InputSchema)
	ti := textinput.New()
	ti.Prompt = ""
	ti.SetStyles(inputStyles(c.st))
	ta := textarea.New()
	ta.ShowLineNumbers = true
	ta.SetStyles(areaStyles(c.st))
	p := &formPane{c: c, tool: tool, form: f, buildErr: err, input: ti, raw: ta}
	p.refresh()
	return p
}

// refresh re-reads the visible fields (they change when unions switch or items are added).
func (p *formPane) refresh() {
	p.fields = p.form.Fields()
	if p.cur > len(p.fields) {
		p.cur = len(p.fields)
	}
}

func (p *formPane) setSize(w, h int) {
	p.w, p.h = w, h
	p.input.SetWidth(max(w-p.labelWidth()-kindWidth-6, 8))
	p.raw.SetWidth(max(w, 10))
	p.raw.SetHeight(max(h-4, 3))
}

func (p *formPane) labelWidth() int {
	lw := 8
	for _, f := range p.fields {
		lw = max(lw, 2*f.Depth+2+ansi.StringWidth(clean(f.Label)))
	}
	return min(lw, max(p.w/3, 8))
}

// focused returns the focused field, nil on the send button.
func (p *formPane) focused() *schemaform.Field {
	if p.cur >= 0 && p.cur < len(p.fields) {
		return p.fields[p.cur]
	}
	return nil
}

// focus moves to field i and loads its text into the input.
func (p *formPane) focus(i int) tea.Cmd {
	p.commitInput()
	p.cur = min(max(i, 0), len(p.fields))
	p.opt = 0
	p.input.Blur()
	if f := p.focused(); f != nil && f.IsText() {
		// The input shows the sanitized text; the field changes only if the user edits it,
		// so a value with control characters is never silently altered.
		p.input.SetValue(clean(f.Text()))
		p.loaded = p.input.Value()
		p.input.Placeholder = clean(f.Placeholder())
		p.input.CursorEnd()
		return p.input.Focus()
	}
	return nil
}

// commitInput writes the input's text into the focused text field.
func (p *formPane) commitInput() {
	if f := p.focused(); f != nil && f.IsText() && p.input.Focused() {
		if v := p.input.Value(); v != p.loaded {
			_ = f.SetText(v) // a parse error is kept on the field and shown there
			p.loaded = v
		}
	}
}

// arguments returns the value to send, or nil with the problems shown at the fields.
func (p *formPane) arguments() (json.RawMessage, bool) {
	p.errs = nil
	if p.rawMode {
		text := strings.TrimSpace(p.raw.Value())
		if text == "" {
			text = "{}"
		}
		if !json.Valid([]byte(text)) {
			p.errs = []string{"not valid JSON: fix it, or ctrl+e to go back to the form"}
			p.armed = false
			return nil, false
		}
		probs := schemaform.ValidateValue(p.tool.InputSchema, json.RawMessage(text))
		if len(probs) > 0 && !p.armed {
			for _, e := range probs {
				p.errs = append(p.errs, e.Error())
			}
			p.errs = append(p.errs, "ctrl+s again sends it anyway")
			p.armed = true
			return nil, false
		}
		var b bytes.Buffer
		_ = json.Compact(&b, []byte(text))
		return b.Bytes(), true
	}
	p.commitInput()
	probs := p.form.Validate()
	notes := map[string]bool{}
	for _, n := range p.form.Notes() {
		notes[n] = true
	}
	blocking := 0
	for _, e := range probs {
		if e.Field == nil && notes[e.Message] {
			continue
		}
		blocking++
		if e.Field == nil || e.Field == p.form.Root() {
			p.errs = append(p.errs, e.Error())
		}
	}
	val, _ := p.form.Value()
	if blocking > 0 && !p.armed {
		p.errs = append(p.errs, fmt.Sprintf("%d problem(s), shown at the fields; fix them, or ctrl+s again to send anyway", blocking))
		p.armed = true
		// Put the cursor on the first field with a problem.
		for i, f := range p.fields {
			if f.Error() != "" {
				p.focus(i)
				break
			}
		}
		return nil, false
	}
	if val == nil {
		val = json.RawMessage("{}")
	}
	return val, true
}

// toggleRaw switches between the fields and the raw JSON editor, carrying the value.
func (p *formPane) toggleRaw() tea.Cmd {
	p.errs = nil
	p.armed = false
	if !p.rawMode {
		p.commitInput()
		p.input.Blur()
		val, _ := p.form.Value()
		text := "{}"
		if pretty, ok := prettyJSON(val); ok {
			text = escapeJSONText(pretty)
		}
		p.raw.SetValue(text)
		p.rawMode = true
		return p.raw.Focus()
	}
	text := strings.TrimSpace(p.raw.Value())
	if text == "" {
		text = "{}"
	}
	if err := p.form.SetValue(json.RawMessage(text)); err != nil {
		p.errs = []string{clean(err.Error())}
		return nil
	}
	p.raw.Blur()
	p.rawMode = false
	p.refresh()
	return p.focus(p.cur)
}

// handleKey handles every key while the form is open. It returns a submit when the user
// sends, and closed when they leave.
func (p *formPane) handleKey(msg tea.KeyPressMsg) (sub *submit, closed bool, cmd tea.Cmd) {
	k := p.c.keys
	switch {
	case key.Matches(msg, k.Submit):
		if args, ok := p.arguments(); ok {
			return &submit{args: args}, false, nil
		}
		return nil, false, nil
	case key.Matches(msg, k.RawJSON):
		return nil, false, p.toggleRaw()
	case key.Matches(msg, k.Cancel):
		p.commitInput()
		return nil, true, nil
	}
	if p.rawMode {
		p.armed = false
		var c tea.Cmd
		p.raw, c = p.raw.Update(msg)
		return nil, false, c
	}
	f := p.focused()
	s := msg.String()
	switch s {
	case "tab", "down":
		return nil, false, p.focus(p.cur + 1)
	case "shift+tab", "up":
		return nil, false, p.focus(p.cur - 1)
	case "enter":
		if f == nil {
			if args, ok := p.arguments(); ok {
				return &submit{args: args}, false, nil
			}
			return nil, false, nil
		}
		return nil, false, p.focus(p.cur + 1)
	}
	if f == nil {
		return nil, false, nil
	}
	p.armed = false
	switch f.Kind {
	case schemaform.KindBoolean, schemaform.KindEnum, schemaform.KindUnion:
		switch s {
		case "left", "h":
			_ = f.Cycle(-1)
		case "right", "l", "space":
			_ = f.Cycle(1)
		case "backspace", "delete":
			f.Clear()
		}
		p.refresh()
		return nil, false, nil
	case schemaform.KindMultiSelect:
		switch s {
		case "left", "h":
			p.opt = max(p.opt-1, 0)
		case "right", "l":
			p.opt = min(p.opt+1, max(len(f.Options)-1, 0))
		case "space", "x":
			_ = f.Toggle(p.opt)
		}
		return nil, false, nil
	case schemaform.KindArray:
		switch s {
		case "+", "a":
			_, _ = f.AddItem()
		case "-", "d":
			if n := len(f.Children()); n > 0 {
				_ = f.RemoveItem(n - 1)
			}
		}
		p.refresh()
		return nil, false, nil
	case schemaform.KindObject:
		if s == "space" {
			f.SetCollapsed(!f.Collapsed())
			p.refresh()
		}
		return nil, false, nil
	}
	if f.IsText() {
		var c tea.Cmd
		p.input, c = p.input.Update(msg)
		p.commitInput()
		return nil, false, c
	}
	return nil, false, nil
}

// view draws the fields (or the raw editor) with errors at their fields.
func (p *formPane) view() string {
	st := p.c.st
	var lines []string
	title := "call " + clean(p.tool.Name)
	mode := "form"
	if p.rawMode {
		mode = "raw JSON"
	}
	lines = append(lines, st.Title.Render(fit(title, max(p.w-len(mode)-3, 1)))+st.Muted.Render(" ["+mode+"]"))
	if p.buildErr != nil {
		lines = append(lines, wrapStyled(st.Warning, clean(p.buildErr.Error()), p.w)...)
	}
	for _, n := range p.form.Notes() {
		lines = append(lines, wrapStyled(st.Muted, "note: "+clean(n), p.w)...)
	}
	for _, e := range p.errs {
		lines = append(lines, wrapStyled(st.Error, "✗ "+clean(e), p.w)...)
	}
	help := st.Muted.Render("ctrl+s send · ctrl+e form/raw · esc close · tab next")
	if p.rawMode {
		head := strings.Join(lines, "\n")
		return head + "\n" + p.raw.View() + "\n" + help
	}
	curLine := 0
	lw := p.labelWidth()
	for i, f := range p.fields {
		if i == p.cur {
			curLine = len(lines)
		}
		lines = append(lines, p.fieldLines(f, i == p.cur, lw)...)
	}
	if p.cur == len(p.fields) {
		curLine = len(lines)
	}
	send := "[ send ]"
	if p.cur == len(p.fields) {
		send = selectRow(st, send, ansi.StringWidth(send))
	}
	lines = append(lines, "", send, help)
	// Keep the focused field in view.
	if curLine < p.off {
		p.off = curLine
	}
	if curLine >= p.off+p.h-2 {
		p.off = curLine - p.h + 3
	}
	p.off = clampScroll(p.off, len(lines), p.h)
	return strings.Join(window(lines, p.off, p.h, p.w), "\n")
}

// kindWidth is the width of the kind column ("integer", "boolean", ...).
const kindWidth = 8

// kindLabel names what a field holds, briefly.
func kindLabel(f *schemaform.Field) string {
	switch f.Kind {
	case schemaform.KindRaw:
		if f.Expect != "" {
			return "JSON " + f.Expect
		}
		return "JSON"
	case schemaform.KindArray, schemaform.KindMultiSelect:
		return "list"
	case schemaform.KindUnion:
		return "one of"
	}
	return f.Kind.String()
}

// fieldLines renders one field: focus mark, required mark, label, kind, then the editor or
// value; under it its error, and for the focused field its description, hints and default.
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
	if f.Required {
		req = st.Warning.Render("*")
	}
	head := ls.Render(cursor) + indent + req + ls.Render(fit(clean(f.Label), max(lw-len(indent)-1, 1))) + " " +
		st.Muted.Render(fit(kindLabel(f), kindWidth)) + " "
	muted := func(s string) string { return st.Muted.Render(s) }
	unset := func() string {
		if ph := f.Placeholder(); ph != "" {
			return muted(clean(ph) + " (default; not sent)")
		}
		return muted("—")
	}
	var val string
	switch f.Kind {
	case schemaform.KindObject:
		if f.Collapsed() {
			val = muted("(collapsed; space opens)")
		}
	case schemaform.KindArray:
		val = fmt.Sprintf("%d item(s)", len(f.Children()))
		if focused {
			val += muted("  + add · - remove last")
		}
	case schemaform.KindBoolean, schemaform.KindEnum, schemaform.KindUnion:
		text := clean(f.Text())
		switch {
		case focused && text == "":
			val = ls.Render("‹ choose ›") + muted(fmt.Sprintf("  %d options, ←/→", len(f.Options)))
		case focused:
			val = ls.Render("‹ "+text+" ›") + muted(fmt.Sprintf("  %d options, ←/→", len(f.Options)))
		case text == "":
			val = unset()
		default:
			val = text
		}
	case schemaform.KindMultiSelect:
		var parts []string
		for i, o := range f.Options {
			box := "[ ]"
			if f.Checked(i) {
				box = "[x]"
			}
			item := box + " " + clean(o.Label)
			if focused && i == p.opt {
				item = selectRow(st, item, ansi.StringWidth(item))
			}
			parts = append(parts, item)
		}
		val = strings.Join(parts, " ")
	default:
		switch t := f.Text(); {
		case focused:
			val = p.input.View()
		case t != "":
			val = clean(t)
			if f.FromDefault() {
				val += muted(" (default)")
			}
		default:
			val = unset()
		}
	}
	out := []string{fit(head+val, p.w)}
	pad := strings.Repeat(" ", lw+kindWidth+3)
	if e := f.Error(); e != "" {
		out = append(out, fit(pad+st.Error.Render("↳ "+clean(e)), p.w))
	}
	if focused {
		var info []string
		if f.Description != "" {
			info = append(info, block(f.Description))
		}
		if len(f.Hints) > 0 {
			info = append(info, clean(strings.Join(f.Hints, ", ")))
		}
		if f.Default != nil {
			info = append(info, "default: "+clean(string(f.Default)))
		}
		if f.Note != "" {
			info = append(info, clean(f.Note))
		}
		for _, l := range wrap(strings.Join(info, "\n"), max(p.w-len(pad), 10)) {
			if l != "" {
				out = append(out, pad+muted(l))
			}
		}
	}
	return out
}

// escapeJSONText rewrites control, bidi and invisible characters in JSON text as \uXXXX
// escapes: the same JSON value, but safe to show in the editor.
func escapeJSONText(s string) string {
	if !sanitize.Contains(s, sanitize.Text) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == '\n' || r == '\t' || (r >= 0x20 && r < 0x7f) || (r >= 0xa0 && !sanitize.Dangerous(r)) {
			b.WriteRune(r)
			continue
		}
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}
