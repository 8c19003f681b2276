package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// The arguments of a prompt (prompts/get) and the variables of a resource template (RFC
// 6570) are edited in the one argument form, formPane: their names become a string-only
// JSON Schema, and the form asks the server for completions (MCP server/utilities/
// completion) as the user types: debounced with a tick, sent as an async Cmd, and tagged
// so a stale answer is dropped.

// completeDebounce is how long typing must pause before completion/complete is sent.
const completeDebounce = 250 * time.Millisecond

// maxSuggestions is how many completion values are drawn under a field.
const maxSuggestions = 8

// argSpec describes one string argument: a prompt argument or a URI template variable.
type argSpec struct {
	name, desc string
	required   bool
}

// argsSchema is the JSON Schema of string arguments: an object whose properties, in the
// order given, are strings with their descriptions, the required ones listed.
func argsSchema(specs []argSpec) json.RawMessage {
	b := []byte(`{"type":"object","properties":{`)
	var required []string
	for i, s := range specs {
		if i > 0 {
			b = append(b, ',')
		}
		name, _ := json.Marshal(s.name)
		prop := map[string]string{"type": "string"}
		if s.desc != "" {
			prop["description"] = s.desc
		}
		val, _ := json.Marshal(prop)
		b = append(append(append(b, name...), ':'), val...)
		if s.required {
			required = append(required, s.name)
		}
	}
	b = append(b, '}')
	if len(required) > 0 {
		req, _ := json.Marshal(required)
		b = append(append(b, `,"required":`...), req...)
	}
	return append(b, '}')
}

// newArgsForm is the argument form of string arguments: title heads it, what names the
// send ("get prompt", "read resource"), and completion/complete is asked with ref.
func newArgsForm(c *common, id int, title, what string, ref mcpclient.CompletionRef, specs []argSpec) *formPane {
	p := newFormPane(c, mcpclient.Tool{Name: what, InputSchema: argsSchema(specs)})
	p.id, p.title, p.what, p.histKey = id, title, what, ""
	p.texts, p.marks = nil, 0 // the list's detail shows the descriptions; the focused field too
	p.compl = &completer{ref: ref, sel: -1}
	return p
}

// completer is a form's completion state: tag counts edits and focus moves (an answer for
// another tag is stale); the suggestions are for the field named field.
type completer struct {
	ref    mcpclient.CompletionRef
	tag    int
	field  string
	sugg   []string
	total  int
	more   bool
	sel    int // -1: none highlighted
	err    string
	asking bool
	// off says why completion is off ("" = on).
	off string
}

// completeTickMsg fires after the debounce; only the form's latest tag is acted on.
type completeTickMsg struct {
	form, tag int
}

// completedMsg is the server's answer to completion/complete for field.
type completedMsg struct {
	form, tag int
	field     string
	res       *mcpclient.Completion
	err       error
}

// argValues are the form's arguments as strings (what prompts/get and a template take):
// a value of another JSON type (typed in the raw editor) as its JSON text.
func (p *formPane) argValues() map[string]string {
	v, _ := p.form.ValueAsTyped()
	return stringArgs(v)
}

// stringArgs reads a JSON object of arguments as strings: a string member as its value,
// any other as its JSON text; nil or not an object gives an empty map.
func stringArgs(v json.RawMessage) map[string]string {
	out := map[string]string{}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) != nil {
		return out
	}
	for k, raw := range obj {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out[k] = s
		} else {
			out[k] = string(raw)
		}
	}
	return out
}

// completing is the name of the focused argument when the form completes it, "" when not.
func (p *formPane) completing() string {
	if p.compl == nil || p.compl.off != "" || p.rawMode {
		return ""
	}
	if f := p.focused(); f != nil && f.Depth == 0 && f.IsText() {
		return f.Key
	}
	return ""
}

// clearSuggestions drops the suggestions and makes any answer in flight stale.
func (p *formPane) clearSuggestions() {
	c := p.compl
	if c == nil {
		return
	}
	c.tag++
	c.sugg, c.field, c.sel, c.err, c.asking = nil, "", -1, "", false
	c.total, c.more = 0, false
}

// scheduleComplete starts the debounce for the focused argument.
func (p *formPane) scheduleComplete() tea.Cmd {
	if p.completing() == "" {
		return nil
	}
	p.compl.tag++
	id, tag := p.id, p.compl.tag
	return p.c.tick(completeDebounce, func(time.Time) tea.Msg { return completeTickMsg{form: id, tag: tag} })
}

// completeTick answers a debounce tick: when no key came since, completion/complete is
// sent for the focused argument with the others as context (MCP 2025-06-18).
func (p *formPane) completeTick(ctx context.Context, s session.Conn, msg completeTickMsg) tea.Cmd {
	name := p.completing()
	if name == "" || msg.tag != p.compl.tag || s == nil {
		return nil
	}
	p.commitInput()
	args := p.argValues()
	value := args[name]
	delete(args, name)
	ref, tag, id := p.compl.ref, p.compl.tag, p.id
	p.compl.asking = true
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		res, err := s.Complete(cctx, ref, name, value, args)
		return completedMsg{form: id, tag: tag, field: name, res: res, err: err}
	}
}

// completed shows an answer, unless it is stale (the user typed or moved since).
func (p *formPane) completed(msg completedMsg) bool {
	c := p.compl
	if c == nil || msg.tag != c.tag || msg.field != p.completing() {
		return false
	}
	c.asking = false
	c.field, c.sel = msg.field, -1
	c.sugg, c.err = nil, ""
	if msg.err != nil {
		var rpc *mcpclient.RPCError
		if errors.As(msg.err, &rpc) && rpc.Code == -32601 {
			c.off = "the server does not support completion/complete"
		}
		c.err = msg.err.Error()
		return true
	}
	if msg.res != nil {
		c.sugg = msg.res.Values
		c.more = msg.res.HasMore
		c.total = len(msg.res.Values)
		if msg.res.Total != nil {
			c.total = *msg.res.Total
		}
	}
	return true
}

// suggestionKey moves the highlight through the suggestions (d is +1 or -1); false when
// there are none to choose from.
func (p *formPane) suggestionKey(d int) bool {
	c := p.compl
	n := 0
	if c != nil && c.field != "" && c.field == p.completing() {
		n = min(len(c.sugg), maxSuggestions)
	}
	if n == 0 {
		return false
	}
	c.sel = ((c.sel+d)%n + n) % n
	return true
}

// takeSuggestion puts the highlighted suggestion into the focused argument; false when
// none is highlighted.
func (p *formPane) takeSuggestion() (tea.Cmd, bool) {
	c := p.compl
	if c == nil || c.sel < 0 || c.sel >= len(c.sugg) || c.field != p.completing() {
		return nil, false
	}
	// The input draws its value raw: a suggestion goes in sanitized (control characters
	// become visible escapes, and are sent as typed).
	p.input.SetValue(clean(c.sugg[c.sel]))
	p.input.CursorEnd()
	p.commitInput()
	p.clearSuggestions()
	p.edited()
	return p.scheduleComplete(), true
}

// suggestionLines draws the completion values under the focused argument.
func (p *formPane) suggestionLines(pad string) []string {
	c := p.compl
	name := p.completing()
	if c == nil || (name == "" && c.off == "") {
		return nil
	}
	st := p.c.st
	var out []string
	switch {
	case c.off != "":
		out = append(out, pad+st.Muted.Render("(no completions: "+c.off+")"))
	case c.err != "" && c.field == name:
		out = append(out, fit(pad+st.Warning.Render("completion failed: "+clean(c.err)), p.w))
	case c.field == name && len(c.sugg) == 0:
		out = append(out, pad+st.Muted.Render("(no suggestions)"))
	case c.field == name:
		for i, v := range c.sugg {
			if i == maxSuggestions {
				break
			}
			item := "  " + clean(v)
			if i == c.sel {
				item = selectRow(st, "› "+clean(v), max(ansi.StringWidth(clean(v))+2, 1))
			}
			out = append(out, fit(pad+item, p.w))
		}
		more := c.total - min(len(c.sugg), maxSuggestions)
		switch {
		case more > 0:
			out = append(out, pad+st.Muted.Render(fmt.Sprintf("  … %d more", more)))
		case c.more:
			out = append(out, pad+st.Muted.Render("  … more on the server"))
		}
	case c.asking:
		out = append(out, pad+st.Muted.Render("asking for completions…"))
	}
	return out
}
