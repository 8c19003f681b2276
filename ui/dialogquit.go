package ui

import (
	"slices"

	tea "charm.land/bubbletea/v2"
)

// dialogQuit answers q in front of a server-request dialog as q does elsewhere (issue 15):
// where no text input has the key, q quits; when an answer was filled in but not sent (the
// elicitation form's edited values) the first q says so and a second q quits, as in a tool
// form. ok is false when q belongs to the dialog: the sampling reply and a form's text field
// type it. The unanswered request ends with the session.
func (m *model) dialogQuit(d requestDialog, msg tea.KeyPressMsg) (tea.Cmd, bool) {
	// By its keys, not key.Matches: the binding is off while a pane's input under the
	// dialog has the focus, yet the dialog is what has the keys now.
	if !slices.Contains(m.c.keys.Global.Quit.Keys(), msg.String()) {
		return nil, false
	}
	switch d := d.(type) {
	case *samplingDialog:
		return nil, false
	case *elicitFormDialog:
		p := d.form.pane
		if !p.keysFree() {
			return nil, false
		}
		if !p.quitKey() {
			return nil, true // the form's flash says q again quits
		}
	}
	m.quitting = true
	return tea.Quit, true
}
