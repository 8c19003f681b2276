package ui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// recordingState is where the session's trace is being written and the hook that saves it
// under a name (the S key).
type recordingState struct {
	// path is the trace being written ("" when the session is not recorded).
	path string
	// save copies the trace so far under a name; nil disables the key. Called only from a
	// tea.Cmd: it copies a file.
	save func(name string) (string, error)
	// saving is set while a save runs.
	saving bool
}

// keepPrompt is the save-as dialog (the S key): the name to save the session under.
type keepPrompt struct {
	c     *common
	input *textinput.Model
	// err is why the last save failed, shown in the still-open prompt so another name
	// can be typed ("NAME exists: choose another name").
	err string
}

// sessionSavedMsg reports a save of the session.
type sessionSavedMsg struct {
	path string
	err  error
}

// recFact is the status bar's mark of a recorded session. The path itself is on the
// Server pane and printed at exit: a flash of it at start pushed the pid and the counts
// out of the bar for seconds, just when a user looks for them.
func (m *model) recFact() string {
	if m.recording.path == "" {
		return ""
	}
	return "● rec"
}

// openKeepPrompt opens the name prompt (a note when saving is not possible).
func (m *model) openKeepPrompt() tea.Cmd {
	switch {
	case m.recording.save == nil:
		m.note("warning", "this session cannot be saved: it is not being recorded")
		return nil
	case m.recording.saving:
		m.note("info", "a save is already running")
		return nil
	}
	ti, cmd := newLinePrompt(m.c.st, "save session as: ", "", max(m.width-24, 10))
	ti.Placeholder = "name"
	m.overlay.push(&keepPrompt{c: m.c, input: ti})
	return cmd
}

// handleKey handles the name prompt: enter saves (the root, in a Cmd), esc closes. The
// prompt stays open until the save answers: a refused name is corrected in place.
func (p *keepPrompt) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	outcome, cmd := promptKey(p.c.keys, p.input, msg)
	switch outcome {
	case promptDismissed:
		return closeAct{}, nil
	case promptConfirmed:
		return saveAct{p.input.Value()}, nil
	}
	return nil, cmd
}

// saveSession copies the session recorded so far under name, in a Cmd (one save at a time).
func (m *model) saveSession(name string) tea.Cmd {
	if m.recording.saving {
		return nil
	}
	if p := openDialog[*keepPrompt](m); p != nil {
		p.err = ""
	}
	m.recording.saving = true
	save := m.recording.save
	return func() tea.Msg {
		path, err := save(name)
		return sessionSavedMsg{path: path, err: err}
	}
}

// promptOutcome is what a key did to a one-line prompt.
type promptOutcome int

const (
	promptEditing promptOutcome = iota
	promptConfirmed
	promptDismissed
)

// newLinePrompt is a focused one-line input over the body (save-as, restart command line),
// prefilled with value, the cursor at its end.
func newLinePrompt(st *themes.Styles, prompt, value string, width int) (*textinput.Model, tea.Cmd) {
	ti := textinput.New()
	ti.Prompt = prompt
	ti.SetStyles(inputStyles(st))
	ti.SetWidth(width)
	ti.SetValue(value)
	ti.CursorEnd()
	return &ti, ti.Focus()
}

// promptKey gives a key to a one-line prompt: enter confirms, esc dismisses, anything else
// edits the text (cmd is the input's own, e.g. its cursor blink).
func promptKey(k keyMap, p *textinput.Model, msg tea.KeyPressMsg) (promptOutcome, tea.Cmd) {
	switch {
	case key.Matches(msg, k.Dialog.Dismiss):
		return promptDismissed, nil
	case key.Matches(msg, k.Dialog.Confirm):
		return promptConfirmed, nil
	}
	var cmd tea.Cmd
	*p, cmd = p.Update(msg)
	return promptEditing, cmd
}

// sessionSaved reports the save in the status line.
func (m *model) sessionSaved(msg sessionSavedMsg) {
	m.recording.saving = false
	if msg.err != nil {
		m.note("error", "session not saved: "+msg.err.Error())
		if p := openDialog[*keepPrompt](m); p != nil {
			p.err = msg.err.Error()
		}
		return
	}
	if p := openDialog[*keepPrompt](m); p != nil {
		m.overlay.remove(p)
	}
	m.note("info", "session saved to "+msg.path)
}

func (p *keepPrompt) setSize(int, int)                        {}
func (p *keepPrompt) focus() tea.Cmd                          { return p.input.Focus() }
func (p *keepPrompt) updateInput(msg tea.Msg) (tea.Cmd, bool) { return updateLine(p.input, msg), true }
func (p *keepPrompt) bindings(k *keyMap) []key.Binding {
	return k.offered("line")
}

// updateLine passes a component message to a one-line prompt's input.
func updateLine(in *textinput.Model, msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	*in, cmd = in.Update(msg)
	return cmd
}

// view draws the name prompt over the body.
func (p *keepPrompt) view() string {
	st := p.c.st
	errLine := ""
	if p.err != "" {
		errLine = st.Error.Render("not saved: "+clean(p.err)+" (type another name)") + "\n\n"
	}
	return st.Title.Render("save this session") + "\n\n" + p.input.View() + "\n\n" + errLine +
		st.Muted.Render("enter saves a copy of the trace so far under this name · esc cancels")
}
