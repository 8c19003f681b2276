package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The headless call follows a modern task (io.modelcontextprotocol/tasks) to its end;
// --no-tasks leaves the extension out, and the fake's well-behaved server refuses.
func TestHeadlessModernTasks(t *testing.T) {
	t.Parallel()
	env := []string{"FAKE_TASK_STEP_MS=100", "FAKE_TASK_POLL_MS=60", "FAKE_TASK_SLOW_MS=300"}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{name: "completes", args: []string{"call", "--era", "modern", "task_slow", "--json"}, stdout: "slow task done"},
		{name: "fails", args: []string{"call", "--era", "modern", "task_fail", "--json"}, code: exitProtocol, stderr: "API rate limit exceeded"},
		{name: "no-tasks", args: []string{"call", "--era", "modern", "--no-tasks", "task_slow", "--json"}, code: exitProtocol, stderr: "-32021"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := inspect(t, env, cmdline(tc.args, fakeArgv(t, "tasks"))...)
			wantCode(t, r, tc.code)
			if !strings.Contains(r.stdout, tc.stdout) || !strings.Contains(r.stderr, tc.stderr) {
				t.Fatalf("stdout %q (want %q)\nstderr %q (want %q)", r.stdout, tc.stdout, r.stderr, tc.stderr)
			}
		})
	}
}

// --timeout bounds a call that runs as a modern task: the run exits 5 naming the task that
// is still running, and tasks/cancel went to the server (the trace holds it).
func TestHeadlessTaskTimeout(t *testing.T) {
	t.Parallel()
	trace := filepath.Join(t.TempDir(), "t.jsonl")
	env := []string{"FAKE_TASK_POLL_MS=60", "FAKE_TASK_SLOW_MS=40000"}
	r := inspect(t, env, cmdline([]string{"call", "task_slow", "--era", "modern", "--timeout", "1s", "--record", trace}, fakeArgv(t, "tasks"))...)
	wantCode(t, r, exitTimeout)
	for _, want := range []string{"no result after 1s", "was still working", "tasks/cancel sent"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	if b, _ := os.ReadFile(trace); !bytes.Contains(b, []byte(`\"method\":\"tasks/cancel\"`)) {
		t.Errorf("no tasks/cancel in the trace:\n%s", b)
	}
}
