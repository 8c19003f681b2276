package ui

import (
	"errors"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// Update routes messages (one type switch, update), then brings the state the views read
// in line (sync). Commands queued by handlers (transient notes, redraw ticks) go out with
// the answer.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.update(msg)
	return m, tea.Batch(cmd, m.takePending(), m.loadShown(), m.graphicsCmd())
}

func (m *model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.c.log.Debug("msg", "type", fmt.Sprintf("%T", msg))
	m.checkExpired(msg)
	cmd := m.route(msg)
	if c := m.openHoldIfDue(); c != nil {
		cmd = tea.Batch(cmd, c)
	}
	m.sync()
	return m, cmd
}

// route hands each message to its handler.
func (m *model) route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseMsg:
		return m.handleMouse(msg) // releases and drags are dropped there
	case tea.BackgroundColorMsg:
		m.backgroundColor(msg)
		m.markdownBackground(msg)
	case eventsMsg:
		return m.eventsArrived(msg)
	case initializedMsg:
		return m.initialized(msg)
	case toolsListedMsg:
		return m.toolsArrived(msg)
	case resourcesListedMsg:
		return m.resourcesListed(msg)
	case promptsListedMsg:
		return m.promptsListed(msg)
	case relistDueMsg:
		return m.relistDue(msg)
	case pageStepMsg:
		return m.pageStepped(msg)
	case eventsLoadedMsg:
		m.tl.loaded(msg)
	case wireSearchMsg:
		return m.wire.searchRead(msg)
	case wireStepMsg:
		return m.wire.step(msg)
	case waitTickMsg:
		return m.waitTick()
	case mediaSavedMsg:
		m.mediaSaved(msg)
	case mediaOpenedMsg:
		m.mediaOpened(msg)
	case gfxDrawMsg:
		return m.gfxDraw(msg)
	case copiedMsg:
		return m.copied(msg)
	case frameSavedMsg:
		m.frameSaved(msg)
	case historyLoadedMsg, historySavedMsg:
		m.c.hist.apply(msg)
	case formValidateMsg:
		return msg.pane.validateTick(msg.gen)
	case callDoneMsg:
		m.callDone(msg)
	case callSentMsg:
		m.call.sent(msg)
		return waitSent(msg.id, msg.ch)
	case spinner.TickMsg:
		return m.spin(msg)
	case linkReadMsg:
		cmd, _ := m.updateLinks(msg)
		return cmd
	case taskListenEndedMsg:
		cmd, _ := m.updateTasksExt(msg)
		return cmd
	default:
		if cmd, ok := m.routeAnswer(msg); ok {
			return cmd
		}
		if cmd, ok := m.routeHolds(msg); ok {
			return cmd
		}
		return m.updateInputs(msg)
	}
	return nil
}

// routeAnswer hands the answers of the session's requests (lists, reads, gets, tasks,
// roots, ping, log level, server requests) and the redraw ticks to their handlers; ok is
// false for other messages.
func (m *model) routeAnswer(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case flashClearMsg:
	case sessionSavedMsg:
		m.sessionSaved(msg)
	case sessionsMsg:
		if p := openDialog[*sessionPicker](m); p != nil {
			p.setRows(msg.rows, msg.err)
		}
	case opTickMsg:
		m.ticking = false
	case serverRequestsMsg:
		return tea.Batch(m.serverRequests(msg.reqs), waitRequests(m.sess.Requests())), true
	case answeredMsg:
		m.answered(msg)
	case resourceReadMsg:
		m.resourceRead(msg)
	case promptGotMsg:
		m.promptGot(msg)
	case completeTickMsg:
		if f := m.formByID(msg.form); f != nil {
			return f.completeTick(m.ctx, m.sender(), msg), true
		}
	case completedMsg:
		if f := m.formByID(msg.form); f != nil {
			f.completed(msg)
		}
	case subscribedMsg:
		m.subscribed(msg)
	case listenEndedMsg:
		m.listenEnded(msg)
	case logLevelMsg:
		m.logLevelSet(msg)
	case pingMsg:
		m.pinged(msg)
	case savedMsg:
		m.resourceSaved(msg)
	case rootsResolvedMsg:
		return m.rootsResolved(msg), true
	case rootsNotifiedMsg:
		m.rootsNotified(msg)
	case taskCreatedMsg:
		return m.taskCreated(msg), true
	case taskPollMsg:
		return m.taskPoll(msg), true
	case taskGotMsg:
		return m.taskGot(msg), true
	case taskResultMsg:
		return m.taskResult(msg), true
	case taskCancelledMsg:
		return m.taskCancelled(msg), true
	case tasksListedMsg:
		m.tasksListed(msg)
	default:
		return nil, false
	}
	return nil, true
}

// eventsArrived adds a batch of the pump to the timeline and asks for the next.
func (m *model) eventsArrived(msg eventsMsg) tea.Cmd {
	cmd := m.absorbEvents(msg.events)
	if m.at != 0 && m.wire.jump(m.at) {
		m.focus, m.at = paneWire, 0 // open --at: the event asked for, once it is read
	}
	if msg.closed {
		m.state().EventsClosed, m.wire.closed = true, true
		return cmd
	}
	return tea.Batch(cmd, m.pumpNext())
}

// toolsArrived takes a tools/list answer (live, or recorded).
func (m *model) toolsArrived(msg toolsListedMsg) tea.Cmd {
	m.state().Warnings = append(m.state().Warnings, msg.Warnings...)
	m.state().ToolsErr = msg.Err
	changes := session.ListChanges(m.tools.tools, msg.Tools, func(t mcpclient.Tool) string { return t.Name })
	m.tools.setTools(msg.Tools, msg.Err)
	m.tools.warnings = msg.Warnings
	m.tools.setSize(m.lay.body)
	return m.toolsListed(msg, changes)
}

// initialized takes the handshake's answer and lists what the server offers.
func (m *model) initialized(msg initializedMsg) tea.Cmd {
	h := session.Handshake{Result: msg.res, Err: msg.err, SessionID: msg.sid}
	if s := m.sender(); s != nil {
		first, listTasks := s.Connected(h)
		return m.handshook(h, func() tea.Cmd { return tea.Batch(m.afterConnect(first, listTasks), m.resendAfterReinit()) })
	}
	m.state().Handshook(h)
	return m.handshook(h, m.recordedConnected)
}

// handshook draws a handshake's outcome (the session recorded it); then, on success,
// lists what the server offers.
func (m *model) handshook(h session.Handshake, then func() tea.Cmd) tea.Cmd {
	if h.Err != nil {
		// Nothing will be listed: the panes waiting for the handshake say so.
		m.resources.list.empty = "handshake failed: nothing to list (see 4 Server)"
		m.prompts.list.empty = m.resources.list.empty
		m.tools.status = "handshake failed"
		var af mcpclient.AuthFailure
		if errors.As(h.Err, &af) {
			m.tools.status = "authorization failed: " + clean(af.Error())
			m.note("error", "OAuth authorization failed: no token was obtained, so the server was not used (4 Server says why; 3 Wire has each step)")
		}
		return nil
	}
	if h.Result == nil {
		return nil
	}
	m.c.hist.setServer(h.Result.ServerInfo.Name, m.launch.title)
	m.tools.status = "listing tools…"
	return then()
}

// frameSaved says where the wire pane's frame went.
func (m *model) frameSaved(msg frameSavedMsg) {
	level := "info"
	if msg.err != nil {
		level = "error"
	}
	m.note(level, m.wire.frameSaved(msg))
}

// spin turns the running call's spinner. Its next frame waits on the model's clock
// (c.tick), not on the spinner's own tea.Tick, so that a test's clock holds it.
func (m *model) spin(msg spinner.TickMsg) tea.Cmd {
	if !m.call.anyRunning() {
		return nil
	}
	var cmd tea.Cmd
	m.call.spin, cmd = m.call.spin.Update(msg)
	if cmd == nil {
		return nil // another spinner's, or a stale chain's: it turned nothing
	}
	next := m.call.spin // Tick carries the ID and the new tag, as the spinner's own does
	return m.c.tick(next.Spinner.FPS, func(time.Time) tea.Msg { return next.Tick() })
}

// updateInputs passes component messages (cursor blinks) to the focused input: the front
// dialog's, else the focused pane's, else the call form's or the Tools prompt's.
func (m *model) updateInputs(msg tea.Msg) tea.Cmd {
	if cmd, ok := m.modalInput(msg); ok {
		return cmd
	}
	for _, id := range [...]paneID{m.focus, paneCall, paneTools} {
		if cmd, ok := m.panes[id].updateInput(msg); ok {
			return cmd
		}
	}
	return nil
}

// addEvents appends a batch to the timeline and lets the panes react once; the returned
// Cmd lists again what the server said changed.
func (m *model) addEvents(evs []mcpclient.Event) tea.Cmd {
	var cmds []tea.Cmd
	for i := range evs {
		ev := evs[i]
		m.tl.add(ev)
		m.call.observe(&ev)
		cmds = append(cmds, m.observeEvent(&ev))
	}
	cmds = append(cmds, m.wire.appended())
	return tea.Batch(cmds...)
}

// handleKey is the one key router: ctrl+c, the help page and the too-small screen; then
// the front dialog; then the focused pane (its focused input first); then the global keys.
func (m *model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	m.syncKeys()
	if cmd, done := m.screenKey(msg); done {
		return cmd
	}
	if handled, cmd := m.modalKey(msg); handled {
		return cmd
	}
	if handled, act, cmd := m.panes[m.focus].handleKey(msg); handled {
		return tea.Batch(cmd, m.perform(act))
	}
	return m.globalKey(msg)
}

// screenKey handles the keys that work over everything: ctrl+c, the help page (the list
// keys scroll it) and the too-small screen (only q).
func (m *model) screenKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := &m.c.keys
	switch {
	case key.Matches(msg, k.Global.ForceQuit):
		m.quitting = true
		return tea.Quit, true
	case m.help.shown:
		m.clampHelp()
		page := max(m.lay.body.h-3, 1)
		switch {
		case m.helpSearchKey(msg):
		case key.Matches(msg, k.Global.Help, k.Form.Cancel, k.Global.Quit):
			m.help.shown, m.help.off, m.help.query = false, 0, ""
		}
		if !m.help.shown || m.help.typing {
			return nil, true
		}
		if d, ok := k.List.scrollStep(msg, page, 1<<30); ok {
			m.help.off = max(m.help.off+d, 0) // clampHelp keeps the bottom
		}
		return nil, true
	case m.lay.tooSmall:
		if key.Matches(msg, k.Global.Quit) {
			m.quitting = true
			return tea.Quit, true
		}
		return nil, true
	}
	return nil, false
}

// paneKeys are the keys that focus each pane, in tab order.
func (k *keyMap) paneKeys() [paneCount]key.Binding {
	return [paneCount]key.Binding{k.Global.Tools, k.Global.Call, k.Global.Wire, k.Global.Server, k.Global.Resources, k.Global.Prompts, k.Global.Logs, k.Global.Tasks}
}

// globalKey handles the keys no pane took.
func (m *model) globalKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.c.keys
	for id, b := range k.paneKeys() {
		if key.Matches(msg, b) {
			m.focus = paneID(id)
			return nil
		}
	}
	if cmd, ok := m.mediaKey(msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Global.Quit):
		m.quitting = true
		return tea.Quit
	case key.Matches(msg, k.Global.Help):
		m.help.shown = true
	case key.Matches(msg, k.Global.NextPane):
		m.focus = (m.focus + 1) % paneCount
	case key.Matches(msg, k.Global.PrevPane):
		m.focus = (m.focus + paneCount - 1) % paneCount
	case key.Matches(msg, k.Global.CancelCall):
		return m.cancelFocused()
	case key.Matches(msg, k.Global.Roots):
		if !m.c.canSend() {
			// Offline there is no server to give roots to.
			m.note("warning", "offline: recorded session; there is no server to give roots to")
			return nil
		}
		m.openRootsEditor()
	case key.Matches(msg, k.Global.SaveSession):
		return m.openKeepPrompt()
	case key.Matches(msg, k.Global.Sessions):
		return m.openSessionPicker()
	case key.Matches(msg, k.Global.Restart):
		return m.openRestartPrompt()
	case key.Matches(msg, k.Global.RestartFramed):
		return m.restartFramed()
	case key.Matches(msg, k.Global.RestartUnbuffered):
		return m.restartUnbuffered()
	case key.Matches(msg, k.Global.Ping):
		return m.startPing()
	case key.Matches(msg, k.Global.Reveal):
		m.toggleReveal()
	case key.Matches(msg, k.Global.Zoom, k.Global.SplitLess, k.Global.SplitMore):
		m.splitKey(msg)
	case key.Matches(msg, k.Global.Breakpoints, k.Global.Held):
		return m.breakpointKey(key.Matches(msg, k.Global.Breakpoints))
	}
	return nil
}

// startPing sends ping (legacy era) unless one is on its way.
func (m *model) startPing() tea.Cmd {
	switch {
	case !m.c.canSend() || m.state().Init == nil:
		m.note("warning", "ping: not connected")
	case m.state().Era() == mcpclient.EraModern:
		m.note("warning", "ping does not exist in the modern era (MCP 2026-07-28 removed it)")
	case !m.state().Ping.Waiting:
		m.state().Ping.Waiting = true
		return ping(m.ctx, m.sender())
	}
	return nil
}

// toolNamed finds a listed tool by name.
func (m *model) toolNamed(name string) *mcpclient.Tool {
	for i := range m.tools.tools {
		if m.tools.tools[i].Name == name {
			return &m.tools.tools[i]
		}
	}
	return nil
}
