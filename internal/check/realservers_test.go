package check_test

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// realOutcome asserts which rules a real server fails and warns on, exactly: each
// deviation is the server's (docs/check.md "Real servers" cites the spec for each), so a
// new one, or one gone, shows here.
func realOutcome(t *testing.T, rep *check.Report, fails, warns []string) {
	t.Helper()
	var out bytes.Buffer
	rep.Human(&out, func(s string) string { return s })
	t.Logf("report:\n%s", out.String())
	got := map[check.Status][]string{}
	for _, res := range rep.Results {
		got[res.Status] = append(got[res.Status], res.ID)
	}
	if !slices.Equal(got[check.StatusFail], fails) {
		t.Errorf("MUST failures %v, want %v", got[check.StatusFail], fails)
	}
	if !slices.Equal(got[check.StatusWarn], warns) {
		t.Errorf("SHOULD warnings %v, want %v", got[check.StatusWarn], warns)
	}
	for _, res := range rep.Results {
		if res.Status == check.StatusNA && res.Reason == "not reached" {
			t.Errorf("%s: not reached", res.ID)
		}
	}
}

// TestServerEverything: the TypeScript reference server on stdio breaks no MUST rule. It
// answers an unknown tool with an isError result and a line that is not JSON with nothing
// (both SHOULD-level; see docs/check.md).
func TestServerEverything(t *testing.T) {
	t.Parallel()
	argv := testservers.ServerEverything(t)
	rep, err := check.Run(context.Background(), check.Options{
		Server: mcpclient.Config{Command: argv[0], Args: append(argv[1:], "stdio")},
		Target: "server-everything",
	})
	if err != nil {
		t.Fatal(err)
	}
	realOutcome(t, rep, nil, []string{"unknown-tool", "parse-error"})
	for _, id := range []string{"list-pages", "tool-schemas", "uri-templates", "resources-read", "completion", "logging", "shutdown", "string-id", "id-zero"} {
		if s := rep.Result(id).Status; s != check.StatusPass {
			t.Errorf("%s: %s, want pass (server-everything has what it checks)", id, s)
		}
	}
}

// TestServerEverythingHTTP: the TypeScript reference server over Streamable HTTP breaks
// the transport rules http-origin and http-session-unknown (MUST) and http-host (SHOULD);
// an unknown tool is an isError result there too. (Its 400 with id null to the
// session-less server/discover probe is a refusal, which discover takes as "not offered".)
func TestServerEverythingHTTP(t *testing.T) {
	t.Parallel()
	srv := testservers.ServerEverythingHTTP(t)
	rep, err := check.Run(context.Background(), check.Options{
		Server: mcpclient.Config{URL: srv.URL, Transport: mcpclient.TransportHTTP},
		Target: srv.URL,
	})
	if err != nil {
		t.Fatal(err)
	}
	realOutcome(t, rep, []string{"http-origin", "http-session-unknown"}, []string{"unknown-tool", "http-host"})
	if s := rep.Result("discover").Status; s != check.StatusNA {
		t.Errorf("discover: %s, want n/a (a legacy-only server)", s)
	}
	// No DNS rebinding protection: a hostile Origin and Host are served (200, an SSE
	// stream); a session it never issued gets the TypeScript SDK's 400, not 404; it offers
	// a GET stream.
	wantRule(t, rep, "http-origin", check.StatusFail, "Origin: http://evil.example → 200 OK (text/event-stream)")
	wantRule(t, rep, "http-host", check.StatusWarn, "Host: evil.example:", "→ 200 OK (text/event-stream)")
	wantRule(t, rep, "http-session-unknown", check.StatusFail, "→ 400 Bad Request")
	wantRuleEach(t, rep, "http-notification-202", check.StatusPass, []string{"notifications/cancelled → 202 Accepted"}, []string{"a response (id mcp-inspect-check-no-such-request, a request never sent) → 202 Accepted"})
	wantRule(t, rep, "http-get-405", check.StatusPass, "in a session of its own → 200 OK (text/event-stream)", "offers a GET stream")
}

// TestGoEverythingHTTP: the go-sdk everything-server over Streamable HTTP (stateless: both
// eras) breaks two MUST rules: unknown-method (it answers an unknown method with HTTP 400 and
// a text/plain body instead of a JSON-RPC -32601) and http-origin (a foreign Origin is
// served); docs/check.md cites the spec. Its
// test_input_required_result_prompt needs elicitation and answers prompts/get with an error.
func TestGoEverythingHTTP(t *testing.T) {
	t.Parallel()
	srv := testservers.GoEverythingHTTP(t, true)
	rep, err := check.Run(context.Background(), check.Options{
		Server: mcpclient.Config{URL: srv.URL, Transport: mcpclient.TransportHTTP},
		Target: srv.URL,
	})
	if err != nil {
		t.Fatal(err)
	}
	realOutcome(t, rep, []string{"unknown-method", "http-origin"}, []string{"prompts-get"})
	// It refuses a foreign Host (403) but serves a foreign Origin (200, an SSE stream); it
	// is stateless, so has no session to forge; a GET gets 405 with Allow.
	wantRule(t, rep, "http-origin", check.StatusFail, "Origin: http://evil.example → 200 OK (text/event-stream)")
	wantRule(t, rep, "http-host", check.StatusPass, "Host: evil.example:", "→ 403 Forbidden")
	wantRule(t, rep, "http-session-unknown", check.StatusNA, "stateless")
	wantRuleEach(t, rep, "http-notification-202", check.StatusPass, []string{"notifications/cancelled → 202 Accepted"}, []string{"a response (id mcp-inspect-check-no-such-request, a request never sent) → 202 Accepted"})
	wantRule(t, rep, "http-get-405", check.StatusPass, "GET /mcp, Accept: text/event-stream → 405 Method Not Allowed", "Allow: POST")
	// The finding names the probe's method once, as "request id N (METHOD): POST …", not
	// again before it (the server's own 400 body may quote it).
	for _, f := range rep.Result("unknown-method").Findings {
		if !strings.HasPrefix(f.Text, "request id ") || strings.Contains(f.Text, "no-such-method: request id") {
			t.Errorf("unknown-method: %q", f.Text)
		}
	}
	// A URL's server was running before the check: the time is the request's, not a start's.
	if n := rep.Result("init-responds").Notes; len(n) != 1 || !strings.Contains(n[0].Text, "after the initialize request was sent") || strings.Contains(n[0].Text, "started") {
		t.Errorf("init-responds over HTTP: %+v", n)
	}
	if s := rep.Result("discover").Status; s != check.StatusPass {
		t.Errorf("discover: %s, want pass (the stateless server speaks 2026-07-28)", s)
	}
	stdio := map[string]bool{}
	for _, r := range check.Rules() {
		if r.StdioOnly {
			stdio[r.ID] = true
		}
	}
	for id := range maps.Keys(stdio) {
		if s := rep.Result(id).Status; s != check.StatusNA {
			t.Errorf("%s (a stdio rule): %s over HTTP", id, s)
		}
	}
}

// TestGoEverythingModern: the go-sdk everything-server (stateless) checked in the 2026-07-28
// era. That revision removed ping: the ping rule expects it refused (-32601) and the
// liveness probes use server/discover, so the server is not failed for a method it must
// not have (issue 25).
func TestGoEverythingModern(t *testing.T) {
	t.Parallel()
	srv := testservers.GoEverythingHTTP(t, true)
	rep, err := check.Run(context.Background(), check.Options{
		Server: mcpclient.Config{URL: srv.URL, Transport: mcpclient.TransportHTTP, Era: mcpclient.EraModern},
		Target: srv.URL,
	})
	if err != nil {
		t.Fatal(err)
	}
	// No MUST failure of the removed ping (its unknown method, refused with HTTP 400 in the
	// legacy run, gets -32601 here); http-origin as in the legacy run (a foreign Origin is
	// served). Its input_required prompt asks for an elicitation the check does not declare:
	// a warning, worded as the server's.
	realOutcome(t, rep, []string{"http-origin"}, []string{"prompts-get"})
	if f := rep.Result("prompts-get").Findings; len(f) != 1 || !strings.Contains(f[0].Text, "asked the client for input (input_required) though the check declares no client capabilities") {
		t.Errorf("prompts-get: %+v", f)
	}
	if n := rep.Result("ping").Notes; len(n) != 1 || !strings.Contains(n[0].Text, "which the 2026-07-28 era removed") {
		t.Errorf("ping: %+v", rep.Result("ping"))
	}
	if n := rep.Result("final-ping").Notes; len(n) != 1 || !strings.Contains(n[0].Text, "server/discover answered") {
		t.Errorf("final-ping: %+v", rep.Result("final-ping"))
	}
}
