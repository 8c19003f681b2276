package cmd

import (
	"strings"
	"testing"
)

// #24 §5: headless, the server's stderr goes to ours as its bytes when ours is a file or
// pipe: a progress bar's redraws stay redraws, an unfinished line is continued, not cut.
func TestHeadlessStderrProgressPassedOn(t *testing.T) {
	t.Parallel()
	r := inspect(t, []string{"FAKE_DELAY_MS=20"}, cmdline([]string{"tools"}, fakeArgv(t, "stderr-progress"))...)
	wantCode(t, r, 0)
	if !strings.Contains(r.stderr, "\r 10%|█         | 1/10\r 20%|██") || !strings.Contains(r.stderr, "| 10/10\nLoading model… done\n") {
		t.Errorf("stderr not passed on as written:\n%q", r.stderr)
	}
}
