package check_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// httpRuleIDs are the Streamable HTTP transport rules.
var httpRuleIDs = []string{"http-origin", "http-host", "http-session-unknown", "http-session-id", "http-notification-202", "http-get-405", "http-protocol-version", "http-headers"}

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
	wantRuleEach(t, rep, "http-notification-202", P, []string{"POST /mcp notifications/cancelled → 202 Accepted"}, []string{"POST /mcp a response (id mcp-inspect-check-no-such-request, a request never sent) → 202 Accepted"})
	wantRule(t, rep, "http-get-405", P, "GET /mcp, Accept: text/event-stream, in a session of its own → 405 Method Not Allowed, Allow: POST, DELETE")
	wantRule(t, rep, "http-protocol-version", P, "POST /mcp ping, MCP-Protocol-Version: 1999-01-01 → 400 Bad Request")
	wantRule(t, rep, "http-headers", check.StatusNA, "legacy era")
	if n := rep.Result("http-session-id").Notes; rep.Result("http-session-id").Status != P || len(n) != 1 || !strings.Contains(n[0].Text, `Mcp-Session-Id "g1" (2 characters, visible ASCII)`) {
		t.Errorf("http-session-id: %+v", rep.Result("http-session-id"))
	}
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
			wantRuleEach(t, rep, "http-notification-202", F,
				[]string{"notifications/cancelled → 200 OK (application/json, 11 bytes)", "an accepted notification MUST get 202 Accepted with no body"},
				[]string{"a response (id mcp-inspect-check-no-such-request, a request never sent) → 200 OK (application/json, 11 bytes)", "an accepted response MUST get 202 Accepted with no body"})
			wantRule(t, rep, "http-protocol-version", F, "MCP-Protocol-Version: 1999-01-01 → 200 OK", "served; an invalid or unsupported MCP-Protocol-Version MUST get 400 Bad Request")
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
	wantRuleEach(t, rep, "http-notification-202", check.StatusPass, []string{"notifications/cancelled → 202 Accepted"}, []string{"a response (id mcp-inspect-check-no-such-request, a request never sent) → 202 Accepted"})
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

// modernRuleIDs are the rules of the 2026-07-28 revision's stateless requests (issue 25).
var modernRuleIDs = []string{"version-future", "cache-hints", "resource-not-found", "meta-required", "ping", "unknown-method", "http-protocol-version", "http-headers"}

// TestModernRulesStrict: a stateless 2026-07-28 server that refuses each malformed request
// with the status and code the revision names, and gives caching hints, passes every rule.
func TestModernRulesStrict(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, "http-modern")
	opt.Server.Era = mcpclient.EraModern
	rep, err := check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range rep.Results {
		if len(res.Findings) > 0 {
			t.Errorf("%s: %s %+v", res.ID, res.Status, res.Findings)
		}
	}
	P := check.StatusPass
	wantRule(t, rep, "version-future", P, "server/discover for 2099-01-01 [MCP-Protocol-Version: 2099-01-01, Mcp-Method: server/discover]: 400 Bad Request", `error -32022 "Unsupported protocol version"`)
	wantRule(t, rep, "ping", P, "ping, which the 2026-07-28 era removed [MCP-Protocol-Version: 2026-07-28, Mcp-Method: ping]: 404 Not Found", "error -32601")
	wantRule(t, rep, "unknown-method", P, "mcp-inspect/no-such-method [MCP-Protocol-Version: 2026-07-28, Mcp-Method: mcp-inspect/no-such-method]: 404 Not Found", "error -32601")
	wantRule(t, rep, "http-protocol-version", P, "400 Bad Request", "error -32022")
	// No response is POSTed in 2026-07-28 (no server-to-client requests over HTTP): the
	// notification alone is judged.
	wantRuleEach(t, rep, "http-notification-202", P, []string{"notifications/mcp-inspect-check"})
	for id, n := range map[string]int{"meta-required": 4, "http-headers": 5} {
		if res := rep.Result(id); res.Status != P || len(res.Notes) != n {
			t.Errorf("%s: %s, %d notes, want %d: %+v", id, res.Status, len(res.Notes), n, res.Notes)
		}
	}
	if n := rep.Result("cache-hints").Notes; len(n) != 1 || !strings.Contains(n[0].Text, "ttlMs and cacheScope on server/discover, tools/list, resources/list, resources/templates/list, prompts/list, resources/read") {
		t.Errorf("cache-hints: %+v", rep.Result("cache-hints"))
	}
	if n := rep.Result("resource-not-found").Notes; len(n) != 1 || !strings.Contains(n[0].Text, `error -32602 "Resource not found"`) {
		t.Errorf("resource-not-found: %+v", rep.Result("resource-not-found"))
	}
}

// TestModernRulesLax: a 2026-07-28 server that serves malformed requests, gives no caching
// hints and answers an unknown resource with empty contents breaks each rule, at its level.
func TestModernRulesLax(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, "http-modern-lax")
	opt.Server.Era = mcpclient.EraModern
	rep, err := check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	F := check.StatusFail
	wantRule(t, rep, "version-future", F, "server/discover for 2099-01-01 [MCP-Protocol-Version: 2099-01-01, Mcp-Method: server/discover]: 200 OK", "it MUST be refused with -32022 (HTTP 400 Bad Request)")
	wantRule(t, rep, "ping", F, "200 OK", `error -32601 "Method not found"; the HTTP status MUST be 404 Not Found`)
	wantRule(t, rep, "unknown-method", F, "200 OK", "the HTTP status MUST be 404 Not Found")
	wantRule(t, rep, "http-protocol-version", F, "MCP-Protocol-Version: 2099-01-01", "200 OK", "it MUST be refused with -32022")
	for id, texts := range map[string][]string{ // the first text counts the findings
		"meta-required": {"3", "no _meta [MCP-Protocol-Version: 2026-07-28, Mcp-Method: server/discover]: 200 OK", "without protocolVersion [", "without clientCapabilities [", "it MUST be refused with -32602 (HTTP 400 Bad Request)"},
		"http-headers":  {"5", "without Mcp-Method [MCP-Protocol-Version: 2026-07-28]: 200 OK", "with Mcp-Method: tools/list [MCP-Protocol-Version: 2026-07-28, Mcp-Method: tools/list]: 200 OK", "_meta protocolVersion v999.0.0 under MCP-Protocol-Version 2026-07-28", "without Mcp-Name [", "Mcp-Name: other]", "it MUST be refused with -32020 (HTTP 400 Bad Request)"},
		"cache-hints":   {"6", "server/discover result: ttlMs is missing; cacheScope is missing", "tools/list result", "resources/read result"},
	} {
		res := rep.Result(id)
		if res.Status != F || strconv.Itoa(len(res.Findings)) != texts[0] {
			t.Errorf("%s: %s %+v, want %s findings", id, res.Status, res.Findings, texts[0])
			continue
		}
		all := ""
		for _, f := range res.Findings {
			all += f.Text + "\n"
		}
		for _, s := range texts[1:] {
			if !strings.Contains(all, s) {
				t.Errorf("%s: findings do not say %q:\n%s", id, s, all)
			}
		}
	}
	if res := rep.Result("resource-not-found"); res.Status != check.StatusWarn || len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Text, "answered a result with no contents; a resource that does not exist gets error -32602") {
		t.Errorf("resource-not-found: %+v", res)
	}
	// The legacy-era rules are not applicable, with the era named.
	wantRule(t, rep, "http-session-id", check.StatusNA, "2026-07-28 era has no sessions")
}

// TestModernRulesLegacyEra: in the legacy era the 2026-07-28 request rules are not
// applicable and say why; resource-not-found expects -32002 there.
func TestModernRulesLegacyEra(t *testing.T) {
	t.Parallel()
	rep, err := check.Run(context.Background(), fakeOptions(t, "http-guarded"))
	if err != nil {
		t.Fatal(err)
	}
	wantRule(t, rep, "meta-required", check.StatusNA, "legacy era")
	wantRule(t, rep, "cache-hints", check.StatusNA, "legacy era")
	wantRule(t, rep, "http-headers", check.StatusNA, "legacy era")
	for _, id := range modernRuleIDs {
		if !check.KnownRule(id) {
			t.Errorf("%s: not a rule", id)
		}
	}
}

// wantRuleEach asserts rule id's status and that its findings (or, for a pass, its notes)
// are one per item, in order, each holding that item's texts.
func wantRuleEach(t *testing.T, rep *check.Report, id string, status check.Status, items ...[]string) {
	t.Helper()
	res := rep.Result(id)
	if res.Status != status {
		t.Errorf("%s: %s, want %s; findings %+v notes %+v reason %q", id, res.Status, status, res.Findings, res.Notes, res.Reason)
		return
	}
	var texts []string
	if status == check.StatusPass {
		for _, n := range res.Notes {
			texts = append(texts, n.Text)
		}
	} else {
		for _, f := range res.Findings {
			texts = append(texts, f.Text)
		}
	}
	if len(texts) != len(items) {
		t.Errorf("%s: %d notes or findings %q, want %d", id, len(texts), texts, len(items))
		return
	}
	for i, want := range items {
		for _, s := range want {
			if !strings.Contains(texts[i], s) {
				t.Errorf("%s: %q does not say %q", id, texts[i], s)
			}
		}
	}
}
