package ui

import (
	tea "charm.land/bubbletea/v2"
)

// modalKey gives keys to the roots editor, then to the front server-request dialog: while
// one is open it owns every key but ctrl+c.
func (m *Model) modalKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	switch {
	case m.keep.prompt != nil:
		return true, m.keepKey(msg)
	case m.restart.prompt != nil:
		return true, m.restartKey(msg)
	case m.rootsEd != nil:
		return true, m.rootsKey(msg)
	case len(m.dialogs) > 0:
		return true, m.dialogKey(msg)
	}
	return false, nil
}

// modalInput passes component messages (cursor blinks) to the input of the open prompt,
// editor or front dialog; ok is false when none is open.
func (m *Model) modalInput(msg tea.Msg) (tea.Cmd, bool) {
	switch {
	case m.keep.prompt != nil:
		var cmd tea.Cmd
		*m.keep.prompt, cmd = m.keep.prompt.Update(msg)
		return cmd, true
	case m.restart.prompt != nil:
		var cmd tea.Cmd
		*m.restart.prompt, cmd = m.restart.prompt.Update(msg)
		return cmd, true
	case m.rootsEd != nil && m.rootsEd.adding:
		var cmd tea.Cmd
		m.rootsEd.input, cmd = m.rootsEd.input.Update(msg)
		return cmd, true
	case len(m.dialogs) > 0:
		d := m.dialogs[0]
		switch d.kind {
		case dlgSampling:
			var cmd tea.Cmd
			d.reply, cmd = d.reply.Update(msg)
			return cmd, true
		case dlgElicitForm:
			return d.form.update(msg), true
		}
		return nil, true
	}
	return nil, false
}

// callDone finishes a tool call; a failed or cancelled modern call closes its input
// dialogs.
func (m *Model) callDone(msg callDoneMsg) {
	run := m.call.byID(msg.id)
	if !m.call.finish(msg, m.now()) || run == nil {
		return
	}
	if msg.err != nil {
		m.dropInputDialogs("tools/call", run.tool)
	}
	if run != m.call.run || m.focus != paneCall {
		m.callFinishedNote(run)
	}
}
