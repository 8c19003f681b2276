package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Update routes messages. Key priority, in one place: ctrl+c; the help overlay; an open
// server-request dialog (or the roots editor); a focused input (form, filter); the focused
// pane; then global keys. Commands queued by handlers (transient notes, redraw ticks) go
// out with the answer.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.update(msg)
	return m, tea.Batch(cmd, m.takePending(), m.loadShown())
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.c.log.Debug("msg", "type", fmt.Sprintf("%T", msg))
	if cmd, ok := m.updateMore(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case eventsMsg:
		cmd := m.addEvents(msg.events)
		if msg.closed {
			m.server.eventsClosed = true
			return m, cmd
		}
		return m, tea.Batch(cmd, pumpEvents(m.events))
	case initializedMsg:
		if msg.err != nil {
			m.server.initErr = msg.err
			m.tools.status = "handshake failed"
			return m, nil
		}
		m.server.init = msg.res
		m.c.hist.setServer(msg.res.ServerInfo.Name, m.title)
		m.server.warnings = append(m.server.warnings, msg.res.Warnings...)
		if m.server.state == mcpclient.StateStarting {
			m.server.state = mcpclient.StateReady
		}
		m.tools.status = "listing tools…"
		return m, m.afterConnect()
	case toolsListedMsg:
		m.server.warnings = append(m.server.warnings, msg.warnings...)
		m.server.toolsErr = msg.err
		m.tools.setTools(msg.tools, msg.err)
		m.tools.warnings = msg.warnings
		m.tools.setSize(m.lay.body)
		return m, m.toolsListed(msg)
	case eventsLoadedMsg:
		m.tl.loaded(msg)
		return m, nil
	case waitTickMsg:
		return m, m.waitTick()
	case frameSavedMsg:
		level := "info"
		if msg.err != nil {
			level = "error"
		}
		m.note(level, m.wire.frameSaved(msg))
		return m, nil
	case historyLoadedMsg, historySavedMsg:
		m.c.hist.apply(msg)
		return m, nil
	case formValidateMsg:
		return m, msg.pane.validateTick(msg.gen)
	case callDoneMsg:
		m.callDone(msg)
		return m, nil
	case callSentMsg:
		m.call.sent(msg)
		return m, waitSent(msg.id, msg.ch)
	case spinner.TickMsg:
		if m.call.anyRunning() {
			var cmd tea.Cmd
			m.call.spin, cmd = m.call.spin.Update(msg)
			return m, cmd
		}
		return m, nil
	default:
		// Cursor blinks and other component messages go to the focused inputs.
		if cmd, ok := m.blinkMore(msg); ok {
			return m, cmd
		}
		if f := m.call.form; f != nil {
			var c1, c2 tea.Cmd
			f.input, c1 = f.input.Update(msg)
			f.raw, c2 = f.raw.Update(msg)
			return m, tea.Batch(c1, c2)
		}
		if cb := m.tools.callBy; cb != nil {
			var cmd tea.Cmd
			if cb.onArgs {
				cb.args, cmd = cb.args.Update(msg)
			} else {
				cb.name, cmd = cb.name.Update(msg)
			}
			return m, cmd
		}
		if m.tools.list.filtering {
			var cmd tea.Cmd
			m.tools.list.filter, cmd = m.tools.list.filter.Update(msg)
			return m, cmd
		}
	}
	return m, nil
}

// addEvents appends a batch to the timeline and lets the panes react once; the returned
// Cmd lists again what the server said changed.
func (m *Model) addEvents(evs []mcpclient.Event) tea.Cmd {
	var cmds []tea.Cmd
	for i := range evs {
		ev := evs[i]
		m.tl.add(ev)
		if ev.Life != nil {
			m.server.observeLife(ev.Life)
		}
		m.call.observe(&ev)
		cmds = append(cmds, m.observeMore(&ev), m.observeOffline(&ev))
	}
	m.wire.appended()
	return tea.Batch(cmds...)
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	m.syncKeys()
	k := &m.c.keys
	if key.Matches(msg, k.ForceQuit) {
		m.quitting = true
		return tea.Quit
	}
	if m.showHelp {
		// The list keys scroll the overlay (helpPage keeps the offset in range).
		page := max(m.lay.body.h-3, 1)
		switch {
		case key.Matches(msg, k.Help, k.Cancel, k.Quit):
			m.showHelp, m.helpOff = false, 0
		case key.Matches(msg, k.Down):
			m.helpOff++
		case key.Matches(msg, k.Up):
			m.helpOff = max(m.helpOff-1, 0)
		case key.Matches(msg, k.PageDown):
			m.helpOff += page
		case key.Matches(msg, k.PageUp):
			m.helpOff = max(m.helpOff-page, 0)
		case key.Matches(msg, k.Top):
			m.helpOff = 0
		case key.Matches(msg, k.Bottom):
			m.helpOff = 1 << 30
		}
		return nil
	}
	if m.lay.tooSmall {
		if key.Matches(msg, k.Quit) {
			m.quitting = true
			return tea.Quit
		}
		return nil
	}
	if handled, cmd := m.modalKey(msg); handled {
		return cmd
	}
	// A focused input gets every key (so "q" is text, not quit); a form row that is not a
	// text input leaves q and ? to the app.
	if m.focus == paneCall && m.call.inputFocused() && m.call.form.keysFree() {
		switch {
		case key.Matches(msg, k.Help):
			m.showHelp = true
			return nil
		case key.Matches(msg, k.Quit):
			if m.call.form.quitKey() {
				m.quitting = true
				return tea.Quit
			}
			return nil
		}
	}
	switch {
	case m.focus == paneCall && m.call.inputFocused():
		sub, closed, cmd := m.call.form.handleKey(msg)
		if sub != nil {
			if m.sess == nil {
				m.call.form.errs = []string{"offline: recorded session; there is no server to call"}
				return cmd
			}
			if m.notConnected() {
				// The form stays open with its values: send again once connected.
				m.call.form.errs = []string{notConnectedNote}
				m.call.form.unsent = true
				return cmd
			}
			tool := m.call.form.tool
			start := m.call.start(m.ctx, m.sess, tool.Name, sub.args, m.now())
			// The call view marks arguments sent despite problems; the result is checked
			// against the tool's outputSchema.
			m.call.run.invalid, m.call.run.outSchema = sub.problems, tool.OutputSchema
			return tea.Batch(cmd, start, m.c.hist.record(tool.Name, sub.args, m.now()))
		}
		if closed {
			m.call.form = nil
			if m.call.run == nil {
				m.focus = paneTools
			}
		}
		return cmd
	case m.focus == paneTools && m.tools.inputFocused():
		_, _, cmd := m.tools.handleKey(msg)
		if req := m.tools.takeCallRequest(); req != nil {
			return tea.Batch(cmd, m.startCallByName(req))
		}
		return cmd
	}
	if handled, cmd := m.paneKeyMore(msg); handled {
		return cmd
	}
	// The focused pane.
	switch m.focus {
	case paneTools:
		if key.Matches(msg, k.Refresh) && m.sess != nil && m.server.init != nil {
			m.toolsList.userListed()
			cmd := m.refresh("tools")
			m.toolsList.changed = false // asked for, not a list_changed: the pane says how it went
			return cmd
		}
		handled, open, cmd := m.tools.handleKey(msg)
		if open {
			if t := m.tools.selected(); t != nil && m.offline != nil {
				// Offline, a tool opens its recorded calls.
				m.focus = paneCall
				m.offline.showTool(t.Name)
				return nil
			}
			if t := m.tools.selected(); t != nil {
				m.focus = paneCall
				return m.call.open(*t)
			}
		}
		if handled {
			return cmd
		}
	case paneCall:
		if m.offline != nil && m.call.form == nil && m.offlineCallKey(msg) {
			return nil
		}
		if key.Matches(msg, k.Edit) && m.call.run != nil {
			if t := m.toolNamed(m.call.run.tool); t != nil {
				return m.call.open(*t)
			}
		}
		if handled, cmd := m.call.handleKey(msg); handled {
			return cmd
		}
	case paneWire:
		if handled, cmd := m.wire.handleKey(msg); handled {
			return cmd
		}
	case paneServer:
		if m.scrollServer(msg) {
			return nil
		}
	}
	// Globals.
	switch {
	case key.Matches(msg, k.Quit):
		m.quitting = true
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
	case key.Matches(msg, k.NextPane):
		m.focus = (m.focus + 1) % paneCount
	case key.Matches(msg, k.PrevPane):
		m.focus = (m.focus + paneCount - 1) % paneCount
	case key.Matches(msg, k.Tools):
		m.focus = paneTools
	case key.Matches(msg, k.Call):
		m.focus = paneCall
	case key.Matches(msg, k.Wire):
		m.focus = paneWire
	case key.Matches(msg, k.Server):
		m.focus = paneServer
	case key.Matches(msg, k.CancelCall):
		return m.cancelFocused()
	default:
		return m.globalKeyMore(msg)
	}
	return nil
}

// toolNamed finds a listed tool by name.
func (m *Model) toolNamed(name string) *mcpclient.Tool {
	for i := range m.tools.tools {
		if m.tools.tools[i].Name == name {
			return &m.tools.tools[i]
		}
	}
	return nil
}

// scrollServer scrolls the Server tab.
func (m *Model) scrollServer(msg tea.KeyPressMsg) bool {
	k := m.c.keys
	page := max(m.lay.body.h-2, 1)
	switch {
	case key.Matches(msg, k.Up):
		m.serverOff--
	case key.Matches(msg, k.Down):
		m.serverOff++
	case key.Matches(msg, k.PageUp):
		m.serverOff -= page
	case key.Matches(msg, k.PageDown):
		m.serverOff += page
	case key.Matches(msg, k.Top):
		m.serverOff = 0
	default:
		return false
	}
	m.serverOff = max(m.serverOff, 0)
	return true
}
