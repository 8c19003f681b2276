package check_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// fakeOptions checks a fake scenario with short waits (the fake answers at once).
func fakeOptions(t *testing.T, scenario string) check.Options {
	if strings.HasPrefix(scenario, "http-") {
		_, url := fake.HTTPServer(t, scenario, fake.HTTPOptions{})
		return check.Options{
			Server:         mcpclient.Config{URL: url, Transport: mcpclient.TransportHTTP, Timeout: 5 * time.Second},
			Target:         url,
			Wait:           time.Second,
			ShutdownWithin: time.Second,
		}
	}
	return check.Options{
		Server:         mcpclient.Config{Command: fake.Binary(t), Args: []string{"--scenario", scenario}, Timeout: 5 * time.Second},
		Target:         "fakeserver --scenario " + scenario,
		Wait:           time.Second,
		ShutdownWithin: time.Second,
	}
}

// broken lists, per fake scenario, the rules it breaks and the status each must get.
type broken struct {
	scenario string
	opts     func(*check.Options)
	want     map[string]check.Status
}

func brokenCases() []broken {
	F, W, P := check.StatusFail, check.StatusWarn, check.StatusPass
	return []broken{
		{"check-echo-version", nil, map[string]check.Status{"version-future": F}},
		{"version-unknown", nil, map[string]check.Status{"version-latest": F, "version-oldest": F}},
		{"version-missing", nil, map[string]check.Status{"init-result": F, "version-latest": F}},
		{"check-silent-init", func(o *check.Options) { o.Server.Timeout = time.Second }, map[string]check.Status{"init-responds": F}},
		{"check-early-notify", nil, map[string]check.Status{"init-order": W}},
		{"b07", nil, map[string]check.Status{"init-order": W}},
		{"check-bad-discover", nil, map[string]check.Status{"discover": F}},
		{"linger", nil, map[string]check.Status{"shutdown": W}},
		{"b01", nil, map[string]check.Status{"stdout-jsonrpc": F}},
		{"pretty", nil, map[string]check.Status{"stdout-jsonrpc": F}},
		{"check-bom", nil, map[string]check.Status{"stdout-utf8": F}},
		{"findings", func(o *check.Options) { o.Calls = []check.Call{{Tool: "add", Args: json.RawMessage(`{"a":1,"b":2}`)}} },
			map[string]check.Status{"stdout-crlf": W, "tool-schemas": F, "steering": W, "tool-call": F}},
		{"id-stringly", nil, map[string]check.Status{"envelope": F, "id-zero": F}},
		{"drop-id-0", nil, map[string]check.Status{"id-zero": F}},
		{"paging-stuck", nil, map[string]check.Status{"list-pages": F}},
		{"paging-repeat", nil, map[string]check.Status{"list-pages": W}},
		{"check-wrong-codes", func(o *check.Options) { o.CallReadOnly = true }, map[string]check.Status{
			"undeclared-capability": W, "unknown-method": W, "unknown-tool": W, "ping": F, "final-ping": F,
			"string-id": F, "tool-call": F}},
		{"check-bad-listings", nil, map[string]check.Status{
			"init-result": F, "list-items": F, "tool-names": W, "tool-schemas": F, "annotations": F,
			"uri-templates": F, "resources-read": W, "prompts-get": F, "completion": F, "logging": F}},
		// It dies at the line that is not JSON: parse-error fails, and the rules after it run
		// on a fresh copy and pass (one fault, one failure).
		{"check-dies-on-garbage", nil, map[string]check.Status{"parse-error": F, "notification": P, "cancel-unknown": P, "final-ping": P}},
		// It answers every request with its id as a string: envelope and id-zero say so; the
		// rules that only needed an answer do not fail again.
		{"id-stringly", nil, map[string]check.Status{"envelope": F, "id-zero": F, "parse-error": P, "notification": P, "cancel-unknown": P}},
		{"check-ping-object", nil, map[string]check.Status{"ping": F, "final-ping": F}},
		// A string id kills it, or goes unanswered: string-id fails, and nothing else (the
		// rules after a death run on a fresh copy).
		{"check-dies-on-string-id", nil, map[string]check.Status{"string-id": F, "id-zero": P, "parse-error": P, "final-ping": P}},
		{"check-ignores-string-id", nil, map[string]check.Status{"string-id": F, "id-zero": P, "parse-error": P, "final-ping": P}},
		{"check-answers-notifications", nil, map[string]check.Status{"notification": F, "cancel-unknown": F}},
		// The cases.md scenarios and the other fake servers, under the rule each breaks.
		{"b01b", nil, map[string]check.Status{"stdout-jsonrpc": F}},
		{"b07b", nil, map[string]check.Status{"init-order": W, "wire-other": W}},
		{"batch", nil, map[string]check.Status{"wire-other": F}},
		{"id-zero-answer", nil, map[string]check.Status{"envelope": F, "list-pages": F}},
		{"paging-endless", nil, map[string]check.Status{"list-pages": F}},
		{"paging-empty-cursor", nil, map[string]check.Status{"list-pages": W}},
		{"lsp-out", nil, map[string]check.Status{"init-responds": F, "stdout-jsonrpc": F}},
		{"hostile", nil, map[string]check.Status{"steering": W, "tool-names": W, "uri-templates": F}},
		{"b05", func(o *check.Options) { o.Calls = []check.Call{{Tool: "snippet"}} }, map[string]check.Status{"stdout-utf8": F}},
		{"b05s", func(o *check.Options) { o.Calls = []check.Call{{Tool: "snippet"}} }, map[string]check.Status{"stdout-utf8": F}},
		// The crash is the tool call's failure; final-ping runs on a fresh copy (one fault,
		// one failure).
		{"b10", func(o *check.Options) { o.Calls = []check.Call{{Tool: "crash"}} }, map[string]check.Status{"tool-call": F, "final-ping": P}},
		// Streamable HTTP servers that break the transport rules (httprules_test.go has the texts).
		{"http-lax", nil, map[string]check.Status{"http-origin": F, "http-host": W, "http-session-unknown": F, "http-session-id": F, "http-notification-202": F, "http-get-405": W, "http-protocol-version": F}},
		{"http-lax-get", nil, map[string]check.Status{"http-origin": F, "http-host": W, "http-session-unknown": F, "http-notification-202": F, "http-get-405": F}},
		// A stateless 2026-07-28 server that serves malformed requests and gives no caching
		// hints (httprules_test.go has the texts).
		{"http-modern-lax", func(o *check.Options) { o.Server.Era = mcpclient.EraModern }, map[string]check.Status{
			"version-future": F, "cache-hints": F, "resource-not-found": W, "meta-required": F, "ping": F, "unknown-method": F,
			"http-origin": F, "http-host": W, "http-protocol-version": F, "http-headers": F}},
	}
}

// TestWellBehavedScenarios: the fake servers that break none of the rules (their cases are
// about the client: split writes, long lines, schemas the forms must handle, odd content)
// come out with no failure and no warning: no false positive.
func TestWellBehavedScenarios(t *testing.T) {
	for _, name := range []string{"minimal", "b02", "b03", "b15", "b16", "b18", "b19", "b20", "b23", "b25", "version-old"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rep, err := check.Run(context.Background(), fakeOptions(t, name))
			if err != nil {
				t.Fatal(err)
			}
			for _, res := range rep.Results {
				if res.Status == check.StatusFail || res.Status == check.StatusWarn {
					t.Errorf("%s: %s: %+v", res.ID, res.Status, res.Findings)
				}
			}
		})
	}
}

// TestEveryRuleBroken: each rule fails (or warns) against a fake scenario that breaks it,
// and the table covers every rule.
func TestEveryRuleBroken(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range brokenCases() {
		for id, st := range c.want {
			if st == check.StatusFail || st == check.StatusWarn {
				covered[id] = true
			}
		}
	}
	for _, id := range check.RuleIDs() {
		if !covered[id] {
			t.Errorf("rule %s: no fake scenario breaks it", id)
		}
	}
	for _, c := range brokenCases() {
		t.Run(c.scenario, func(t *testing.T) {
			t.Parallel()
			opt := fakeOptions(t, c.scenario)
			if c.opts != nil {
				c.opts(&opt)
			}
			rep, err := check.Run(context.Background(), opt)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			for id, want := range c.want {
				res := rep.Result(id)
				if res.Status != want {
					t.Errorf("%s: status %s, want %s; findings %+v notes %+v reason %q", id, res.Status, want, res.Findings, res.Notes, res.Reason)
					continue
				}
				for _, f := range res.Findings {
					if f.Text == "" {
						t.Errorf("%s: a finding without text", id)
					}
				}
			}
			if rep.Failed() != slices.Contains(mapValues(c.want), check.StatusFail) {
				t.Errorf("Failed() = %v with counts %+v", rep.Failed(), rep.Counts)
			}
		})
	}
}

func mapValues(m map[string]check.Status) []check.Status {
	var out []check.Status
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// TestMinimalPasses: the well-behaved fake breaks no rule; the rules it has nothing for
// say why.
func TestMinimalPasses(t *testing.T) {
	t.Parallel()
	rep, err := check.Run(context.Background(), fakeOptions(t, "minimal"))
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range rep.Results {
		switch res.Status {
		case check.StatusPass:
			if len(res.Notes) == 0 {
				t.Errorf("%s passed with no note of what was checked", res.ID)
			}
		case check.StatusNA:
			if res.Reason == "" || res.Reason == "not reached" {
				t.Errorf("%s: not applicable without a reason (%q)", res.ID, res.Reason)
			}
		default:
			t.Errorf("%s: %s: %+v", res.ID, res.Status, res.Findings)
		}
	}
	if len(rep.Sessions) != 4 {
		t.Errorf("sessions %+v, want main, version-future, version-oldest, discover", rep.Sessions)
	}
	// A pass cites the events that show it: ping's request and response in the main session.
	ping := rep.Result("ping")
	if len(ping.Notes[0].Events) != 2 || ping.Notes[0].Events[0].Session != check.SessionMain {
		t.Errorf("ping events %+v", ping.Notes[0].Events)
	}
}

// TestSkip: a skipped rule is reported with its reason and not run.
func TestSkip(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, "drop-id-0")
	opt.Skip = map[string]string{"id-zero": "known bug #12"}
	rep, err := check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Result("id-zero")
	if res.Status != check.StatusSkip || !strings.Contains(res.Reason, "known bug #12") || len(res.Findings) != 0 {
		t.Errorf("id-zero: %+v", res)
	}
	if rep.Failed() || rep.Counts.Skip != 1 {
		t.Errorf("counts %+v", rep.Counts)
	}
	var out bytes.Buffer
	rep.Human(&out, func(s string) string { return s })
	if !strings.Contains(out.String(), "skipped (1)") || !strings.Contains(out.String(), "known bug #12") {
		t.Errorf("human report does not say what was skipped:\n%s", out.String())
	}
}

// TestCannotStart: a server that exits before it answers is a StartError.
func TestCannotStart(t *testing.T) {
	t.Parallel()
	rep, err := check.Run(context.Background(), fakeOptions(t, "b09"))
	var se *check.StartError
	if !errors.As(err, &se) || rep == nil || rep.Result("init-responds").Status != check.StatusFail {
		t.Fatalf("err %v, report %+v", err, rep)
	}
	opt := fakeOptions(t, "minimal")
	opt.Server.Command = filepath.Join(t.TempDir(), "no-such-server")
	if _, err := check.Run(context.Background(), opt); !errors.As(err, &se) {
		t.Fatalf("a missing command: %v", err)
	}
}

// TestJUnit: one test case per rule, failures and skips counted.
func TestJUnit(t *testing.T) {
	t.Parallel()
	rep, err := check.Run(context.Background(), fakeOptions(t, "check-echo-version"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.JUnit(&b, check.JUnitOptions{}); err != nil {
		t.Fatal(err)
	}
	var suite struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Cases    []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
		} `xml:"testcase"`
	}
	if err := xml.Unmarshal(b.Bytes(), &suite); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if suite.Tests != len(check.Rules()) || suite.Failures != 1 {
		t.Errorf("tests %d failures %d", suite.Tests, suite.Failures)
	}
	for _, c := range suite.Cases {
		if (c.Failure != nil) != strings.HasPrefix(c.Name, "version-future:") {
			t.Errorf("case %q failure %v", c.Name, c.Failure != nil)
		}
	}
}

// TestJUnitWarnings (issue 25): a SHOULD warning is visible in JUnit, a passing case named
// "WARNING: …" with level=SHOULD and the suite's warnings counted, and a failure with
// WarningsFail; the human report labels it a SHOULD-level warning, not a MUST rule.
func TestJUnitWarnings(t *testing.T) {
	t.Parallel()
	rep, err := check.Run(context.Background(), fakeOptions(t, "b07b"))
	if err != nil {
		t.Fatal(err)
	}
	type suite struct {
		Failures int `xml:"failures,attr"`
		Props    []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name  string `xml:"name,attr"`
			Props []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Failure   *struct{} `xml:"failure"`
			SystemOut string    `xml:"system-out"`
		} `xml:"testcase"`
	}
	read := func(opt check.JUnitOptions) suite {
		var b bytes.Buffer
		if err := rep.JUnit(&b, opt); err != nil {
			t.Fatal(err)
		}
		var s suite
		if err := xml.Unmarshal(b.Bytes(), &s); err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		return s
	}
	s := read(check.JUnitOptions{})
	warned := 0
	for _, c := range s.Cases {
		if !strings.HasPrefix(c.Name, "WARNING: ") {
			continue
		}
		warned++
		if c.Failure != nil || len(c.Props) != 1 || c.Props[0].Value != "SHOULD" || !strings.Contains(c.SystemOut, "SHOULD: ") {
			t.Errorf("warning case %+v", c)
		}
	}
	if warned != rep.Counts.Warn || warned == 0 || s.Failures != rep.Counts.Fail || len(s.Props) != 2 || s.Props[0].Name != "warnings" || s.Props[0].Value != fmt.Sprint(warned) {
		t.Errorf("warned %d (report %d), failures %d, props %+v", warned, rep.Counts.Warn, s.Failures, s.Props)
	}
	if s := read(check.JUnitOptions{WarningsFail: true}); s.Failures != rep.Counts.Fail+rep.Counts.Warn {
		t.Errorf("with WarningsFail: %d failures, want %d", s.Failures, rep.Counts.Fail+rep.Counts.Warn)
	}
	var human bytes.Buffer
	rep.Human(&human, func(s string) string { return s })
	if out := human.String(); !strings.Contains(out, "SHOULD-level warning; MCP 2025-11-25 basic/lifecycle") {
		t.Errorf("human report:\n%s", out)
	}
}

// TestRulesDocumented: docs/check.md has a row for every rule with its level and eras.
func TestRulesDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(testservers.RepoRoot(t), "docs", "check.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range check.Rules() {
		row := "| `" + r.ID + "` | " + string(r.Level) + " | " + r.Eras + " |"
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/check.md has no row starting %q", row)
		}
	}
}

func TestValidURITemplate(t *testing.T) {
	for _, ok := range []string{
		"file:///{path}", "mem://{x}", "https://x/{+path}/{id}{?q,lang}", "users{/id*}", "{#frag}",
		"map?{x:3}", "{var.name}", "{%20x}", "static", "a/{x,y}/{;p}{&q}{.ext}",
	} {
		if err := check.ValidURITemplate(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{
		"mem://{x", "mem://x}", "{}", "{=x}", "{x:0}", "{x:10000}", "{x-y}", "{.}", "{x..y}",
		"a b/{x}", "{x}%zz", "{x,}", "<{x}>",
	} {
		if err := check.ValidURITemplate(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestExample(t *testing.T) {
	got := string(check.Example(json.RawMessage(`{"type":"object","properties":{
		"q":{"type":"string"},"n":{"type":"integer","minimum":3},"mode":{"enum":["fast","slow"]},
		"tags":{"type":"array","items":{"type":"string"},"minItems":1},"opt":{"type":"string"},
		"d":{"type":"string","default":"x"},"o":{"type":"object","properties":{"b":{"type":"boolean"}},"required":["b"]}},
		"required":["q","n","mode","tags","d","o"]}`)))
	want := `{"d":"x","mode":"fast","n":3,"o":{"b":true},"q":"example","tags":["example"]}`
	if got != want {
		t.Errorf("Example = %s\nwant      %s", got, want)
	}
	if got := string(check.Example(json.RawMessage(`not json`))); got != `{}` {
		t.Errorf("Example(not json) = %s", got)
	}
}

// An interrupt is not the server's failure: a call cut off by it says it did not finish,
// no MUST failure carries "context canceled", and the check ends without waiting out the
// server's 60 s sleep.
func TestCheckInterruptedIsNotAFailure(t *testing.T) {
	opt := fakeOptions(t, "b12b")
	opt.Server.Env = append(opt.Server.Env, "FAKE_SLEEP_MS=60000")
	opt.Server.Timeout = 2 * time.Minute // only the interrupt ends the wait
	opt.Calls = []check.Call{{Tool: "sleep", Args: json.RawMessage(`{"seconds":60}`)}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt.Server.OnEvent = func(ev mcpclient.Event) {
		if ev.Dir == mcpclient.ClientToServer && bytes.Contains(ev.Raw, []byte(`"tools/call"`)) && bytes.Contains(ev.Raw, []byte(`"sleep"`)) {
			cancel() // the call is in flight: interrupt now
		}
	}
	rep, err := check.Run(ctx, opt)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	for _, res := range rep.Results {
		for _, f := range res.Findings {
			if strings.Contains(f.Text, "context canceled") {
				t.Errorf("%s: %s", res.ID, f.Text)
			}
		}
		if res.ID == "tool-call" && (res.Status != check.StatusNA || !strings.Contains(res.Reason, "interrupted")) {
			t.Errorf("tool-call: %s %q, want not applicable: interrupted", res.Status, res.Reason)
		}
		if res.ID == "final-ping" && res.Status != check.StatusNA {
			t.Errorf("final-ping ran after the interrupt: %s", res.Status)
		}
	}
}

// A tool that answers with a task is right when the request declared the tasks extension
// (the modern era does), and then the task is followed (the one task follower) and its
// result checked; wrong when it did not. A task that asks for a capability check does not
// declare is the server's fault, a warning.
func TestCheckTaskResult(t *testing.T) {
	opt := fakeOptions(t, "tasks")
	opt.Server.Era = mcpclient.EraModern
	opt.Server.Env = []string{"FAKE_TASK_SLOW_MS=100", "FAKE_TASK_POLL_MS=30"}
	opt.Calls = []check.Call{{Tool: "task_slow"}}
	rep, err := check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	res := result(t, rep, "tool-call")
	notes := ""
	for _, n := range res.Notes {
		notes += n.Text + "\n"
	}
	if res.Status != check.StatusPass || !strings.Contains(notes, "ran as task") || !strings.Contains(notes, "followed to completed") || !strings.Contains(notes, "a result, 1 content block") {
		t.Errorf("declared: %s %+v\n%s", res.Status, res.Findings, notes)
	}
	opt.Calls = []check.Call{{Tool: "task_greet"}}
	rep, err = check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	res = result(t, rep, "tool-call")
	if res.Status != check.StatusWarn || len(res.Findings) == 0 || !strings.Contains(res.Findings[0].Text, "asked for elicitation/create") {
		t.Errorf("a task asking for elicitation: %s %+v", res.Status, res.Findings)
	}
	opt = fakeOptions(t, "tasks-undeclared")
	opt.Calls = []check.Call{{Tool: "task_greet"}}
	rep, err = check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	res = result(t, rep, "tool-call")
	if res.Status != check.StatusFail || len(res.Findings) == 0 || !strings.Contains(res.Findings[0].Text, "did not declare the tasks extension") {
		t.Errorf("undeclared: %s %+v", res.Status, res.Findings)
	}
}

// result is rule id's result in rep.
func result(t *testing.T, rep *check.Report, id string) check.Result {
	t.Helper()
	for _, res := range rep.Results {
		if res.ID == id {
			return res
		}
	}
	t.Fatalf("no rule %s in the report", id)
	return check.Result{}
}

// A URL where nothing listens is a server that cannot be reached: a StartError (exit 3),
// as a command that cannot start is.
func TestCheckUnreachableURL(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/mcp"
	l.Close()
	var se *check.StartError
	_, err = check.Run(context.Background(), check.Options{Server: mcpclient.Config{URL: url, Timeout: 5 * time.Second}, Target: url})
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a StartError", err)
	}
}

// --call of a tool the server does not list is a warning (a typo), whatever it answers.
func TestCheckCallUnlistedTool(t *testing.T) {
	opt := fakeOptions(t, "minimal")
	opt.Calls = []check.Call{{Tool: "ecoh"}}
	rep, err := check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	res := result(t, rep, "tool-call")
	if res.Status == check.StatusPass || len(res.Findings) == 0 || !strings.Contains(res.Findings[0].Text, "no tool of that name is listed") {
		t.Errorf("tool-call: %s %+v", res.Status, res.Findings)
	}
}

// TestStringIDFaultIsOneFailure (issue 25, "one fault, one failure"): a server that dies at a
// request with a string id, or never answers one, fails string-id and nothing else; the
// death is named as such, without waiting out --wait.
func TestStringIDFaultIsOneFailure(t *testing.T) {
	t.Parallel()
	for sc, text := range map[string]string{
		"check-dies-on-string-id": `ping with id "mcp-inspect-check-1": the server exited without an answer`,
		"check-ignores-string-id": `ping with id "mcp-inspect-check-1": no answer with that id within`,
	} {
		t.Run(sc, func(t *testing.T) {
			t.Parallel()
			rep, err := check.Run(context.Background(), fakeOptions(t, sc))
			if err != nil {
				t.Fatal(err)
			}
			if rep.Counts.Fail != 1 || rep.Counts.Warn != 0 {
				for _, res := range rep.Results {
					if len(res.Findings) > 0 {
						t.Errorf("%s: %s %+v", res.ID, res.Status, res.Findings)
					}
				}
			}
			if f := rep.Result("string-id").Findings; len(f) != 1 || !strings.Contains(f[0].Text, text) {
				t.Errorf("string-id: %+v, want one finding saying %q", f, text)
			}
		})
	}
}
