package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/session"
)

// The actions a pane asks of the root, as the act of its handleKey: a pane owns its state
// and reaches nothing else; the root carries the action out at once (perform), in the same
// Update, so a test sees its effect as soon as the key is handled. Pane-specific actions
// (toolAction, resourceAction, promptAction, logAction, taskAction) sit with their panes.
type (
	// cancelAct cancels what the focused pane has in flight (ctrl+x): an op, a task call
	// (tasks/cancel), or the tool call.
	cancelAct struct{}
	// refreshAct lists l again at the user's request, clearing its storm guard.
	refreshAct struct{ list session.List }
	// stepPageAct asks for the next page of l (cursor pagination stepped by hand).
	stepPageAct struct{ list session.List }
	// focusAct focuses a pane.
	focusAct struct{ pane paneID }
	// helpAct shows the help page; quitAct quits.
	helpAct struct{}
	quitAct struct{}
	// submitAct sends the Call pane's form: tools/call of tool with its arguments.
	submitAct struct {
		tool *formPane
		sub  *submit
	}
	// editAct opens the form of the shown call's tool with its arguments.
	editAct struct{ tool string }
	// readLinkAct reads the resource_link the read key targets in the shown result.
	readLinkAct struct{}
)

// perform carries out what a pane's key asked for (its handleKey's act; nil for nothing).
func (m *model) perform(act tea.Msg) tea.Cmd {
	switch a := act.(type) {
	case nil:
		return nil
	case cancelAct:
		return m.cancelFocused()
	case refreshAct:
		return m.refresh(a.list)
	case stepPageAct:
		return m.stepPage(a.list)
	case focusAct:
		m.focus = a.pane
	case helpAct:
		m.help.shown = true
	case quitAct:
		m.quitting = true
		return tea.Quit
	case submitAct:
		return m.submitCall(a.tool, a.sub)
	case editAct:
		if t := m.toolNamed(a.tool); t != nil {
			return m.call.open(*t)
		}
	case readLinkAct:
		return m.readLink()
	case toolAction:
		return m.toolAction(a)
	case resourceAction:
		if m.notConnected() {
			m.note("warning", notConnectedNote)
			return nil
		}
		return m.resourceAction(&a)
	case promptAction:
		if m.notConnected() {
			m.note("warning", notConnectedNote)
			return nil
		}
		return m.promptAction(&a)
	case logAction:
		if m.c.canSend() {
			return setLogLevel(m.ctx, m.sender(), a.setLevel)
		}
	case taskAction:
		return m.taskAction(&a)
	}
	return nil
}

// toolAction carries out what a key of the Tools pane asked for: a call by name, or the
// selected tool's form.
func (m *model) toolAction(a toolAction) tea.Cmd {
	switch {
	case a.call != nil:
		return m.startCallByName(a.call)
	case a.open:
		if tl := m.tools.selected(); tl != nil {
			m.focus = paneCall
			return m.call.openTool(*tl)
		}
	}
	return nil
}

// submitCall sends the Call pane's form f (submitted as sub): refused offline and before
// the handshake (the form keeps its values), else tools/call, checked against the tool's
// outputSchema, and the arguments kept in the history.
func (m *model) submitCall(f *formPane, sub *submit) tea.Cmd {
	switch {
	case !m.c.canSend():
		f.errs = []string{"offline: recorded session; there is no server to call"}
		return nil
	case m.notConnected():
		// The form stays open with its values: send again once connected.
		f.errs, f.unsent = []string{notConnectedNote}, true
		return nil
	}
	tool := f.tool
	start := m.call.start(m.ctx, m.sender(), tool.Name, sub.args, m.now(), m.taskRequired(tool.Name))
	// The call view marks arguments sent despite problems; the result is checked against
	// the tool's outputSchema.
	m.call.run.invalid, m.call.run.outSchema = sub.problems, m.checkedOutputSchema(tool.OutputSchema)
	return tea.Batch(start, m.c.hist.record(tool.Name, sub.args, m.now()))
}
