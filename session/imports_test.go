package session

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoUIDependencies: session, mcpclient and recorder never depend on bubbletea,
// lipgloss (any charm.land module, or charmbracelet's) or the ui package, directly or not.
func TestNoUIDependencies(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./session/...", "./mcpclient/...", "./trace/...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list listed %d packages: %q", len(deps), deps)
	}
	for _, p := range deps {
		if strings.HasPrefix(p, "charm.land/") || strings.Contains(p, "bubbletea") || strings.Contains(p, "lipgloss") ||
			strings.HasPrefix(p, "github.com/charmbracelet/") ||
			p == "github.com/mcp-inspect/mcp-inspect/ui" || strings.HasPrefix(p, "github.com/mcp-inspect/mcp-inspect/ui/") {
			t.Errorf("a UI package is a dependency: %s", p)
		}
	}
}
