package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/session"
)

// pane is the contract of a tab: the root sizes, draws and routes keys to the focused one
// through it, so adding a tab is a type and an entry in model.panes. A pane owns its state
// and reads the session through its common host (c.session); what it needs of the root it
// asks for as an action (paneacts.go), as a crush dialog returns a tea.Msg.
type pane interface {
	// title is the tab's name in the header ("Tools").
	title() string
	// setSize gives the pane the body rectangle (after every resize).
	setSize(r rect)
	// view draws the pane in its rectangle; it only reads state. now is the model's clock.
	view(now time.Time) string
	// handleKey handles a key the overlay left; handled is false when the key is not the
	// pane's (the global keys then get it); act is what the root must do now (nil for
	// nothing; the root's perform carries it out in the same Update).
	handleKey(msg tea.KeyPressMsg) (handled bool, act tea.Msg, cmd tea.Cmd)
	// inputFocused reports whether a text input of the pane has focus: typed keys are text
	// there (q, the digits), and it gets every key first.
	inputFocused() bool
	// updateInput passes a component message (a cursor blink) to the pane's focused input;
	// ok is false when the pane has none.
	updateInput(msg tea.Msg) (cmd tea.Cmd, ok bool)
	// bindings are the keys the pane offers now, for help.
	bindings() []key.Binding
}

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

// cancelKey reports whether msg is ctrl+x, which goes to the root before the pane: it
// cancels what the focused pane has in flight (an op, a task, the tool call), even while
// a filter or a form has focus.
func cancelKey(c *common, msg tea.KeyPressMsg) bool {
	return key.Matches(msg, c.keys.Global.CancelCall)
}

// stepKey reports whether msg steps to the next page of a listing (n, when the server
// paginates and nothing is typed).
func stepKey(c *common, msg tea.KeyPressMsg, typing bool) bool {
	return !typing && c.keys.List.NextPage.Enabled() && key.Matches(msg, c.keys.List.NextPage)
}

// updateArgsForm passes msg (a cursor blink) to an argument form's inputs, if one is open.
func updateArgsForm(f *formPane, msg tea.Msg) (tea.Cmd, bool) {
	if f == nil {
		return nil, false
	}
	var c1, c2 tea.Cmd
	f.input, c1 = f.input.Update(msg)
	f.raw, c2 = f.raw.Update(msg)
	return tea.Batch(c1, c2), true
}

// syncArgsForm sizes an open argument form to the detail rectangle det and keeps its
// focused field in view.
func syncArgsForm(f *formPane, det rect) {
	if f == nil {
		return
	}
	f.setSize(det.w, det.h)
	f.sync()
}

// updateFilter passes msg to a list's filter input while it filters.
func updateFilter(l *itemList, msg tea.Msg) (tea.Cmd, bool) {
	var cmd tea.Cmd
	switch {
	case l.filtering:
		l.filter, cmd = l.filter.Update(msg)
	case l.find.typing:
		l.find.in, cmd = l.find.in.Update(msg)
	default:
		return nil, false
	}
	return cmd, true
}

// readLinkKey matches the ReadLink keys even while the binding is off (no link in the
// shown result, so help hides it): pressed then, the read says why there is nothing.
func readLinkKey(msg tea.KeyPressMsg, k *keyMap) bool {
	return key.Matches(msg, key.NewBinding(key.WithKeys(k.Call.ReadLink.Keys()...)))
}
