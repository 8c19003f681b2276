package cmd

import (
	"strings"
	"testing"
)

// A notifications/message inside a JSON-RPC batch reaches stderr like a single one (the
// fake's batch scenario sends one after initialized and one with the tools/call response);
// --quiet silences both.
func TestHeadlessBatchLogMessages(t *testing.T) {
	t.Parallel()
	args := []string{"call", "echo", "-a", "text=hi", "--protocol-version", "2025-03-26"}
	r := inspect(t, nil, cmdline(args, fakeArgv(t, "batch"))...)
	wantCode(t, r, 0)
	for _, want := range []string{"server log [info]: batched hello\n", "server log [info]: echoed in a batch\n"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	r = inspect(t, nil, cmdline(append(args, "-q"), fakeArgv(t, "batch"))...)
	wantCode(t, r, 0)
	if strings.Contains(r.stderr, "server log") {
		t.Errorf("--quiet: stderr %q", r.stderr)
	}
}
