package ui

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/session"
)

// pane is the contract of a tab: the root sizes, draws and routes keys to the focused one
// through it, so adding a tab is a type and an entry in model.panes. A pane reaches the root
// (the session, the other panes) only in handleKey and view, through its *model.
type pane interface {
	// title is the tab's name in the header ("Tools").
	title() string
	// setSize gives the pane the body rectangle (after every resize).
	setSize(r rect)
	// view draws the pane in its rectangle; it only reads state. now is the model's clock.
	view(now time.Time) string
	// handleKey handles a key the overlay and the focused input left; handled is false when
	// the key is not the pane's (the global keys then get it).
	handleKey(msg tea.KeyPressMsg) (handled bool, cmd tea.Cmd)
	// inputFocused reports whether a text input of the pane has focus: typed keys are text
	// there (q, the digits), and it gets every key first.
	inputFocused() bool
	// updateInput passes a component message (a cursor blink) to the pane's focused input;
	// ok is false when the pane has none.
	updateInput(msg tea.Msg) (cmd tea.Cmd, ok bool)
	// bindings are the keys the pane offers now, for help.
	bindings() []key.Binding
}

// actor is the inner key shape of the panes with actions (tools, resources, prompts,
// logs, tasks): handled, what the root must do now (nil for nothing: a typed action the
// tab carries out synchronously, so tests see its effect after Update), and a command.
// Panes without actions (wire, call, server) return (handled, cmd) directly.
type actor[A any] interface {
	handleKey(msg tea.KeyPressMsg) (handled bool, act *A, cmd tea.Cmd)
}

var (
	_ actor[toolAction]     = (*toolsPane)(nil)
	_ actor[resourceAction] = (*resourcesPane)(nil)
	_ actor[promptAction]   = (*promptsPane)(nil)
	_ actor[logAction]      = (*logsPane)(nil)
	_ actor[taskAction]     = (*tasksPane)(nil)
)

// syncer is a pane with state its view reads that an update brings in line (a scroll
// that follows the cursor, a drawn detail kept per selection): the root's sync calls it
// on the focused pane after every update, so view only reads.
type syncer interface {
	sync()
}

// opCanceler is a pane with ops of its own (a read, a prompt get): ctrl+x cancels its
// running op before anything else (the root's cancelFocused asks it, never the focus).
type opCanceler interface {
	runningOp() *session.Op
}

// cancelFirst gives ctrl+x to the root before the pane: it cancels what the focused pane
// has in flight (an op, a task, the tool call), even while a filter or a form has focus.
func cancelFirst(m *model, msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if key.Matches(msg, m.c.keys.Global.CancelCall) {
		return true, m.cancelFocused()
	}
	return false, nil
}

// updateArgsForm passes msg to the focused field of an argument form, if one is open.
func updateArgsForm(f *argsForm, msg tea.Msg) (tea.Cmd, bool) {
	if f == nil || f.cur >= len(f.fields) {
		return nil, false
	}
	fl := f.fields[f.cur]
	var cmd tea.Cmd
	fl.input, cmd = fl.input.Update(msg)
	return cmd, true
}

// syncArgsForm sizes an open argument form to the detail rectangle det and keeps its
// focused field in view.
func syncArgsForm(f *argsForm, det rect) {
	if f == nil {
		return
	}
	f.setSize(det.w, det.h)
	f.sync()
}

// updateFilter passes msg to a list's filter input while it filters.
func updateFilter(l *itemList, msg tea.Msg) (tea.Cmd, bool) {
	if !l.filtering {
		return nil, false
	}
	var cmd tea.Cmd
	l.filter, cmd = l.filter.Update(msg)
	return cmd, true
}

// toolsTab is pane 1: the tool list, its detail and the call-by-name prompt.
type toolsTab struct{ m *model }

func (t toolsTab) title() string      { return "Tools" }
func (t toolsTab) setSize(r rect)     { t.m.tools.setSize(r) }
func (t toolsTab) inputFocused() bool { return t.m.tools.inputFocused() }

func (t toolsTab) view(time.Time) string {
	m := t.m
	if m.state().Failed() && len(m.tools.tools) == 0 {
		// Nothing to list: the panel gets the whole width.
		lines := append(m.deadPanel(m.lay.body.w), m.c.st.Muted.Render("3 Wire shows every byte exchanged; 4 Server the full stderr."))
		return strings.Join(lines, "\n")
	}
	return m.tools.view(t.banner())
}

// banner is what the detail shows above the tool: the dead-server panel, or the era probe.
func (t toolsTab) banner() []string {
	if t.m.state().Failed() {
		return t.m.deadPanel(t.m.tools.det.w)
	}
	return t.m.probeLines(t.m.tools.det.w)
}

func (t toolsTab) handleKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	m := t.m
	typing := m.tools.inputFocused()
	if !typing {
		clampDetail(&m.tools.detailOff, len(m.tools.detailLines(t.banner())), m.tools.det.h)
		if key.Matches(msg, m.c.keys.List.Refresh) && m.c.canSend() && m.state().Init != nil {
			return true, m.refresh(session.Tools)
		}
	}
	if ok, cmd := m.stepKey(msg, session.Tools, typing); ok {
		return true, cmd
	}
	handled, act, cmd := m.tools.handleKey(msg)
	return handled || typing, tea.Batch(cmd, t.act(act)) // typed keys are the input's
}

// act carries out what a key of the pane asked for.
func (t toolsTab) act(act *toolAction) tea.Cmd {
	m := t.m
	switch {
	case act == nil:
		return nil
	case act.call != nil:
		return m.startCallByName(act.call)
	case act.open:
		if tl := m.tools.selected(); tl != nil {
			m.focus = paneCall
			return m.call.openTool(*tl)
		}
	}
	return nil
}

func (t toolsTab) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	if cb := t.m.tools.callBy; cb != nil {
		var cmd tea.Cmd
		if cb.onArgs {
			cb.args, cmd = cb.args.Update(msg)
		} else {
			cb.name, cmd = cb.name.Update(msg)
		}
		return cmd, true
	}
	return updateFilter(t.m.tools.list, msg)
}

func (t toolsTab) bindings() []key.Binding {
	return t.m.c.keys.offered("tools")
}

// callTab is pane 2: the argument form, the calls and their results (or, recorded, the
// recorded calls of a tool).
type callTab struct{ m *model }

func (t callTab) title() string      { return "Call" }
func (t callTab) setSize(r rect)     { t.m.call.setSize(r) }
func (t callTab) inputFocused() bool { return t.m.call.inputFocused() }

func (t callTab) view(now time.Time) string {
	return t.m.call.view(now)
}

func (t callTab) handleKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	m := t.m
	if m.call.inputFocused() {
		return true, t.formKey(msg)
	}
	if ok, cmd := cancelFirst(m, msg); ok {
		return true, cmd
	}
	if key.Matches(msg, m.c.keys.Call.Edit) && m.call.run != nil {
		if t := m.toolNamed(m.call.run.tool); t != nil {
			return true, m.call.open(*t)
		}
	}
	if m.call.canRead && readLinkKey(msg, &m.c.keys) {
		// Also when the key is off (no link in the shown result): the read says why.
		return true, m.readLink()
	}
	return m.call.handleKey(msg)
}

// formKey handles a key of the open form: a form row that is not a text input leaves q and
// ? to the app; a submit starts the call.
func (t callTab) formKey(msg tea.KeyPressMsg) tea.Cmd {
	m := t.m
	k := &m.c.keys
	f := m.call.form
	if f.keysFree() {
		switch {
		case key.Matches(msg, k.Global.Help):
			m.help.shown = true
			return nil
		case key.Matches(msg, k.Global.Quit):
			if f.quitKey() {
				m.quitting = true
				return tea.Quit
			}
			return nil
		}
	}
	sub, closed, cmd := f.handleKey(msg)
	switch {
	case sub != nil && !m.c.canSend():
		f.errs = []string{"offline: recorded session; there is no server to call"}
		return cmd
	case sub != nil && m.notConnected():
		// The form stays open with its values: send again once connected.
		f.errs, f.unsent = []string{notConnectedNote}, true
		return cmd
	case sub != nil:
		tool := f.tool
		start := m.call.start(m.ctx, m.sender(), tool.Name, sub.args, m.now(), m.taskRequired(tool.Name))
		// The call view marks arguments sent despite problems; the result is checked
		// against the tool's outputSchema.
		m.call.run.invalid, m.call.run.outSchema = sub.problems, m.checkedOutputSchema(tool.OutputSchema)
		return tea.Batch(cmd, start, m.c.hist.record(tool.Name, sub.args, m.now()))
	case closed:
		m.call.form = nil
		if m.call.run == nil {
			m.focus = paneTools
		}
	}
	return cmd
}

func (t callTab) sync() {
	if f := t.m.call.form; f != nil {
		f.sync()
	}
}

func (t callTab) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	f := t.m.call.form
	if f == nil {
		return nil, false
	}
	var c1, c2 tea.Cmd
	f.input, c1 = f.input.Update(msg)
	f.raw, c2 = f.raw.Update(msg)
	return tea.Batch(c1, c2), true
}

func (t callTab) bindings() []key.Binding {
	k := &t.m.c.keys
	if t.m.call.form != nil {
		return k.offered("callform")
	}
	if t.m.call.pathRows() > 0 {
		return append(k.offered("json"), k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown, k.List.Top, k.List.Bottom)
	}
	return k.offered("call")
}

// wireTab is pane 3: every frame exchanged, and its detail.
type wireTab struct{ m *model }

func (t wireTab) title() string                                 { return "Wire" }
func (t wireTab) setSize(r rect)                                { t.m.wire.setSize(r) }
func (t wireTab) inputFocused() bool                            { return t.m.wire.find.mode != findNone }
func (t wireTab) updateInput(msg tea.Msg) (tea.Cmd, bool)       { return t.m.wire.updateInput(msg) }
func (t wireTab) view(time.Time) string                         { return t.m.wire.view() }
func (t wireTab) handleKey(msg tea.KeyPressMsg) (bool, tea.Cmd) { return t.m.wire.handleKey(msg) }

func (t wireTab) sync() { t.m.wire.sync() }

func (t wireTab) bindings() []key.Binding {
	k := &t.m.c.keys
	if t.m.wire.js.explore {
		out := append(k.offered("json"), k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown, k.List.Top, k.List.Bottom)
		// The pane's keys the JSON does not take still act (filter, jump, save): listed too.
		taken := map[string]bool{}
		for _, b := range out {
			for _, key := range b.Keys() {
				taken[key] = true
			}
		}
		for _, b := range k.offered("wire") {
			if !slices.ContainsFunc(b.Keys(), func(key string) bool { return taken[key] }) {
				out = append(out, b)
			}
		}
		return out
	}
	return k.offered("wire")
}

// resourcesTab is pane 5: resources and templates, reads, subscriptions.
type resourcesTab struct{ m *model }

func (t resourcesTab) title() string             { return "Resources" }
func (t resourcesTab) setSize(r rect)            { t.m.resources.setSize(r) }
func (t resourcesTab) inputFocused() bool        { return t.m.resources.inputFocused() }
func (t resourcesTab) view(now time.Time) string { return t.m.resources.view(now) }

func (t resourcesTab) handleKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	m := t.m
	if ok, cmd := cancelFirst(m, msg); ok {
		return true, cmd
	}
	if p := m.resources; p.form == nil {
		clampDetail(&p.detailOff, len(p.detailLines(m.now())), p.det.h)
	}
	if ok, cmd := m.stepKey(msg, session.Resources, m.resources.inputFocused()); ok {
		return true, cmd
	}
	handled, act, cmd := m.resources.handleKey(msg)
	if handled && act != nil && m.notConnected() {
		m.note("warning", notConnectedNote)
		return true, cmd
	}
	if handled {
		return true, tea.Batch(cmd, m.resourceAction(act))
	}
	return false, nil
}

func (t resourcesTab) sync() { syncArgsForm(t.m.resources.form, t.m.resources.det) }

func (t resourcesTab) runningOp() *session.Op { return t.m.resources.runningOp() }

func (t resourcesTab) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	p := t.m.resources
	if s := p.save; s != nil {
		var cmd tea.Cmd
		s.input, cmd = s.input.Update(msg)
		return cmd, true
	}
	if cmd, ok := updateFilter(p.list, msg); ok {
		return cmd, true
	}
	return updateArgsForm(p.form, msg)
}

func (t resourcesTab) bindings() []key.Binding {
	k := &t.m.c.keys
	if t.m.resources.form != nil {
		return k.offered("argsform")
	}
	return k.offered("resources")
}

// promptsTab is pane 6: prompts, their argument forms and results.
type promptsTab struct{ m *model }

func (t promptsTab) title() string             { return "Prompts" }
func (t promptsTab) setSize(r rect)            { t.m.prompts.setSize(r) }
func (t promptsTab) inputFocused() bool        { return t.m.prompts.inputFocused() }
func (t promptsTab) view(now time.Time) string { return t.m.prompts.view(now) }

func (t promptsTab) handleKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	m := t.m
	if ok, cmd := cancelFirst(m, msg); ok {
		return true, cmd
	}
	if p := m.prompts; p.form == nil {
		clampDetail(&p.detailOff, len(p.detailLines(m.now())), p.det.h)
	}
	if ok, cmd := m.stepKey(msg, session.Prompts, m.prompts.inputFocused()); ok {
		return true, cmd
	}
	handled, act, cmd := m.prompts.handleKey(msg)
	if handled && act != nil && m.notConnected() {
		m.note("warning", notConnectedNote)
		return true, cmd
	}
	if handled {
		return true, tea.Batch(cmd, m.promptAction(act))
	}
	return false, nil
}

func (t promptsTab) sync() { syncArgsForm(t.m.prompts.form, t.m.prompts.det) }

func (t promptsTab) runningOp() *session.Op { return t.m.prompts.runningOp() }

func (t promptsTab) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	if cmd, ok := updateFilter(t.m.prompts.list, msg); ok {
		return cmd, true
	}
	return updateArgsForm(t.m.prompts.form, msg)
}

func (t promptsTab) bindings() []key.Binding {
	k := &t.m.c.keys
	if t.m.prompts.form != nil {
		return k.offered("argsform")
	}
	return k.offered("prompts")
}

// logsTab is pane 7: log messages, notices and the client's own notes.
type logsTab struct{ m *model }

func (t logsTab) title() string                       { return "Logs" }
func (t logsTab) setSize(r rect)                      { t.m.logs.setSize(r) }
func (t logsTab) inputFocused() bool                  { return t.m.logs.inputFocused() }
func (t logsTab) updateInput(tea.Msg) (tea.Cmd, bool) { return nil, false }

func (t logsTab) view(now time.Time) string {
	base := now
	if t.m.tl.len() > 0 {
		base = t.m.tl.base
	}
	return t.m.logs.view(base)
}

func (t logsTab) handleKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	m := t.m
	if ok, cmd := cancelFirst(m, msg); ok {
		return true, cmd
	}
	handled, act, cmd := m.logs.handleKey(msg)
	if act != nil && m.c.canSend() {
		return true, tea.Batch(cmd, setLogLevel(m.ctx, m.sender(), act.setLevel))
	}
	return handled, cmd
}

func (t logsTab) bindings() []key.Binding {
	return t.m.c.keys.offered("logs")
}

// tasksTab is pane 8: the tasks seen, followed or listed.
type tasksTab struct{ m *model }

func (t tasksTab) title() string                       { return "Tasks" }
func (t tasksTab) setSize(r rect)                      { t.m.tasks.setSize(r) }
func (t tasksTab) inputFocused() bool                  { return t.m.tasks.inputFocused() }
func (t tasksTab) updateInput(tea.Msg) (tea.Cmd, bool) { return nil, false }
func (t tasksTab) view(now time.Time) string           { return t.m.tasks.view(now) }

func (t tasksTab) handleKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	m := t.m
	if ok, cmd := cancelFirst(m, msg); ok {
		return true, cmd
	}
	clampDetail(&m.tasks.detailOff, len(m.tasks.detailLines(m.now())), m.tasks.det.h)
	handled, act, cmd := m.tasks.handleKey(msg)
	if handled {
		return true, tea.Batch(cmd, m.taskAction(act))
	}
	return false, nil
}

func (t tasksTab) bindings() []key.Binding {
	return t.m.c.keys.offered("tasks")
}

// readLinkKey matches the ReadLink keys even while the binding is off (no link in the
// shown result, so help hides it): pressed then, the read says why there is nothing.
func readLinkKey(msg tea.KeyPressMsg, k *keyMap) bool {
	return key.Matches(msg, key.NewBinding(key.WithKeys(k.Call.ReadLink.Keys()...)))
}
