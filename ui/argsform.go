package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// completeDebounce is how long typing must pause before completion/complete is sent.
const completeDebounce = 250 * time.Millisecond

// maxSuggestions is how many completion values are drawn under a field.
const maxSuggestions = 8

// argField is one string argument: a prompt argument or a URI template variable.
type argField struct {
	name     string
	desc     string
	required bool
	input    textinput.Model
}

// argsForm edits string arguments (prompts/get arguments, RFC 6570 template variables) and
// asks the server for completions (MCP server/utilities/completion) as the user types:
// debounced with a tick, sent as an async Cmd, and tagged so a stale answer is dropped.
// It owns every key while open (only ctrl+c gets past it).
type argsForm struct {
	c *common
	// id tells this form's ticks and answers from those of an earlier form.
	id    int
	title string
	// what is the action shown on the send line ("get prompt", "read resource").
	what string
	ref  mcpclient.CompletionRef
	// expand, when set, shows the URI the values make (templates).
	expand func(map[string]string) (string, error)

	fields []*argField
	cur    int // len(fields) is the send button
	errs   []string
	armed  bool

	// Completion state: tag counts edits; an answer for another tag is stale.
	tag        int
	suggFor    int
	sugg       []string
	suggTotal  int
	suggMore   bool
	suggSel    int // -1: none highlighted
	suggErr    string
	asking     bool
	noComplete string // why completion is off ("" = on)

	w, h int
	off  int
}

// argSpec describes one field for newArgsForm.
type argSpec struct {
	name, desc string
	required   bool
}

func newArgsForm(c *common, id int, title, what string, ref mcpclient.CompletionRef, specs []argSpec) *argsForm {
	f := &argsForm{c: c, id: id, title: title, what: what, ref: ref, suggFor: -1, suggSel: -1}
	for _, s := range specs {
		ti := textinput.New()
		ti.Prompt = ""
		ti.SetStyles(inputStyles(c.st))
		f.fields = append(f.fields, &argField{name: s.name, desc: s.desc, required: s.required, input: ti})
	}
	return f
}

func (f *argsForm) setSize(w, h int) {
	f.w, f.h = w, h
	for _, fl := range f.fields {
		fl.input.SetWidth(max(w-f.labelWidth()-4, 8))
	}
}

func (f *argsForm) labelWidth() int {
	lw := 6
	for _, fl := range f.fields {
		lw = max(lw, ansi.StringWidth(clean(fl.name))+2)
	}
	return min(lw, max(f.w/3, 6))
}

// focus moves to field i (len(fields) is the send button) and clears the suggestions.
func (f *argsForm) focus(i int) tea.Cmd {
	if f.cur < len(f.fields) {
		f.fields[f.cur].input.Blur()
	}
	f.cur = min(max(i, 0), len(f.fields))
	f.clearSuggestions()
	if f.cur < len(f.fields) {
		fl := f.fields[f.cur]
		fl.input.CursorEnd()
		return tea.Batch(fl.input.Focus(), f.schedule())
	}
	return nil
}

func (f *argsForm) clearSuggestions() {
	f.tag++
	f.sugg, f.suggFor, f.suggSel, f.suggErr, f.asking = nil, -1, -1, "", false
	f.suggTotal, f.suggMore = 0, false
}

// values are the arguments: every non-empty field, and empty required ones as "".
func (f *argsForm) values() map[string]string {
	out := map[string]string{}
	for _, fl := range f.fields {
		if v := fl.input.Value(); v != "" || fl.required {
			out[fl.name] = v
		}
	}
	return out
}

// contextArgs are the other fields' values, sent as completion context (MCP 2025-06-18).
func (f *argsForm) contextArgs(skip int) map[string]string {
	out := map[string]string{}
	for i, fl := range f.fields {
		if i != skip && fl.input.Value() != "" {
			out[fl.name] = fl.input.Value()
		}
	}
	return out
}

// completeTickMsg fires after the debounce; only the form's latest tag is acted on.
type completeTickMsg struct {
	form, tag int
}

// completedMsg is the server's answer to completion/complete.
type completedMsg struct {
	form, tag, field int
	res              *mcpclient.Completion
	err              error
}

// schedule starts the debounce for the focused field.
func (f *argsForm) schedule() tea.Cmd {
	if f.noComplete != "" || f.cur >= len(f.fields) {
		return nil
	}
	f.tag++
	id, tag := f.id, f.tag
	return f.c.tick(completeDebounce, func(time.Time) tea.Msg { return completeTickMsg{form: id, tag: tag} })
}

// tick answers a debounce tick: when no key came since, completion/complete is sent.
func (f *argsForm) tick(ctx context.Context, s session.Conn, msg completeTickMsg) tea.Cmd {
	if msg.tag != f.tag || f.cur >= len(f.fields) || s == nil || f.noComplete != "" {
		return nil
	}
	fl := f.fields[f.cur]
	ref, field, tag, id := f.ref, f.cur, f.tag, f.id
	name, value, cargs := fl.name, fl.input.Value(), f.contextArgs(f.cur)
	f.asking = true
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		res, err := s.Complete(cctx, ref, name, value, cargs)
		return completedMsg{form: id, tag: tag, field: field, res: res, err: err}
	}
}

// completed shows an answer, unless it is stale (the user typed or moved since).
func (f *argsForm) completed(msg completedMsg) bool {
	if msg.tag != f.tag || msg.field != f.cur {
		return false
	}
	f.asking = false
	f.suggFor, f.suggSel = msg.field, -1
	f.sugg, f.suggErr = nil, ""
	if msg.err != nil {
		var rpc *mcpclient.RPCError
		if errors.As(msg.err, &rpc) && rpc.Code == -32601 {
			f.noComplete = "the server does not support completion/complete"
		}
		f.suggErr = msg.err.Error()
		return true
	}
	if msg.res != nil {
		f.sugg = msg.res.Values
		f.suggMore = msg.res.HasMore
		f.suggTotal = len(msg.res.Values)
		if msg.res.Total != nil {
			f.suggTotal = *msg.res.Total
		}
	}
	return true
}

// formSubmit is what an argsForm hands to its pane when the user sends.
type formSubmit struct {
	values map[string]string
}

// handleKey handles every key while the form is open.
func (f *argsForm) handleKey(msg tea.KeyPressMsg) (sub *formSubmit, closed bool, cmd tea.Cmd) {
	k := f.c.keys
	switch {
	case key.Matches(msg, k.Form.Submit):
		return f.submit(), false, nil
	case key.Matches(msg, k.Form.Cancel):
		return nil, true, nil
	case key.Matches(msg, k.Form.SuggestNext):
		if n := min(len(f.sugg), maxSuggestions); n > 0 {
			f.suggSel = (f.suggSel + 1) % n
		}
		return nil, false, nil
	case key.Matches(msg, k.Form.SuggestPrev):
		if n := min(len(f.sugg), maxSuggestions); n > 0 {
			f.suggSel = (f.suggSel - 1 + n) % n
		}
		return nil, false, nil
	}
	switch {
	case key.Matches(msg, k.Dialog.Confirm):
		if f.suggSel >= 0 && f.suggSel < len(f.sugg) && f.cur < len(f.fields) {
			fl := f.fields[f.cur]
			// The input draws its value raw: a suggestion goes in sanitized (control
			// characters become visible escapes, and are sent as typed).
			fl.input.SetValue(clean(f.sugg[f.suggSel]))
			fl.input.CursorEnd()
			f.clearSuggestions()
			f.armed = false
			return nil, false, f.schedule()
		}
		if f.cur >= len(f.fields) {
			return f.submit(), false, nil
		}
		return nil, false, f.focus(f.cur + 1)
	case key.Matches(msg, k.Form.NextField):
		return nil, false, f.focus(f.cur + 1)
	case key.Matches(msg, k.Form.PrevField):
		return nil, false, f.focus(f.cur - 1)
	}
	if f.cur >= len(f.fields) {
		return nil, false, nil
	}
	fl := f.fields[f.cur]
	before := fl.input.Value()
	fl.input, cmd = fl.input.Update(msg)
	if fl.input.Value() != before {
		f.armed = false
		f.suggSel = -1
		cmd = tea.Batch(cmd, f.schedule())
	}
	return nil, false, cmd
}

// submit checks required fields; a second ctrl+s sends anyway (a debugger may send what
// the server says it refuses).
func (f *argsForm) submit() *formSubmit {
	f.errs = nil
	var missing []string
	for _, fl := range f.fields {
		if fl.required && fl.input.Value() == "" {
			missing = append(missing, fl.name)
		}
	}
	if len(missing) > 0 && !f.armed {
		f.errs = append(f.errs, fmt.Sprintf("required: %s; fill them, or ctrl+s again to send anyway", clean(strings.Join(missing, ", "))))
		f.armed = true
		return nil
	}
	if f.expand != nil {
		if _, err := f.expand(f.values()); err != nil {
			f.errs = append(f.errs, "the template does not expand: "+clean(err.Error()))
			return nil
		}
	}
	f.armed = false
	return &formSubmit{values: f.values()}
}

// view draws the fields, the suggestions under the focused one, and the send line,
// scrolled to keep the focused line in view (sync keeps the offset; view only reads).
func (f *argsForm) view() string {
	lines, curLine := f.lines()
	return strings.Join(window(lines, f.scroll(len(lines), curLine), f.h, f.w), "\n")
}

// sync keeps the offset that shows the focused line, after an update.
func (f *argsForm) sync() {
	lines, curLine := f.lines()
	f.off = f.scroll(len(lines), curLine)
}

// scroll is the offset after f.off that shows line curLine of n.
func (f *argsForm) scroll(n, curLine int) int {
	off := f.off
	if curLine < off {
		off = curLine
	}
	if curLine >= off+f.h-2 {
		off = curLine - f.h + 3
	}
	return clampScroll(off, n, f.h)
}

// lines draws the form unscrolled; curLine is the focused line.
func (f *argsForm) lines() (lines []string, curLine int) {
	lines, curLine, _ = f.layout()
	return lines, curLine
}

// layout is lines with where each field is: spans[i] is the lines [start, end) of field i,
// spans[len(fields)] the send button's line (the mouse finds fields by them).
func (f *argsForm) layout() (lines []string, curLine int, spans [][2]int) {
	st := f.c.st
	lines = append(lines, wrapStyled(st.Title, f.title, f.w)...)
	for _, e := range f.errs {
		lines = append(lines, wrapStyled(st.Error, "✗ "+e, f.w)...)
	}
	lw := f.labelWidth()
	for i, fl := range f.fields {
		focused := i == f.cur
		if focused {
			curLine = len(lines)
		}
		cursor, ls := " ", st.Base
		if focused {
			cursor, ls = "▸", st.Focus
		}
		req := " "
		if fl.required {
			req = st.Warning.Render("*")
		}
		val := fl.input.View()
		if !focused {
			val = clean(fl.input.Value())
			if val == "" {
				val = st.Muted.Render("—")
			}
		}
		spans = append(spans, [2]int{len(lines), len(lines) + 1})
		lines = append(lines, fit(ls.Render(cursor)+req+ls.Render(fit(clean(fl.name), lw))+" "+val, f.w))
		pad := strings.Repeat(" ", lw+3)
		if !focused {
			continue
		}
		if fl.desc != "" {
			for _, l := range wrap(block(fl.desc), max(f.w-len(pad), 10)) {
				lines = append(lines, pad+st.Muted.Render(l))
			}
		}
		lines = append(lines, f.suggestionLines(pad)...)
		spans[i][1] = len(lines)
	}
	if f.expand != nil {
		if uri, err := f.expand(f.values()); err == nil {
			lines = append(lines, "")
			lines = append(lines, wrapStyled(st.Muted, "uri: "+clean(uri), f.w)...)
		}
	}
	send := "[ " + f.what + " ]"
	if !f.c.canSend() {
		send = "[ offline: recorded session ]"
	}
	if f.cur == len(f.fields) {
		curLine = len(lines) + 1
		send = selectRow(st, send, ansi.StringWidth(send))
	}
	hint := "ctrl+s send · esc close · tab next · ctrl+n/ctrl+p choose a suggestion, enter takes it"
	if !f.c.canSend() {
		hint = "nothing is sent · esc close · tab next"
	}
	spans = append(spans, [2]int{len(lines) + 1, len(lines) + 2})
	lines = append(lines, "", send, st.Muted.Render(hint))
	return lines, curLine, spans
}

// suggestionLines draws the completion values under the focused field.
func (f *argsForm) suggestionLines(pad string) []string {
	st := f.c.st
	var out []string
	switch {
	case f.noComplete != "":
		out = append(out, pad+st.Muted.Render("(no completions: "+f.noComplete+")"))
	case f.suggErr != "" && f.suggFor == f.cur:
		out = append(out, fit(pad+st.Warning.Render("completion failed: "+clean(f.suggErr)), f.w))
	case f.suggFor == f.cur && len(f.sugg) == 0:
		out = append(out, pad+st.Muted.Render("(no suggestions)"))
	case f.suggFor == f.cur:
		for i, v := range f.sugg {
			if i == maxSuggestions {
				break
			}
			item := "  " + clean(v)
			if i == f.suggSel {
				item = selectRow(st, "› "+clean(v), max(ansi.StringWidth(clean(v))+2, 1))
			}
			out = append(out, fit(pad+item, f.w))
		}
		more := f.suggTotal - min(len(f.sugg), maxSuggestions)
		switch {
		case more > 0:
			out = append(out, pad+st.Muted.Render(fmt.Sprintf("  … %d more", more)))
		case f.suggMore:
			out = append(out, pad+st.Muted.Render("  … more on the server"))
		}
	case f.asking:
		out = append(out, pad+st.Muted.Render("asking for completions…"))
	}
	return out
}
