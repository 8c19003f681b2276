package ui

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// authRefused is an authorization layer's failure (mcpclient.AuthFailure).
type authRefused struct{}

func (authRefused) Error() string { return "OAuth authorization failed: access_denied" }
func (authRefused) AuthFailure()  {}

func authNote(text string) eventsMsg {
	return eventsMsg{events: []mcpclient.Event{{Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: &mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: text}}}}
}

// While the handshake waits on an OAuth authorization, the status line and the Tools
// pane's waiting text show the URL to open (escaped); a failed authorization says so.
func TestAuthorizationURLShownWhileWaiting(t *testing.T) {
	m := newTestModel(t, greetSession(), 200, 30)
	u := "http://127.0.0.1:9/authorize?state=x\x1b[31m"
	drive(t, m, authNote(mcpclient.AuthorizeNote+"http://srv/mcp"+mcpclient.AuthorizeNoteURL+u), waitTickMsg{})
	want := "authorize in your browser: http://127.0.0.1:9/authorize?state=x"
	if s := m.statusBar(); !strings.Contains(s, want) || strings.Contains(s, "\x1b[31m") || !strings.Contains(s, "opened with $BROWSER") {
		t.Errorf("status bar: %q", s)
	}
	if !strings.Contains(m.tools.status, want) || !strings.Contains(m.tools.status, "waiting for the handshake") {
		t.Errorf("tools wait text: %q", m.tools.status)
	}
	drive(t, m, authNote(mcpclient.NoBrowserNote+" (no display and no $BROWSER); open the URL above by hand"), waitTickMsg{})
	if !strings.Contains(m.statusBar(), "printed: no browser could be opened") {
		t.Errorf("no browser: %q", m.statusBar())
	}
	drive(t, m, initializedMsg{err: &mcpclient.ConnectError{Method: "POST", URL: "http://srv/mcp", Err: authRefused{}}})
	if strings.Contains(m.statusBar(), "authorize in your browser") {
		t.Errorf("the URL outlived the failed handshake: %q", m.statusBar())
	}
	mustContain(t, "failed authorization", view(m), "authorization failed", "access_denied")
}
