package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// callFinishedNote says in the status line that a call finished while another call (or
// another pane) was shown, so a result never lands unseen.
func (m *model) callFinishedNote(r *callRun) {
	level := "info"
	if r.err != nil || (r.res != nil && r.res.IsError) {
		level = "warning"
	}
	where := "2 Call shows it"
	if m.focus == paneCall {
		where = m.c.keys.Call.PrevCall.Help().Key + "/" + m.c.keys.Call.NextCall.Help().Key + " shows it"
	}
	m.note(level, fmt.Sprintf("tools/call %s (call #%d) finished: %s · %s", r.tool, r.id, m.call.callState(r, m.now()), where))
}

// callByName is the Tools pane's prompt to call any tool by name with raw JSON arguments,
// also one the server did not list (a debugger sends what the user asks).
type callByName struct {
	name textinput.Model
	args textarea.Model
	// onArgs is set when the arguments editor has the focus.
	onArgs bool
	// err says why the last send was refused.
	err string
	// selected is the selected tool's name: the empty name field shows it and means it
	// (typing replaces it instead of appending to it).
	selected string
}

// callRequest is a submitted call-by-name: the tool and its arguments, exactly as typed
// (nil arguments leave "arguments" out).
type callRequest struct {
	tool string
	args json.RawMessage
}

// openCallByName opens the prompt with an empty name field that shows the selected tool's
// name as its placeholder: typing replaces it, an empty field means it.
func (p *toolsPane) openCallByName() tea.Cmd {
	name := textinput.New()
	name.Prompt = "tool name: "
	name.Placeholder = "exact name, listed or not"
	name.SetStyles(inputStyles(p.c.st))
	name.SetWidth(max(p.det.w-len(name.Prompt)-2, 10))
	selected := ""
	if t := p.selected(); t != nil {
		selected = t.Name
		name.Placeholder = clean(t.Name) + " (enter takes it; type another name)"
	}
	args := textarea.New()
	args.ShowLineNumbers = false
	args.Placeholder = `{"key": "value"}  (empty: no arguments)`
	args.SetStyles(areaStyles(p.c.st))
	args.SetWidth(max(p.det.w-2, 10))
	args.SetHeight(max(min(p.det.h-9, 10), 3))
	p.callBy = &callByName{name: name, args: args, selected: selected}
	return p.callBy.name.Focus()
}

// callByKey handles the prompt's keys: tab switches between name and arguments, the send
// key validates and submits (req is the call to send), esc closes.
func (p *toolsPane) callByKey(msg tea.KeyPressMsg) (req *callRequest, cmd tea.Cmd) {
	cb := p.callBy
	k := p.c.keys
	switch {
	case key.Matches(msg, k.Form.Cancel):
		p.callBy = nil
		return nil, nil
	case key.Matches(msg, k.Form.Submit):
		req, err := cb.request()
		if err != "" {
			cb.err = err
			return nil, nil
		}
		p.callBy = nil
		return req, nil
	case key.Matches(msg, k.Tools.NameArgs) || key.Matches(msg, k.Dialog.Confirm) && !cb.onArgs:
		if !cb.onArgs && cb.name.Value() == "" && key.Matches(msg, k.Dialog.Confirm) {
			cb.name.SetValue(cb.selected) // enter on the empty field takes the selected name
			cb.name.CursorEnd()
		}
		cb.onArgs = !cb.onArgs
		if cb.onArgs {
			cb.name.Blur()
			return nil, cb.args.Focus()
		}
		cb.args.Blur()
		return nil, cb.name.Focus()
	}
	if cb.onArgs {
		cb.args, cmd = cb.args.Update(msg)
	} else {
		cb.name, cmd = cb.name.Update(msg)
	}
	cb.err = ""
	return nil, cmd
}

// request checks what was typed: a name, and arguments that are empty or JSON (of any
// type: MCP asks for an object, but the user may want to see what the server does).
func (cb *callByName) request() (*callRequest, string) {
	name := cb.name.Value()
	if name == "" {
		name = cb.selected
	}
	if name == "" {
		return nil, "type the tool's name"
	}
	text := strings.TrimSpace(cb.args.Value())
	if text == "" {
		return &callRequest{tool: name}, ""
	}
	var v json.RawMessage
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, "the arguments are not JSON: " + err.Error()
	}
	return &callRequest{tool: name, args: json.RawMessage(text)}, ""
}

// callByView draws the prompt in the detail area.
func (p *toolsPane) callByView(w, h int) string {
	st := p.c.st
	cb := p.callBy
	k := p.c.keys
	lines := []string{
		st.Title.Render("call a tool by name"),
		st.Muted.Render(fit("any name, also one tools/list did not return; arguments as raw JSON", w)),
		"",
		fit(cb.name.View(), w),
		"",
		st.Muted.Render("arguments (JSON; empty sends none):"),
	}
	lines = append(lines, strings.Split(cb.args.View(), "\n")...)
	if t := strings.TrimSpace(cb.args.Value()); t != "" && !strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
		lines = append(lines, st.Warning.Render(fit("⚠ not an object: MCP expects one; it is sent as typed", w)))
	}
	if cb.err != "" {
		lines = append(lines, wrapStyled(st.Error, clean(cb.err), w)...)
	}
	lines = append(lines, "", st.Muted.Render(fit(fmt.Sprintf("%s sends · tab name ⇄ arguments · %s closes", k.Form.Submit.Help().Key, k.Form.Cancel.Help().Key), w)))
	return strings.Join(window(lines, 0, h, w), "\n")
}

// startCallByName sends a call-by-name and shows it in the Call tab.
func (m *model) startCallByName(req *callRequest) tea.Cmd {
	if !m.c.canSend() {
		m.note("warning", "offline: there is no server to call")
		return nil
	}
	if m.notConnected() {
		m.note("warning", notConnectedNote)
		return nil
	}
	m.focus = paneCall
	start := m.call.start(m.ctx, m.sender(), req.tool, req.args, m.now(), m.taskRequired(req.tool))
	if t := m.toolNamed(req.tool); t != nil {
		m.call.run.outSchema = m.checkedOutputSchema(t.OutputSchema)
	} else {
		m.note("info", fmt.Sprintf("calling %q, which the server did not list", req.tool))
	}
	return start
}
