// Package conformance runs the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in testdata/servers/package.json) with
// mcp-inspect as its client, through scripts/conformance.sh: every client scenario of the
// 2025-11-25 and 2026-07-28 requirement sets, in a loopback-only network namespace; and
// its server scenarios beside mcp-inspect check on the same reference servers, which must
// agree where both judge (agreement_test.go).
package conformance

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// The suite's client scenarios: 18 for 2025-11-25 and 32 for 2026-07-28 (0.2.0-alpha.12).
const wantScenarios = 50

var totalLine = regexp.MustCompile(`(?m)^TOTAL: (\d+) of (\d+) passed$`)

// TestConformanceSuite runs every client scenario against the hidden adapter command
// (`mcp-inspect conformance-client URL`) and requires all of them to pass. The script's
// output, with each failing scenario's failed checks, is in the test log on failure.
func TestConformanceSuite(t *testing.T) {
	root := testservers.RepoRoot(t)
	testservers.NodeModules(t) // the script runs the suite and Node 22 from node_modules
	bin := testservers.BuildInspector(t)
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "conformance.sh"),
		"-o", t.TempDir(), "--", bin, "conformance-client")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	m := totalLine.FindSubmatch(out)
	if m == nil {
		t.Fatalf("conformance.sh printed no TOTAL line (%v):\n%s", err, out)
	}
	pass, _ := strconv.Atoi(string(m[1]))
	run, _ := strconv.Atoi(string(m[2]))
	if err != nil || pass != run || run != wantScenarios {
		t.Fatalf("conformance suite: %d of %d scenarios passed, want %d of %d (%v):\n%s", pass, run, wantScenarios, wantScenarios, err, out)
	}
	t.Logf("conformance suite: %d of %d client scenarios passed", pass, run)
}
