package cmd

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
)

// TestCheckExitCodes: 0 when no MUST rule failed, 1 when one did, 2 for usage, 3 when the
// server cannot start; --json is one document with the code.
func TestCheckExitCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		args     []string
		scenario string
		code     int
	}{
		{"minimal passes", []string{"check", "-q"}, "minimal", exitOK},
		{"a MUST fails", []string{"check", "-q"}, "check-echo-version", exitCheckFailed},
		{"SHOULD warnings only", []string{"check", "-q"}, "check-early-notify", exitOK},
		{"skipped", []string{"check", "-q", "--skip", "version-future=echoes on purpose"}, "check-echo-version", exitOK},
		{"cannot start", []string{"check", "-q"}, "b09", exitNoServer},
		{"unknown rule", []string{"check", "--skip", "no-such-rule"}, "minimal", exitUsage},
		{"args not an object", []string{"check", "--call", "echo", "--args", "[1]"}, "minimal", exitUsage},
		{"args without call", []string{"check", "--args", "{}"}, "minimal", exitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := inspect(t, nil, cmdline(append(tc.args, "--timeout", "5s"), fakeArgv(t, tc.scenario))...)
			wantCode(t, r, tc.code)
			if tc.code == exitOK || tc.code == exitCheckFailed {
				if !strings.Contains(r.stdout, "MUST failed,") {
					t.Errorf("no summary line:\n%s", r.stdout)
				}
			}
		})
	}
}

// TestCheckJSONAndJUnit: --json prints the report as one document; --junit writes XML with
// one case per rule; a --call is made and its result checked.
func TestCheckJSONAndJUnit(t *testing.T) {
	t.Parallel()
	junit := filepath.Join(t.TempDir(), "check.xml")
	trace := filepath.Join(t.TempDir(), "check.jsonl")
	r := inspect(t, nil, cmdline([]string{"check", "--json", "-q", "--junit", junit, "--record", trace,
		"--call", "add", "--args", `{"a":1,"b":2}`}, fakeArgv(t, "findings"))...)
	wantCode(t, r, exitCheckFailed)
	oneDocument(t, r)
	var doc struct {
		Results []check.Result `json:"results"`
		Counts  check.Counts   `json:"counts"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Results) != len(check.Rules()) || doc.Counts.Fail == 0 {
		t.Fatalf("results %d, counts %+v", len(doc.Results), doc.Counts)
	}
	var call *check.Result
	for i := range doc.Results {
		if doc.Results[i].ID == "tool-call" {
			call = &doc.Results[i]
		}
	}
	if call == nil || call.Status != check.StatusFail || len(call.Findings) == 0 || len(call.Findings[0].Events) != 2 {
		t.Fatalf("tool-call: %+v", call)
	}
	// The events cited are in the recorded trace: the response the finding names.
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	seq := call.Findings[0].Events[1].Seq
	if !strings.Contains(string(b), `{"seq":`+itoa(seq)+`,`) || !strings.Contains(string(b), `structuredContent`) {
		t.Fatalf("the trace has no event %d with the result", seq)
	}
	x, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var suite struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(x, &suite); err != nil || suite.Tests != len(check.Rules()) || suite.Failures != doc.Counts.Fail {
		t.Fatalf("junit: %v %+v\n%s", err, suite, x)
	}
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestCheckRules: --rules lists every rule.
func TestCheckRules(t *testing.T) {
	t.Parallel()
	r := inspect(t, nil, "check", "--rules")
	wantCode(t, r, exitOK)
	for _, id := range check.RuleIDs() {
		if !strings.Contains(r.stdout, id+" ") {
			t.Errorf("--rules does not list %s", id)
		}
	}
	// Each with the revisions it judges (issue 25).
	if !regexp.MustCompile(`(?m)^logging +MUST +reads +up to 2025-11-25 +MCP`).MatchString(r.stdout) || !regexp.MustCompile(`(?m)^discover +MUST +lifecycle +2026-07-28 +MCP`).MatchString(r.stdout) {
		t.Errorf("--rules lacks the eras:\n%s", r.stdout)
	}
}

// The human report escapes a hostile server's text even when stdout is no terminal (a CI
// log, `| tee`): serverInfo, tool and prompt names in findings carry no escape byte.
func TestCheckReportEscapesServerText(t *testing.T) {
	r := inspect(t, nil, cmdline([]string{"check", "--timeout", "5s"}, fakeArgv(t, "hostile"))...)
	if !strings.Contains(r.stdout, `\x1b]0;PWNED`) {
		t.Fatalf("the hostile name is not shown escaped:\n%.2000s", r.stdout)
	}
	for i, line := range strings.Split(r.stdout, "\n") {
		if strings.ContainsAny(line, "\x1b\x07\u009b\u009c\u009d\u202e") {
			t.Errorf("line %d carries a control character: %q", i+1, line)
		}
	}
}

// A --junit path that cannot be written is a usage error before anything runs: CI must not
// pass with its report missing.
func TestCheckJUnitUnwritable(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "no-such-dir", "x.xml")
	r := inspect(t, nil, cmdline([]string{"check", "--junit", bad}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, "--junit") || strings.Contains(r.stdout, "passes") {
		t.Errorf("stderr %q; the check ran anyway:\n%s", r.stderr, r.stdout)
	}
}

// A command that cannot start: exit 3, the rules never reached on one line, and no
// shutdown "pass" for a server that never ran.
func TestCheckNoServerIsShort(t *testing.T) {
	r := inspect(t, nil, "check", "--", filepath.Join(t.TempDir(), "no-such-server"))
	wantCode(t, r, exitNoServer)
	if !strings.Contains(r.stdout, "· not reached: the server could not start (") || strings.Count(r.stdout, "init-result") != 1 {
		t.Errorf("the unreached rules are not on one line:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "✓ shutdown") || !strings.Contains(r.stdout, "there was no shutdown to check") {
		t.Errorf("shutdown judged for a server that never ran:\n%s", r.stdout)
	}
}
