package ui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// sessionKeep is where the session's trace is being written and the hook that saves it
// under a name (the S key).
type sessionKeep struct {
	// path is the trace being written ("" when the session is not recorded).
	path string
	// save copies the trace so far under a name; nil disables the key. Called only from a
	// tea.Cmd: it copies a file.
	save func(name string) (string, error)
	// prompt is the one-line name prompt while it is open.
	prompt *textinput.Model
	// saving is set while a save runs.
	saving bool
}

// sessionSavedMsg reports a save of the session.
type sessionSavedMsg struct {
	path string
	err  error
}

// recFact is the status bar's mark of a recorded session. The path itself is on the
// Server pane and printed at exit: a flash of it at start pushed the pid and the counts
// out of the bar for seconds, just when a user looks for them.
func (m *Model) recFact() string {
	if m.keep.path == "" {
		return ""
	}
	return "● rec"
}

// openKeepPrompt opens the name prompt (a note when saving is not possible).
func (m *Model) openKeepPrompt() tea.Cmd {
	switch {
	case m.keep.save == nil:
		m.note("warning", "this session cannot be saved: it is not being recorded")
		return nil
	case m.keep.saving:
		m.note("info", "a save is already running")
		return nil
	}
	ti := textinput.New()
	ti.Prompt = "save session as: "
	ti.Placeholder = "name"
	ti.SetStyles(inputStyles(m.c.st))
	ti.SetWidth(max(m.width-24, 10))
	m.keep.prompt = &ti
	return ti.Focus()
}

// keepKey handles the name prompt: enter saves (in a Cmd), esc closes.
func (m *Model) keepKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	p := m.keep.prompt
	switch {
	case key.Matches(msg, k.Dismiss):
		m.keep.prompt = nil
		return nil
	case key.Matches(msg, k.Confirm):
		name := p.Value()
		m.keep.prompt = nil
		m.keep.saving = true
		save := m.keep.save
		return func() tea.Msg {
			path, err := save(name)
			return sessionSavedMsg{path: path, err: err}
		}
	}
	var cmd tea.Cmd
	*p, cmd = p.Update(msg)
	return cmd
}

// sessionSaved reports the save in the status line.
func (m *Model) sessionSaved(msg sessionSavedMsg) {
	m.keep.saving = false
	if msg.err != nil {
		m.note("error", "session not saved: "+msg.err.Error())
		return
	}
	m.note("info", "session saved to "+msg.path)
}

// keepView draws the name prompt over the body.
func (m *Model) keepView() string {
	st := m.c.st
	return st.Title.Render("save this session") + "\n\n" + m.keep.prompt.View() + "\n\n" +
		st.Muted.Render("enter saves a copy of the trace so far under this name · esc cancels")
}
