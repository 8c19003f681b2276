package ui

import (
	"errors"
	"fmt"
	"net/http"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// expiredPrompt offers a new session after the server answered 404 to the session id, or
// said otherwise that it forgot it (MCP 2025-11-25 basic/transports §Session Management:
// the client MUST start a new session with a new initialize).
type expiredPrompt struct {
	c   *common
	err *mcpclient.SessionExpiredError
	// resend names the tool call sent again once the new session is up ("" for none).
	resend string
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

// checkExpired opens the session-expired prompt when msg carries a *SessionExpiredError and
// the prompt is not open already. A tool call that failed so is kept to be sent again once,
// after the new handshake (not a call that was itself such a second try).
func (m *model) checkExpired(msg tea.Msg) {
	var se *mcpclient.SessionExpiredError
	if err := errOf(msg); err == nil || !errors.As(err, &se) {
		return
	}
	m.state().Expired = se.SessionID
	if done, ok := msg.(callDoneMsg); ok {
		if r := m.call.byID(done.id); r != nil && !r.resent && m.call.resend == nil {
			m.call.resend = r
		}
	}
	for _, d := range m.overlay.stack {
		if _, ok := d.(*expiredPrompt); ok {
			return
		}
	}
	p := &expiredPrompt{c: m.c, err: se}
	if r := m.call.resend; r != nil {
		p.resend = r.tool
	}
	m.overlay.push(p)
}

// resendAfterReinit sends the tool call a dropped session failed once more, in the new
// session, and says so; nil when there is none.
func (m *model) resendAfterReinit() tea.Cmd {
	r := m.call.resend
	m.call.resend = nil
	if r == nil || m.sender() == nil {
		return nil
	}
	cmd := m.call.start(m.ctx, m.sender(), r.tool, r.args, m.now(), m.taskRequired(r.tool))
	m.call.run.resent = true
	m.note("info", "tools/call "+clean(r.tool)+" sent again, once, in the new session (the first try failed: the session was dropped)")
	return cmd
}

// handleKey: enter initializes a new session on the same client and lists again; esc
// leaves the expired session closed.
func (p *expiredPrompt) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	switch {
	case key.Matches(msg, p.c.keys.Dialog.Confirm):
		return reinitAct{}, nil
	case key.Matches(msg, p.c.keys.Dialog.Dismiss):
		return closeAct{"warning", "session " + clean(p.err.SessionID) + " expired and stays closed; requests will fail"}, nil
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

// view draws the prompt over the body; the id and what the server said are its text,
// escaped.
func (p *expiredPrompt) view() string {
	st := p.c.st
	what := "session expired (HTTP 404 on session " + clean(p.err.SessionID) + ")"
	if s := p.err.Status; s != 0 && s != 404 {
		what = fmt.Sprintf("the server seems to have dropped session %s: it answered %d %s (%q); MCP says 404",
			clean(p.err.SessionID), s, http.StatusText(s), clean(p.err.Said))
	}
	enter := "enter: initialize a new session"
	if p.resend != "" {
		enter += " and send tools/call " + clean(p.resend) + " again (once)"
	}
	return st.Title.Render("session expired") + "\n\n" + what + "\n\n" +
		st.Muted.Render(enter+" · esc: keep this one closed")
}
