package check_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// httpRuleIDs are the Streamable HTTP transport rules.
var httpRuleIDs = []string{"http-origin", "http-host", "http-session-unknown", "http-notification-202", "http-get-405"}

// wantRule asserts rule id's status and that its one finding (or, for a pass, its one note)
// holds each of texts; a finding or note cites events of the http-probes session.
func wantRule(t *testing.T, rep *check.Report, id string, status check.Status, texts ...string) {
	t.Helper()
	res := rep.Result(id)
	if res.Status != status {
		t.Errorf("%s: %s, want %s; findings %+v notes %+v reason %q", id, res.Status, status, res.Findings, res.Notes, res.Reason)
		return
	}
	var text string
	var evs []check.Event
	switch {
	case status == check.StatusNA || status == check.StatusSkip:
		text = res.Reason
	case status == check.StatusPass && len(res.Notes) == 1:
		text, evs = res.Notes[0].Text, res.Notes[0].Events
	case status != check.StatusPass && len(res.Findings) == 1:
		text, evs = res.Findings[0].Text, res.Findings[0].Events
	default:
		t.Errorf("%s: want one note or finding: %+v %+v", id, res.Findings, res.Notes)
		return
	}
	for _, s := range texts {
		if !strings.Contains(text, s) {
			t.Errorf("%s: %q does not say %q", id, text, s)
		}
	}
	if status == check.StatusNA || status == check.StatusSkip {
		return
	}
	if len(evs) < 2 || evs[0].Session != check.SessionHTTP || evs[0].Seq == 0 {
		t.Errorf("%s: events %+v, want the probe's request and answer in %s", id, evs, check.SessionHTTP)
	}
}

// TestHTTPRulesGuarded: a server that validates Origin and Host, answers an unknown session
// 404, a notification 202 and a GET 405 with Allow passes every http rule, and the whole
// check with no failure or warning.
func TestHTTPRulesGuarded(t *testing.T) {
	t.Parallel()
	rep, err := check.Run(context.Background(), fakeOptions(t, "http-guarded"))
	if err != nil {
		t.Fatal(err)
	}
	P := check.StatusPass
	wantRule(t, rep, "http-origin", P, "POST /mcp initialize, Origin: http://evil.example → 403 Forbidden", "refused")
	wantRule(t, rep, "http-host", P, "POST /mcp initialize, Host: evil.example:", "→ 403 Forbidden", "refused")
	wantRule(t, rep, "http-session-unknown", P, "POST /mcp ping, Mcp-Session-Id: mcp-inspect-check-no-such-session → 404 Not Found")
	wantRule(t, rep, "http-notification-202", P, "POST /mcp notifications/cancelled → 202 Accepted")
	wantRule(t, rep, "http-get-405", P, "GET /mcp, Accept: text/event-stream, in a session of its own → 405 Method Not Allowed, Allow: POST, DELETE")
	if rep.Counts.Fail+rep.Counts.Warn != 0 {
		for _, res := range rep.Results {
			if len(res.Findings) > 0 {
				t.Errorf("%s: %s %+v", res.ID, res.Status, res.Findings)
			}
		}
	}
	found := false
	for _, s := range rep.Sessions {
		found = found || s.Name == check.SessionHTTP && s.Events >= 13 && s.Purpose != ""
	}
	if !found {
		t.Errorf("sessions %+v: no %s session with the probes' events", rep.Sessions, check.SessionHTTP)
	}
}

// TestHTTPRulesLax: a server that accepts any Origin and Host, answers an unknown session
// 400, a notification 200 with a body, and a GET 405 without Allow (http-lax) or 200 JSON
// (http-lax-get) breaks each http rule, at its level.
func TestHTTPRulesLax(t *testing.T) {
	t.Parallel()
	F, W := check.StatusFail, check.StatusWarn
	for _, sc := range []string{"http-lax", "http-lax-get"} {
		t.Run(sc, func(t *testing.T) {
			t.Parallel()
			rep, err := check.Run(context.Background(), fakeOptions(t, sc))
			if err != nil {
				t.Fatal(err)
			}
			wantRule(t, rep, "http-origin", F, "Origin: http://evil.example → 200 OK", "accepted; an invalid Origin MUST get 403 Forbidden")
			wantRule(t, rep, "http-host", W, "Host: evil.example:", "→ 200 OK", "should refuse a Host that is not its own")
			wantRule(t, rep, "http-session-unknown", F, "Mcp-Session-Id: mcp-inspect-check-no-such-session → 400 Bad Request", "MUST get 404 Not Found")
			wantRule(t, rep, "http-notification-202", F, "notifications/cancelled → 200 OK (application/json, 11 bytes)", "MUST get 202 Accepted with no body")
			if sc == "http-lax" {
				wantRule(t, rep, "http-get-405", W, "GET /mcp, Accept: text/event-stream, in a session of its own → 405 Method Not Allowed without an Allow header")
			} else {
				wantRule(t, rep, "http-get-405", F, "→ 200 OK (application/json", "a GET MUST get text/event-stream or 405")
			}
			if rep.Result("http-origin").Level != check.Must || rep.Result("http-host").Level != check.Should {
				t.Errorf("levels: http-origin %s, http-host %s", rep.Result("http-origin").Level, rep.Result("http-host").Level)
			}
		})
	}
}

// TestHTTPRulesNotApplicable: a stateless server has no session to forge; a stdio server
// has none of the http rules; --skip takes their ids.
func TestHTTPRulesNotApplicable(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, "http-minimal")
	opt.Skip = map[string]string{"http-host": "behind a proxy"}
	rep, err := check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	wantRule(t, rep, "http-session-unknown", check.StatusNA, "stateless", "no Mcp-Session-Id")
	wantRule(t, rep, "http-host", check.StatusSkip, "behind a proxy")
	wantRule(t, rep, "http-get-405", check.StatusPass, "→ 405 Method Not Allowed, Allow: POST")
	wantRule(t, rep, "http-notification-202", check.StatusPass, "→ 202 Accepted")
	stdio, err := check.Run(context.Background(), fakeOptions(t, "minimal"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range httpRuleIDs {
		wantRule(t, stdio, id, check.StatusNA, "a Streamable HTTP rule; the server is on stdio")
		if !check.KnownRule(id) || !rep.Result(id).RemoteOnly {
			t.Errorf("%s: known %v, RemoteOnly %v", id, check.KnownRule(id), rep.Result(id).RemoteOnly)
		}
	}
	for _, s := range stdio.Sessions {
		if s.Name == check.SessionHTTP {
			t.Errorf("a stdio check opened the %s session", check.SessionHTTP)
		}
	}
}

// TestHTTPRulesRecorded: with Options.Record the probes' exchanges are recorded as a
// session of their own: the request as sent (with the run's -H headers) and the answer.
func TestHTTPRulesRecorded(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, "http-guarded")
	opt.Server.Header = map[string][]string{"X-Check": {"yes"}}
	var mu sync.Mutex
	var got []mcpclient.Event
	opt.Record = func(name string, cfg *mcpclient.Config) (string, func()) {
		if name != check.SessionHTTP {
			return "", nil
		}
		cfg.OnEvent = func(ev mcpclient.Event) { mu.Lock(); got = append(got, ev); mu.Unlock() }
		return "probes.jsonl", nil
	}
	rep, err := check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) < 13 || got[0].Seq != 1 || got[0].Dir != mcpclient.HTTPOut || got[0].Kind != mcpclient.KindHTTPRequest ||
		!strings.Contains(string(got[0].Raw), "Origin: http://evil.example\r\n") || !strings.Contains(string(got[0].Raw), "X-Check: yes\r\n") ||
		got[1].Kind != mcpclient.KindHTTPResponse || !strings.HasPrefix(string(got[1].Raw), "HTTP/1.1 403 Forbidden\r\n") {
		t.Fatalf("recorded %d events: %+v", len(got), got)
	}
	if evs := rep.Result("http-origin").Notes[0].Events; evs[0].Trace != "probes.jsonl" {
		t.Errorf("http-origin events %+v, want the trace named", evs)
	}
}
