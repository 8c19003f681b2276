package cmd

import (
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
