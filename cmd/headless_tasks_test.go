package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// bench call of a tool that runs as a task counts the call when the task ends (the one task
// follower), not when the CreateTaskResult comes: each call takes the task's time.
func TestBenchFollowsTasks(t *testing.T) {
	t.Parallel()
	env := []string{"FAKE_TASK_SLOW_MS=60", "FAKE_TASK_POLL_MS=20"}
	r := inspect(t, env, cmdline([]string{"bench", "call", "task_slow", "-n", "4", "--warmup", "0", "--era", "modern", "--json"}, fakeArgv(t, "tasks"))...)
	wantCode(t, r, 0)
	var d struct {
		Bench struct {
			Calls   int `json:"calls"`
			Errors  int `json:"errors"`
			Latency struct {
				Min float64 `json:"min"`
			} `json:"latencyMs"`
		} `json:"bench"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil { // (oneDocument zeroes the timings)
		t.Fatal(err)
	}
	if d.Bench.Calls != 4 || d.Bench.Errors != 0 || d.Bench.Latency.Min < 50 {
		t.Fatalf("bench of a task tool: %+v\n%s", d.Bench, r.stderr)
	}
}

// call of a tool that runs as a task prints the task's result (the one task follower).
func TestHeadlessCallFollowsTasks(t *testing.T) {
	t.Parallel()
	env := []string{"FAKE_TASK_SLOW_MS=60", "FAKE_TASK_POLL_MS=20"}
	r := inspect(t, env, cmdline([]string{"call", "task_slow", "--era", "modern"}, fakeArgv(t, "tasks"))...)
	wantCode(t, r, 0)
	if strings.TrimSpace(r.stdout) != "slow task done" {
		t.Fatalf("call of a task tool:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
}
