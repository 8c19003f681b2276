package cmd

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// open and attach (the TUI ones, not --raw) need a terminal like the other TUI commands:
// without one they exit 2 with the same message and a hint for scripts, instead of
// bubbletea's TTY error and exit 1.
func TestTUICommandsNeedATerminal(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.jsonl")
	r := inspect(t, nil, cmdline([]string{"ping", "--record", trace}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, 0)
	const msg = "the TUI needs a terminal on stdin and stdout; in scripts use "
	r = inspect(t, nil, "open", trace)
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, msg+"mcp-inspect trace cat") {
		t.Errorf("open: stderr %q", r.stderr)
	}

	env := tapEnv(t)
	tp := startTapProcess(t, env, "--name", "noterm", "--no-save", "--", "cat")
	defer tp.in.Close()
	for deadline := time.Now().Add(20 * time.Second); ; {
		if r := inspect(t, env, "attach", "--list"); strings.Contains(r.stdout, "noterm") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tap never showed up; its stderr %q", tp.stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	r = inspect(t, env, "attach", "noterm")
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, msg+"mcp-inspect attach NAME --raw") {
		t.Errorf("attach: stderr %q", r.stderr)
	}
}
