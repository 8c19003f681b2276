package trace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// B25's secrets.
const (
	b25Token    = "ghp_FAKE_TOKEN_FOR_TESTS_0000"
	b25Password = "hunter2-fake"
	b25URL      = "https://user:pw-fake@example.invalid/"
)

func TestRedactorRules(t *testing.T) {
	t.Parallel()
	r := mustRedactor(t, trace.RedactConfig{
		Env: []string{"GITHUB_PERSONAL_ACCESS_TOKEN=" + b25Token, "DEMO_PASSWORD=" + b25Password, "DEMO_URL=" + b25URL, "DEBUG=1", `QUOTED=a"b\c-long`},
		Inherited: []string{
			"PATH=/usr/bin:/bin", "HOME=/home/me", "MY_API_KEY=inherited-key-123", "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuv",
			"SLACK_AUTH=xoxb-1234567890-abcdef", "KEYBOARD_LAYOUT=dvorak-intl", "DATABASE_URL=postgres://app:db-pass-99@localhost/app", "GITHUB_PAT=pat-value-0001",
		},
		Argv:     []string{"/usr/bin/node", "server.js", "--token", "argv-secret-value", "--api-key=flag-secret-77", "--path", "/srv/data", "AbCdEf0123456789GhIjKlMn", "--url=https://bob:argv-pw-1@host/"},
		Patterns: []string{`internal-[0-9]+`},
	})
	in := strings.Join([]string{
		b25Token, b25Password, "pw-fake", "DEBUG=1", `a\"b\\c-long`, "inherited-key-123", "sk-proj-abcdefghijklmnopqrstuv", "xoxb-1234567890-abcdef",
		"db-pass-99", "pat-value-0001", "argv-secret-value", "flag-secret-77", "AbCdEf0123456789GhIjKlMn", "internal-4242",
		"ghs_otherTokenNotInEnv0123456789", "see http://someone:elsewhere-pw@x.test/", "/usr/bin:/bin", "dvorak-intl", "/srv/data",
	}, " | ")
	out, hits := r.Bytes([]byte(in))
	for _, secret := range []string{b25Token, b25Password, "pw-fake", `a\"b\\c-long`, "inherited-key-123", "sk-proj-abc", "xoxb-123", "db-pass-99", "pat-value-0001",
		"argv-secret-value", "flag-secret-77", "AbCdEf0123456789GhIjKlMn", "internal-4242", "ghs_other", "elsewhere-pw"} {
		if bytes.Contains(out, []byte(secret)) {
			t.Errorf("%q survived redaction:\n%s", secret, out)
		}
	}
	for _, keep := range []string{"DEBUG=1", "/usr/bin:/bin", "dvorak-intl", "/srv/data"} {
		if !bytes.Contains(out, []byte(keep)) {
			t.Errorf("%q was scrubbed but is not a secret:\n%s", keep, out)
		}
	}
	for _, name := range []string{"GITHUB_PERSONAL_ACCESS_TOKEN", "MY_API_KEY", "--redact #1", "token-format", "url-userinfo"} {
		found := false
		for _, h := range hits {
			found = found || h == name
		}
		if !found {
			t.Errorf("rule %q not reported among %v", name, hits)
		}
	}
	argv := r.Argv([]string{"/usr/bin/node", "server.js", "--token", "argv-secret-value", "--api-key=flag-secret-77", "--path", "/srv/data", "AbCdEf0123456789GhIjKlMn", "--url=https://bob:argv-pw-1@host/"})
	if got := strings.Join(argv, " "); got != "/usr/bin/node server.js --token *** --api-key=*** --path /srv/data *** --url=https://***@host/" {
		t.Errorf("argv: %s", got)
	}
	items, _ := json.Marshal(r.Items())
	if bytes.Contains(items, []byte("secret")) && bytes.Contains(items, []byte("argv-secret-value")) || bytes.Contains(items, []byte(`internal-[0-9]+`)) {
		t.Errorf("header items reveal a value or a pattern: %s", items)
	}
	if !bytes.Contains(items, []byte(`"name":"DEBUG","note":"masked in the header only`)) {
		t.Errorf("short value not noted: %s", items)
	}
	var nilR *trace.Redactor
	if b, h := nilR.Bytes([]byte(b25Token)); string(b) != b25Token || h != nil {
		t.Error("a nil Redactor changed bytes")
	}
}

func TestRedactBadPattern(t *testing.T) {
	t.Parallel()
	if _, err := trace.NewRedactor(trace.RedactConfig{Patterns: []string{"("}}); err == nil || !strings.Contains(err.Error(), "--redact") {
		t.Errorf("bad pattern: %v", err)
	}
}

// TestB25RecordedSecrets is case B25 at the recorder: the fake server echoes its token on
// stderr and in a tool result; none of B25's secrets reach the trace, the header lists the
// env keys with masked values and what was redacted, and the lines that were scrubbed say
// by which rule. With redaction off the token is there (the opt-out works).
func TestB25RecordedSecrets(t *testing.T) {
	t.Parallel()
	env := []string{"GITHUB_PERSONAL_ACCESS_TOKEN=" + b25Token, "DEMO_PASSWORD=" + b25Password, "DEMO_URL=" + b25URL}
	for _, fail := range []bool{false, true} {
		cfg := fakeConfig(t, "b25", env...)
		if fail {
			cfg.Args = []string{"--fail"}
		}
		red := mustRedactor(t, trace.RedactConfig{Env: cfg.Env, Argv: append([]string{cfg.Command}, cfg.Args...)})
		var leaked string
		s := record(t, cfg, red, func(ctx context.Context, c *mcpclient.Client) {
			if _, err := c.Initialize(ctx); err != nil {
				return
			}
			res, _, err := c.CallTool(ctx, "leak", nil)
			if err == nil && len(res.Content) > 0 {
				leaked = res.Content[0].Text
			}
		})
		data := readFile(t, s.path)
		for _, secret := range []string{b25Token, b25Password, "pw-fake"} {
			if bytes.Contains(data, []byte(secret)) {
				t.Errorf("fail=%v: %q is in the trace:\n%s", fail, secret, data)
			}
		}
		if !fail && leaked != b25Token {
			t.Fatalf("the fake server did not leak its token: %q", leaked)
		}
		tr := openTrace(t, s.path)
		h := tr.Header
		if strings.Join(h.Env, ",") != "FAKE_SCENARIO=***,GITHUB_PERSONAL_ACCESS_TOKEN=***,DEMO_PASSWORD=***,DEMO_URL=***" || !h.Redaction.Enabled {
			t.Errorf("header env %v, redaction %+v", h.Env, h.Redaction)
		}
		names := map[string]bool{}
		for _, it := range h.Redaction.Items {
			names[it.Name] = true
		}
		if !names["GITHUB_PERSONAL_ACCESS_TOKEN"] || !names["DEMO_PASSWORD"] || !names["DEMO_URL"] {
			t.Errorf("redaction items: %+v", h.Redaction.Items)
		}
		sawStderr := false
		for i := 0; i < tr.Len(); i++ {
			r, _ := tr.Record(i)
			if r.Dir == mcpclient.Stderr && strings.Contains(string(r.Raw), "using token ***") {
				sawStderr = true
				if len(r.Redacted) == 0 || r.Redacted[0] != "GITHUB_PERSONAL_ACCESS_TOKEN" {
					t.Errorf("stderr line does not say what scrubbed it: %v", r.Redacted)
				}
			}
		}
		if !sawStderr {
			t.Errorf("fail=%v: no scrubbed stderr line in the trace:\n%s", fail, data)
		}
	}
	// --no-redact: the opt-out keeps the token.
	s := record(t, fakeConfig(t, "b25", env...), nil, func(ctx context.Context, c *mcpclient.Client) {
		c.Initialize(ctx)
		c.CallTool(ctx, "leak", nil)
	})
	data := readFile(t, s.path)
	if !bytes.Contains(data, []byte(b25Token)) || !bytes.Contains(data, []byte(`"redaction":{"enabled":false}`)) {
		t.Errorf("without redaction the trace should keep the token and say so:\n%s", data)
	}
}

// TestRedactingLogHandler: messages, string attributes, errors, groups and WithAttrs values
// are scrubbed before they reach the log.
func TestRedactingLogHandler(t *testing.T) {
	t.Parallel()
	r := mustRedactor(t, trace.RedactConfig{Env: []string{"GITHUB_PERSONAL_ACCESS_TOKEN=" + b25Token}})
	var buf bytes.Buffer
	log := slog.New(r.Handler(slog.NewTextHandler(&buf, nil)))
	log = log.With("cfg", []string{"TOKEN=" + b25Token})
	log.Error("server said "+b25Token, "err", errors.New("exited; last stderr: using token "+b25Token), "n", 3,
		slog.Group("g", slog.String("s", b25Token)))
	if strings.Contains(buf.String(), b25Token) || !strings.Contains(buf.String(), "n=3") || strings.Count(buf.String(), "***") != 4 {
		t.Errorf("log line: %s", buf.String())
	}
	var nilR *trace.Redactor
	h := slog.NewTextHandler(&buf, nil)
	if nilR.Handler(h) != h {
		t.Error("a nil Redactor wrapped the handler")
	}
}

// Credentials in a URL's query (issue 26): the values of secret-named parameters are masked
// in the argv, in the stream raw and %-decoded, and other parameters are kept.
func TestRedactorURLQuery(t *testing.T) {
	t.Parallel()
	const key, tok = "query-key-0001", "tok/with+plus=="
	u := "https://mcp.example.test/mcp?page=2&api_key=" + key + "&access_token=" + "tok%2Fwith%2Bplus%3D%3D" + "&X-Amz-Signature=abcdef0123"
	r := mustRedactor(t, trace.RedactConfig{Argv: []string{u}, Inherited: []string{"SERVER_URL=https://h.test/?token=inherited-q-77"}})
	argv := r.Argv([]string{u})[0]
	if strings.Contains(argv, key) || strings.Contains(argv, "tok%2F") || strings.Contains(argv, "abcdef0123") || !strings.Contains(argv, "page=2") || !strings.Contains(argv, "api_key="+trace.Mask) {
		t.Errorf("argv %q", argv)
	}
	in := "POST /mcp?page=2&api_key=" + key + " HTTP/1.1\r\n | echoed " + tok + " | " + "tok%2Fwith%2Bplus%3D%3D" + " | inherited-q-77"
	out, hits := r.Bytes([]byte(in))
	for _, s := range []string{key, tok, "tok%2Fwith", "inherited-q-77"} {
		if bytes.Contains(out, []byte(s)) {
			t.Errorf("%q left in %q", s, out)
		}
	}
	if !bytes.Contains(out, []byte("page=2")) || len(hits) == 0 {
		t.Errorf("out %q hits %v", out, hits)
	}
	found := false
	for _, it := range r.Items() {
		found = found || it.Kind == "url-query"
	}
	if !found {
		t.Errorf("items %+v: no url-query", r.Items())
	}
}

// A credential mcp-inspect sends without having been given it (an OAuth access token the
// flow obtained) is learned from the request head on its way out and scrubbed from what
// follows: the server's echo of it, raw, \u-escaped or %-encoded, with and without a
// backslash in the frame (issue 26).
func TestRedactorLearnsSentCredentials(t *testing.T) {
	t.Parallel()
	const tok = "oauth-obtained-token-ö-0042"
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, trace.Header{}, mustRedactor(t, trace.RedactConfig{}))
	if err != nil {
		t.Fatal(err)
	}
	echo := func(raw string) {
		if err := w.Write(mcpclient.Event{Seq: 2, Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPBody, Raw: []byte(raw)}); err != nil {
			t.Fatal(err)
		}
	}
	esc, _ := json.Marshal(tok)
	// Before the token was sent, nothing is known of it: an echo then is not masked.
	echo(`{"before":` + string(esc) + `}`)
	head := "POST /mcp HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer " + tok + "\r\n\r\n"
	if err := w.Write(mcpclient.Event{Seq: 3, Dir: mcpclient.HTTPOut, Kind: mcpclient.KindHTTPRequest, Raw: []byte(head)}); err != nil {
		t.Fatal(err)
	}
	echo(`{"echo":` + string(esc) + `,"ascii":"\u006f\u0061uth-obtained-token-\u00f6-0042","form":"oauth-obtained-token-%C3%B6-0042"}`)
	echo(`{"plain":"` + tok + `"}`) // no backslash: found by the prefilter's clues, not the full pass
	w.Close()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines: %s", len(lines), buf.String())
	}
	if !strings.Contains(lines[1], "oauth-obtained-token") {
		t.Errorf("an echo before the token was sent was masked: %s", lines[1])
	}
	for _, l := range lines[2:] {
		for _, form := range []string{"oauth-obtained-token", `\u00f6-0042`, "%C3%B6"} {
			if strings.Contains(l, form) {
				t.Errorf("%q left in %s", form, l)
			}
		}
	}
	if !strings.Contains(lines[3], trace.Mask) {
		t.Errorf("no mask in the echo: %s", lines[3])
	}
}
