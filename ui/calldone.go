package ui

// callDone finishes a tool call; a failed or cancelled modern call closes its input
// dialogs.
func (m *model) callDone(msg callDoneMsg) {
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
