package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
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

// SIGINT while a call follows a modern task sends tasks/cancel before exiting 130.
func TestHeadlessTaskInterrupt(t *testing.T) {
	bin := testservers.BuildInspector(t)
	trace := filepath.Join(t.TempDir(), "t.jsonl")
	cmd := exec.Command(bin, cmdline([]string{"call", "task_slow", "--era", "modern", "--record", trace}, fakeArgv(t, "tasks"))...)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "FAKE_TASK_POLL_MS=60", "FAKE_TASK_SLOW_MS=40000")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(trace)
		if bytes.Contains(b, []byte(`\"method\":\"tasks/get\"`)) {
			break // the task exists and is being followed
		}
		if time.Now().After(deadline) {
			t.Fatalf("the task was never polled; stderr %q", errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d; stderr %q", err, exitInterrupted, errb.String())
	}
	if !strings.Contains(errb.String(), "was still working; tasks/cancel sent") {
		t.Errorf("stderr %q does not name the task and the cancel", errb.String())
	}
	if b, _ := os.ReadFile(trace); !bytes.Contains(b, []byte(`\"method\":\"tasks/cancel\"`)) {
		t.Errorf("no tasks/cancel in the trace:\n%s", b)
	}
}
