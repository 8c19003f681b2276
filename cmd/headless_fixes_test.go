package cmd

import (
	"strings"
	"testing"
)

// TestCallWhenToolsListFails: when the tools/list made to convert -a values fails (here a
// page larger than --max-message), the call still goes out with the values as JSON when
// they parse, and a warning says the schema is unknown.
func TestCallWhenToolsListFails(t *testing.T) {
	r := inspect(t, nil, cmdline([]string{"call", "big", "-a", "bytes=10", "--max-message", "1000"}, fakeArgv(t, "b03"))...)
	wantCode(t, r, 0)
	if strings.TrimSpace(r.stdout) != strings.Repeat("x", 10) {
		t.Errorf("stdout %q, want ten x's", r.stdout)
	}
	if !strings.Contains(r.stderr, "inputSchema of \"big\" is unknown") {
		t.Errorf("stderr lacks the warning: %q", r.stderr)
	}
}
