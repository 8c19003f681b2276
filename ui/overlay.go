package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// dialog is a modal drawn over the body. The front dialog of the overlay owns every key but
// ctrl+c, and its input gets the component messages (cursor blinks).
type dialog interface {
	// handleKey handles a key; the dialog takes itself off the overlay when it closes.
	handleKey(m *model, msg tea.KeyPressMsg) tea.Cmd
	// view draws the dialog in the body rectangle (given by setSize).
	view(m *model) string
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
func (m *model) modalKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if d := m.overlay.front(); d != nil {
		return true, d.handleKey(m, msg)
	}
	return false, nil
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
		return d.view(m)
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

// requestKey gives a key to a server-request dialog in front; an answer closes it and
// shows the next. Keys come too soon after it appeared are ignored (dialogGuard).
func (m *model) requestKey(d requestDialog, msg tea.KeyPressMsg) tea.Cmd {
	b := d.base()
	if m.dialogGuard > 0 && (b.shownAt.IsZero() || m.now().Sub(b.shownAt) < m.dialogGuard) {
		return nil
	}
	if cmd, ok := m.dialogQuit(d, msg); ok {
		return cmd
	}
	out, cmd := d.answer(msg, m.sess.Roots().List)
	if out == nil {
		return cmd
	}
	if out.editRoots {
		ed := m.openRootsEditor()
		return tea.Batch(cmd, ed.input.Focus())
	}
	m.overlay.remove(d)
	cmds := []tea.Cmd{cmd, answer(b.req, out.result, out.err, out.what)}
	if f := m.overlay.front(); f != nil {
		cmds = append(cmds, f.focus())
	}
	return tea.Batch(cmds...)
}

func (d *samplingDialog) handleKey(m *model, msg tea.KeyPressMsg) tea.Cmd {
	return m.requestKey(d, msg)
}
func (d *elicitFormDialog) handleKey(m *model, msg tea.KeyPressMsg) tea.Cmd {
	return m.requestKey(d, msg)
}
func (d *elicitURLDialog) handleKey(m *model, msg tea.KeyPressMsg) tea.Cmd {
	return m.requestKey(d, msg)
}
func (d *rootsDialog) handleKey(m *model, msg tea.KeyPressMsg) tea.Cmd { return m.requestKey(d, msg) }

func (d *samplingDialog) view(m *model) string {
	return requestView(d, m.sess.Roots().List, len(m.overlay.requests)-1)
}
func (d *elicitFormDialog) view(m *model) string {
	return requestView(d, m.sess.Roots().List, len(m.overlay.requests)-1)
}
func (d *elicitURLDialog) view(m *model) string {
	return requestView(d, m.sess.Roots().List, len(m.overlay.requests)-1)
}
func (d *rootsDialog) view(m *model) string {
	return requestView(d, m.sess.Roots().List, len(m.overlay.requests)-1)
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

func (e *rootsEditor) view(m *model) string {
	return e.render(m.sess.Roots().List, m.state().Era() == mcpclient.EraLegacy, m.sess.Roots().Notes)
}

// handleKey edits the roots: adds are resolved in a Cmd, removals sent at once.
func (e *rootsEditor) handleKey(m *model, msg tea.KeyPressMsg) tea.Cmd {
	ed, cmd := e.edit(msg, len(m.sess.Roots().List))
	if ed == nil {
		return cmd
	}
	switch {
	case ed.close:
		m.overlay.remove(e)
		if f := m.overlay.front(); f != nil {
			return f.focus()
		}
	case ed.add != "":
		return resolveRoots([]string{ed.add}, false)
	case m.sess.Roots().Remove(ed.remove):
		e.sel = min(e.sel, max(len(m.sess.Roots().List)-1, 0))
		return m.rootsChanged()
	}
	return cmd
}
