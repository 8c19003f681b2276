package ui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"
)

// dialogQuit answers q in front of a server-request dialog (issues 15 and 26). The server
// waits for the answer, often in the middle of one of our calls, so q asks first in every
// such dialog: the first q shows what quitting leaves unanswered, a second q quits, any
// other key takes the question back. In an elicitation form whose values were filled in
// but not sent, the form's own warning is that question. ok is false when q belongs to the
// dialog: the sampling reply and a form's text field type it. The unanswered request ends
// with the session.
func (m *model) dialogQuit(d requestDialog, msg tea.KeyPressMsg) (tea.Cmd, bool) {
	b := d.base()
	// By its keys, not key.Matches: the binding is off while a pane's input under the
	// dialog has the focus, yet the dialog is what has the keys now.
	if !slices.Contains(m.c.keys.Global.Quit.Keys(), msg.String()) {
		b.quitAsked, b.quitText = false, ""
		return nil, false
	}
	switch d := d.(type) {
	case *samplingDialog:
		return nil, false
	case *elicitFormDialog:
		p := d.form.pane
		if !p.keysFree() {
			b.quitAsked, b.quitText = false, ""
			return nil, false
		}
		warned := p.quitArmed
		if !p.quitKey() {
			return nil, true // the form's flash says q again quits
		}
		b.quitAsked = b.quitAsked || warned
	}
	if !b.quitAsked {
		b.quitAsked, b.quitText = true, m.quitQuestion(b)
		return nil, true
	}
	m.quitting = true
	return tea.Quit, true
}

// quitQuestion is what a first q in front of the request dialog b says: what quitting
// leaves unanswered (the request, and our own calls and requests in flight).
func (m *model) quitQuestion(b *requestBase) string {
	q := fmt.Sprintf("quit? the server waits for this %s answer", clean(b.req.Method))
	if n := m.call.runningCount() + m.sess.Inflight().Running(); n == 1 {
		q += " and 1 call of ours is in flight"
	} else if n > 1 {
		q += fmt.Sprintf(" and %d calls of ours are in flight", n)
	}
	return q + ": q again quits (the server gets an error) · any other key stays"
}
