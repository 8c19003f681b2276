package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// httpAuthSession is an HTTP exchange carrying credentials: a bearer token, an API key, a
// session cookie set by the server and an OAuth token response.
func httpAuthSession() []mcpclient.Event {
	req := "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:9\r\nAuthorization: Bearer tok-SECRET-1234\r\nX-Api-Key: key-SECRET-5678\r\nContent-Length: 2\r\n\r\n{}"
	head := "HTTP/1.1 200 OK\r\nSet-Cookie: sid=cookie-SECRET-9\r\nMcp-Session-Id: sess-visible\r\n\r\n"
	body := `{"access_token":"at-SECRET-abc","token_type":"Bearer"}`
	e := func(seq uint64, dir mcpclient.Direction, kind mcpclient.Kind, raw string) mcpclient.Event {
		ev := ev(seq, dir, raw)
		ev.Kind, ev.Msg, ev.Problems = kind, nil, nil
		return ev
	}
	return []mcpclient.Event{
		e(1, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, req),
		e(2, mcpclient.HTTPIn, mcpclient.KindHTTPResponse, head),
		e(3, mcpclient.HTTPIn, mcpclient.KindHTTPBody, body),
	}
}

// TestWireMasksHTTPCredentials: the live wire pane shows an HTTP exchange with credential
// values masked as a trace has them (rows and detail), and as sent with ShowCredentials
// (--no-redact).
func TestWireMasksHTTPCredentials(t *testing.T) {
	secrets := []string{"tok-SECRET-1234", "key-SECRET-5678", "cookie-SECRET-9", "at-SECRET-abc"}
	screens := func(m *model) string {
		drive(t, m, eventsMsg{events: httpAuthSession()})
		keys(t, m, "3", "g")
		var all []string
		for range 3 {
			all = append(all, view(m))
			keys(t, m, "j")
		}
		return strings.Join(all, "\n")
	}
	out := screens(newTestModel(t, nil, 200, 40))
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("the wire pane shows %q:\n%s", s, out)
		}
	}
	for _, want := range []string{"Authorization: Bearer ***", "X-Api-Key: ***", "Set-Cookie: ***", `"access_token":"***"`, "sess-visible", "credentials masked as in traces"} {
		if !strings.Contains(out, want) {
			t.Errorf("the wire pane lacks %q:\n%s", want, out)
		}
	}

	m := newModel(Options{Tick: fakeTick, Theme: "plain", ShowCredentials: true})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	out = screens(m)
	for _, s := range secrets {
		if !strings.Contains(out, s) {
			t.Errorf("with ShowCredentials the wire pane lacks %q:\n%s", s, out)
		}
	}
}
