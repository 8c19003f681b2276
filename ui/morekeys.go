package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
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

// paneKeyMore handles keys of the panes beyond tools, and ctrl+x everywhere (it cancels
// what the focused pane has in flight, or the tool call).
func (m *Model) paneKeyMore(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := m.c.keys
	if key.Matches(msg, k.CancelCall) {
		return true, m.cancelFocused()
	}
	switch m.focus {
	case paneResources:
		handled, act, cmd := m.resources.handleKey(msg)
		if handled && act != nil && m.notConnected() {
			m.note("warning", notConnectedNote)
			return true, cmd
		}
		if handled {
			return true, tea.Batch(cmd, m.resourceAction(act))
		}
	case panePrompts:
		handled, act, cmd := m.prompts.handleKey(msg)
		if handled && act != nil && m.notConnected() {
			m.note("warning", notConnectedNote)
			return true, cmd
		}
		if handled {
			return true, tea.Batch(cmd, m.promptAction(act))
		}
	case paneLogs:
		handled, level := m.logs.handleKey(msg)
		if level != "" && m.sess != nil {
			return true, setLogLevel(m.ctx, m.sess, level)
		}
		if handled {
			return true, nil
		}
	case paneTasks:
		handled, act, cmd := m.tasks.handleKey(msg)
		if handled {
			return true, tea.Batch(cmd, m.taskAction(act))
		}
	}
	return false, nil
}

// globalKeyMore handles the global keys beyond the first four panes.
func (m *Model) globalKeyMore(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	switch {
	case key.Matches(msg, k.Resources):
		m.focus = paneResources
	case key.Matches(msg, k.Prompts):
		m.focus = panePrompts
	case key.Matches(msg, k.Logs):
		m.focus = paneLogs
	case key.Matches(msg, k.Tasks):
		m.focus = paneTasks
	case key.Matches(msg, k.Roots):
		if m.sess == nil {
			// Offline there is no server to give roots to.
			m.note("warning", "offline: recorded session; there is no server to give roots to")
			return nil
		}
		m.openRootsEditor()
	case key.Matches(msg, k.SaveSession):
		return m.openKeepPrompt()
	case key.Matches(msg, k.Restart):
		return m.openRestartPrompt()
	case key.Matches(msg, k.Ping):
		switch {
		case m.sess == nil || m.server.init == nil:
			m.note("warning", "ping: not connected")
		case m.era() == mcpclient.EraModern:
			m.note("warning", "ping does not exist in the modern era (MCP 2026-07-28 removed it)")
		case !m.pinging:
			m.pinging = true
			return ping(m.ctx, m.sess)
		}
	}
	return nil
}

// moreInputFocused reports whether a pane beyond tools has a focused input (so "q" and
// the number keys are text there).
func (m *Model) moreInputFocused() bool {
	switch m.focus {
	case paneResources:
		return m.resources.inputFocused()
	case panePrompts:
		return m.prompts.inputFocused()
	case paneLogs:
		return m.logs.inputFocused()
	case paneTasks:
		return m.tasks.inputFocused()
	}
	return false
}

// blinkMore passes component messages (cursor blinks) to the inputs of dialogs and of the
// panes beyond tools; ok is false when none of them has focus.
func (m *Model) blinkMore(msg tea.Msg) (tea.Cmd, bool) {
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
	var f *argsForm
	switch m.focus {
	case paneResources:
		f = m.resources.form
		if s := m.resources.save; s != nil {
			var cmd tea.Cmd
			s.input, cmd = s.input.Update(msg)
			return cmd, true
		}
		if m.resources.list.filtering {
			var cmd tea.Cmd
			m.resources.list.filter, cmd = m.resources.list.filter.Update(msg)
			return cmd, true
		}
	case panePrompts:
		f = m.prompts.form
		if m.prompts.list.filtering {
			var cmd tea.Cmd
			m.prompts.list.filter, cmd = m.prompts.list.filter.Update(msg)
			return cmd, true
		}
	}
	if f != nil && f.cur < len(f.fields) {
		fl := f.fields[f.cur]
		var cmd tea.Cmd
		fl.input, cmd = fl.input.Update(msg)
		return cmd, true
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
