package ui

import (
	"errors"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// expiredPrompt offers a new session after the server answered 404 to the session id
// (MCP 2025-11-25 basic/transports §Session Management: the client MUST start a new
// session with a new initialize).
type expiredPrompt struct {
	c  *common
	id string
}

// errOf is the error a request's answer carries, nil when none (or not a request's answer).
func errOf(msg tea.Msg) error {
	switch msg := msg.(type) {
	case toolsListedMsg:
		return msg.Err
	case resourcesListedMsg:
		return msg.Err
	case promptsListedMsg:
		return msg.Err
	case callDoneMsg:
		return msg.err
	case resourceReadMsg:
		return msg.err
	case promptGotMsg:
		return msg.err
	case pingMsg:
		return msg.err
	case logLevelMsg:
		return msg.err
	}
	return nil
}

// checkExpired opens the session-expired prompt when err is a *SessionExpiredError and the
// prompt is not open already.
func (m *model) checkExpired(err error) {
	var se *mcpclient.SessionExpiredError
	if err == nil || !errors.As(err, &se) {
		return
	}
	m.state().Expired = se.SessionID
	for _, d := range m.overlay.stack {
		if _, ok := d.(*expiredPrompt); ok {
			return
		}
	}
	m.overlay.push(&expiredPrompt{c: m.c, id: se.SessionID})
}

// handleKey: enter initializes a new session on the same client and lists again; esc
// leaves the expired session closed.
func (p *expiredPrompt) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	switch {
	case key.Matches(msg, p.c.keys.Dialog.Confirm):
		return reinitAct{}, nil
	case key.Matches(msg, p.c.keys.Dialog.Dismiss):
		return closeAct{"warning", "session " + clean(p.id) + " expired and stays closed; requests will fail"}, nil
	}
	return nil, nil
}

// reinitialize runs the handshake again: the client then has a new session id; Update
// follows with the listings as after the first handshake.
func (m *model) reinitialize() tea.Cmd {
	if m.sender() == nil {
		return nil
	}
	m.state().Init, m.state().InitErr = nil, nil
	m.tools.status = "initializing a new session…"
	m.note("info", "session "+clean(m.state().Expired)+" expired: initializing a new session")
	return handshake(m.ctx, m.sender())
}

func (p *expiredPrompt) setSize(int, int)                    {}
func (p *expiredPrompt) focus() tea.Cmd                      { return nil }
func (p *expiredPrompt) updateInput(tea.Msg) (tea.Cmd, bool) { return nil, true }
func (p *expiredPrompt) bindings(k *keyMap) []key.Binding    { return k.offered("line") }

// view draws the prompt over the body; the id is the server's text, escaped.
func (p *expiredPrompt) view() string {
	st := p.c.st
	return st.Title.Render("session expired") + "\n\n" +
		"session expired (HTTP 404 on session " + clean(p.id) + ")\n\n" +
		st.Muted.Render("enter: initialize a new session · esc: keep this one closed")
}
