package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// dialog is a modal drawn over the body. The front dialog of the overlay owns every key but
// ctrl+c, and its input gets the component messages (cursor blinks). A dialog owns its
// state and reads the session through its common host; what it needs of the root (close
// it, answer a request, restart) it asks for as an action, carried out by performDialog.
type dialog interface {
	// handleKey handles a key; act is what the root must do now (nil for nothing).
	handleKey(msg tea.KeyPressMsg) (act tea.Msg, cmd tea.Cmd)
	// view draws the dialog in the body rectangle (given by setSize); it only reads.
	view() string
	// setSize gives the dialog the body rectangle's size (after every resize).
	setSize(w, h int)
	// focus gives the dialog's input the cursor (when it comes to the front).
	focus() tea.Cmd
	// updateInput passes a component message (a cursor blink) to the dialog's input; ok is
	// false when the dialog has no input now (the message goes to what is under it).
	updateInput(msg tea.Msg) (cmd tea.Cmd, ok bool)
	// bindings are the keys the dialog answers to, for help.
	bindings(k *keyMap) []key.Binding
}

// requestDialog is a dialog answering a server→client request (sampling, elicitation in
// form or URL mode, roots): one type per kind, sharing requestBase.
type requestDialog interface {
	dialog
	base() *requestBase
	// answer handles a key: out is set when the user answered (or asked to edit roots).
	answer(msg tea.KeyPressMsg, roots []mcpclient.Root) (out *dialogOutcome, cmd tea.Cmd)
	title() string
	requestLines(roots []mcpclient.Root, w int) []string
	inputLines(avail, body int) []string
	keyLine() string
}

// overlay holds the dialogs: the ones the user opened (save-as, restart, the roots
// editor) stacked over the queue of server requests, whose oldest is in front of the
// queue. front is the one shown and given the keys.
type overlay struct {
	// stack are the dialogs the user opened, front last.
	stack []dialog
	// requests are the server requests waiting for the user, oldest (shown) first.
	requests []requestDialog
}

// front is the dialog shown over the body (nil when none).
func (o *overlay) front() dialog {
	if n := len(o.stack); n > 0 {
		return o.stack[n-1]
	}
	if len(o.requests) > 0 {
		return o.requests[0]
	}
	return nil
}

// push opens d over everything else.
func (o *overlay) push(d dialog) { o.stack = append(o.stack, d) }

// remove closes d, wherever it is.
func (o *overlay) remove(d dialog) {
	for i, x := range o.stack {
		if x == d {
			o.stack = append(o.stack[:i], o.stack[i+1:]...)
			return
		}
	}
	for i, x := range o.requests {
		if dialog(x) == d {
			o.requests = append(o.requests[:i], o.requests[i+1:]...)
			return
		}
	}
}

// all are the open dialogs, the stack first.
func (o *overlay) all() []dialog {
	out := append([]dialog(nil), o.stack...)
	for _, r := range o.requests {
		out = append(out, r)
	}
	return out
}

// openDialog is the open dialog of type T on the stack (the zero T when none).
func openDialog[T dialog](m *model) T {
	for _, d := range m.overlay.stack {
		if t, ok := d.(T); ok {
			return t
		}
	}
	var zero T
	return zero
}

// modalKey gives keys to the front dialog: while one is open it owns every key but ctrl+c.
// A server request's dialog first passes the root's guards: keys too soon after it
// appeared are ignored (dialogGuard), and q may ask to quit (dialogQuit).
func (m *model) modalKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	d := m.overlay.front()
	if d == nil {
		return false, nil
	}
	if rd, ok := d.(requestDialog); ok {
		b := rd.base()
		if m.dialogGuard > 0 && (b.shownAt.IsZero() || m.now().Sub(b.shownAt) < m.dialogGuard) {
			return true, nil
		}
		if cmd, ok := m.dialogQuit(rd, msg); ok {
			return true, cmd
		}
	}
	act, cmd := d.handleKey(msg)
	return true, tea.Batch(cmd, m.performDialog(d, act))
}

// modalInput passes component messages (cursor blinks) to the input of the front dialog
// that has one; ok is false when none does.
func (m *model) modalInput(msg tea.Msg) (tea.Cmd, bool) {
	ds := m.overlay.all()
	for i := len(m.overlay.stack) - 1; i >= 0; i-- {
		if cmd, ok := ds[i].updateInput(msg); ok {
			return cmd, true
		}
	}
	if len(m.overlay.requests) > 0 {
		return m.overlay.requests[0].updateInput(msg)
	}
	return nil, false
}

// modalView is the front dialog, drawn over the body ("" when none).
func (m *model) modalView() string {
	if d := m.overlay.front(); d != nil {
		return d.view()
	}
	return ""
}

// modalHelp lists the keys of the front dialog (nil when none is open).
func (m *model) modalHelp() []key.Binding {
	if d := m.overlay.front(); d != nil {
		return d.bindings(&m.c.keys)
	}
	return nil
}

// Actions a dialog asks of the root (its handleKey's act), carried out by performDialog.
type (
	// closeAct takes the dialog off the overlay; a note, when set, says what it left.
	closeAct struct{ level, note string }
	// answerAct answers the dialog's server request as out says (or opens the roots editor).
	answerAct struct{ out *dialogOutcome }
	// rootsChangedAct tells a legacy server the roots changed.
	rootsChangedAct struct{}
	// restartAct quits to restart the server with argv.
	restartAct struct{ argv []string }
	// reinitAct initializes a new session after the old one expired.
	reinitAct struct{}
	// saveAct saves the session recorded so far under name.
	saveAct struct{ name string }
)

// performDialog carries out what dialog d's key asked for.
func (m *model) performDialog(d dialog, act tea.Msg) tea.Cmd {
	switch a := act.(type) {
	case closeAct:
		m.overlay.remove(d)
		if _, ok := d.(*sessionPicker); ok && m.kept.only {
			m.quitting = true
			return tea.Quit // the picker was the whole TUI
		}
		if _, ok := d.(*expiredPrompt); ok {
			m.call.resend = nil // the session stays closed: nothing is sent again
		}
		if a.note != "" {
			m.note(a.level, a.note)
		}
		if f := m.overlay.front(); f != nil {
			return f.focus()
		}
	case answerAct:
		rd, _ := d.(requestDialog)
		return m.answerRequest(rd, a.out)
	case rootsChangedAct:
		return m.rootsChanged()
	case restartAct:
		m.overlay.remove(d)
		m.restart.asked, m.quitting = a.argv, true
		return tea.Quit
	case reinitAct:
		m.overlay.remove(d)
		return m.reinitialize()
	case saveAct:
		return m.saveSession(a.name)
	case openSessionAct:
		m.overlay.remove(d)
		m.kept.open, m.quitting = a.path, true
		return tea.Quit
	default:
		cmd, _ := m.holdActs(d, act)
		return cmd
	}
	return nil
}

// answerRequest sends the answer the user gave to the request of dialog d, closes it and
// shows the next; out may ask for the roots editor instead.
func (m *model) answerRequest(d requestDialog, out *dialogOutcome) tea.Cmd {
	if d == nil || out == nil {
		return nil
	}
	if out.editRoots {
		ed := m.openRootsEditor()
		return ed.input.Focus()
	}
	m.overlay.remove(d)
	cmds := []tea.Cmd{answer(d.base().req, out.result, out.err, out.what)}
	if f := m.overlay.front(); f != nil {
		cmds = append(cmds, f.focus())
	}
	return tea.Batch(cmds...)
}

// handleKey of a request dialog: the answer, if the key gave one.
func (d *requestBase) handleWith(rd requestDialog, msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	out, cmd := rd.answer(msg, d.c.session.Roots().List)
	if out == nil {
		return nil, cmd
	}
	return answerAct{out}, cmd
}

func (d *samplingDialog) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	return d.handleWith(d, msg)
}
func (d *elicitFormDialog) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	return d.handleWith(d, msg)
}
func (d *elicitURLDialog) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	return d.handleWith(d, msg)
}
func (d *rootsDialog) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	return d.handleWith(d, msg)
}

func (d *samplingDialog) view() string {
	return requestView(d, d.c.session.Roots().List, d.waiting)
}
func (d *elicitFormDialog) view() string {
	return requestView(d, d.c.session.Roots().List, d.waiting)
}
func (d *elicitURLDialog) view() string {
	return requestView(d, d.c.session.Roots().List, d.waiting)
}
func (d *rootsDialog) view() string {
	return requestView(d, d.c.session.Roots().List, d.waiting)
}

// The roots editor as a dialog.

// openRootsEditor opens the roots editor over everything.
func (m *model) openRootsEditor() *rootsEditor {
	ed := newRootsEditor(m.c)
	ed.setSize(m.lay.body.w, m.lay.body.h)
	m.overlay.push(ed)
	return ed
}

func (e *rootsEditor) setSize(w, h int) {
	e.w, e.h = w, h
	e.input.SetWidth(max(w-10, 10))
}
func (e *rootsEditor) focus() tea.Cmd {
	if e.adding {
		return e.input.Focus()
	}
	return nil
}

func (e *rootsEditor) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	if !e.adding {
		return nil, false
	}
	var cmd tea.Cmd
	e.input, cmd = e.input.Update(msg)
	return cmd, true
}

func (e *rootsEditor) bindings(k *keyMap) []key.Binding {
	return k.offered("rootsEditor")
}

func (e *rootsEditor) view() string {
	roots := e.c.session.Roots()
	return e.render(roots.List, e.c.session.State().Era() == mcpclient.EraLegacy, roots.Notes)
}

// handleKey edits the session's roots: adds are resolved in a Cmd, a removal is sent at once.
func (e *rootsEditor) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	roots := e.c.session.Roots()
	ed, cmd := e.edit(msg, len(roots.List))
	if ed == nil {
		return nil, cmd
	}
	switch {
	case ed.close:
		return closeAct{}, nil
	case ed.add != "":
		return nil, resolveRoots([]string{ed.add}, false)
	case roots.Remove(ed.remove):
		e.sel = min(e.sel, max(len(roots.List)-1, 0))
		return rootsChangedAct{}, nil
	}
	return nil, cmd
}
