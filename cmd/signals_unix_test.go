//go:build unix

package cmd

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestInterruptedCallSaysWhy: SIGINT during a call exits 130 and the JSON error says the
// signal interrupted the call before its response, not "context canceled".
func TestInterruptedCallSaysWhy(t *testing.T) {
	r := interruptCall(t, platformtest.SIGINT)
	want := "interrupted by SIGINT before the tools/call response arrived"
	if r.kind != "interrupted" || r.message != want {
		t.Errorf("error %s %q, want kind interrupted, message %q", r.kind, r.message, want)
	}
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q lacks %q", r.stderr, want)
	}
}

// TestHeadlessResultBeforeLingeringShutdown: against a server that ignores its stdin's end
// and SIGTERM (linger-kill), ping prints its result before the shutdown escalates (the
// trace holds no SIGTERM yet when "pong" is read), and SIGINT during that shutdown cuts it
// short: the process is gone well before the normal linger delay (DefaultShutdownGrace per
// step), the result's exit code 0 stands, and stderr says the shutdown was cut short.
func TestHeadlessResultBeforeLingeringShutdown(t *testing.T) {
	t.Parallel()
	bin := testservers.BuildInspector(t)
	trace := filepath.Join(t.TempDir(), "t.jsonl")
	c := exec.Command(bin, cmdline([]string{"ping", "--record", trace}, fakeArgv(t, "linger-kill"))...)
	c.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
	var errb bytes.Buffer
	c.Stderr = &errb
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "pong") {
		t.Fatalf("first stdout line %q, %v; stderr %q", line, err, errb.String())
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("SIGTERM")) || bytes.Contains(b, []byte("SIGKILL")) {
		t.Fatalf("the result was printed only after the shutdown escalated:\n%s", b)
	}
	sent := time.Now()
	if err := c.Process.Signal(platformtest.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = c.Wait()
	gone := time.Since(sent)
	if err != nil {
		t.Fatalf("exit %v, want 0 (the printed result stands); stderr %q", err, errb.String())
	}
	if gone >= mcpclient.DefaultShutdownGrace {
		t.Errorf("the run ended %v after SIGINT; an interrupt should not wait the shutdown's %v per step", gone, mcpclient.DefaultShutdownGrace)
	}
	if !strings.Contains(errb.String(), "SIGINT came while the server was shutting down: its shutdown was cut short") {
		t.Errorf("stderr does not say the shutdown was cut short: %q", errb.String())
	}
}

// TestHeadlessErrorBeforeLingeringShutdown: a failed command's message reaches stderr
// before the shutdown of a server that lingers escalates, and SIGINT then cuts the shutdown
// short; the failure's own exit code (4, a JSON-RPC error) stands.
func TestHeadlessErrorBeforeLingeringShutdown(t *testing.T) {
	t.Parallel()
	bin := testservers.BuildInspector(t)
	trace := filepath.Join(t.TempDir(), "t.jsonl")
	c := exec.Command(bin, cmdline([]string{"read", "nosuch://x", "--record", trace}, fakeArgv(t, "linger-kill"))...)
	c.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
	stderr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Process.Kill()
	rd := bufio.NewReader(stderr)
	line, err := rd.ReadString('\n')
	if err != nil || !strings.Contains(line, "JSON-RPC error -32601") {
		t.Fatalf("first stderr line %q, %v", line, err)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("SIGTERM")) || bytes.Contains(b, []byte("SIGKILL")) {
		t.Fatalf("the error was said only after the shutdown escalated:\n%s", b)
	}
	sent := time.Now()
	if err := c.Process.Signal(platformtest.SIGINT); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(rd)
	err = c.Wait()
	gone := time.Since(sent)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitProtocol {
		t.Fatalf("exit %v, want %d; stderr %q", err, exitProtocol, rest)
	}
	if gone >= mcpclient.DefaultShutdownGrace {
		t.Errorf("the run ended %v after SIGINT; an interrupt should not wait the shutdown's %v per step", gone, mcpclient.DefaultShutdownGrace)
	}
	if strings.Contains(string(rest), "JSON-RPC error") {
		t.Errorf("the error was said twice: %q", rest)
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
	cmd.Process.Signal(platformtest.SIGINT)
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

// TestTapExitAndSignals: the server's exit code passes through; SIGTERM to the tap reaches
// the server's group (a server that traps it exits its own way; one that does not dies of
// it and the tap exits 143 and says so); nothing of the server is left; stdout stays clean.
func TestTapExitAndSignals(t *testing.T) {
	env := tapEnv(t)
	dir := t.TempDir()

	t.Run("exit code", func(t *testing.T) {
		p := startTapProcess(t, env, "--no-save", "--", "sh", "-c", "echo to stderr >&2; exit 9")
		p.in.Close()
		out, _ := io.ReadAll(p.out)
		if code := p.wait(t); code != 9 {
			t.Errorf("exit %d, want 9", code)
		}
		if len(out) != 0 || p.stderr.String() != "to stderr\n" {
			t.Errorf("stdout %q, stderr %q", out, p.stderr)
		}
	})
	t.Run("trapped SIGTERM", func(t *testing.T) {
		trace := filepath.Join(dir, "trap.jsonl")
		p := startTapProcess(t, env, "--record", trace, "--", "sh", "-c", `trap 'echo got TERM >&2; exit 42' TERM; echo ready; while :; do sleep 0.05; done`)
		br := bufio.NewReader(p.out)
		if line, _ := br.ReadString('\n'); line != "ready\n" {
			t.Fatalf("got %q", line)
		}
		_ = p.cmd.Process.Signal(platformtest.SIGTERM)
		if code := p.wait(t); code != 42 {
			t.Errorf("exit %d, want the server's 42; stderr %s", code, p.stderr)
		}
		if !strings.Contains(p.stderr.String(), "got TERM") {
			t.Errorf("stderr %q", p.stderr)
		}
		if pid := serverPID(t, trace); liveInGroup(pid) {
			t.Error("the server's group is still there")
		}
	})
	t.Run("killed by SIGTERM", func(t *testing.T) {
		trace := filepath.Join(dir, "kill.jsonl")
		p := startTapProcess(t, env, "--record", trace, "--", "sh", "-c", `echo ready; exec sleep 60`)
		br := bufio.NewReader(p.out)
		br.ReadString('\n')
		_ = p.cmd.Process.Signal(platformtest.SIGTERM)
		if code := p.wait(t); code != 143 {
			t.Errorf("exit %d, want 143", code)
		}
		if !strings.HasPrefix(p.stderr.String(), "mcp-inspect tap: server (pid ") || !strings.Contains(p.stderr.String(), "killed by signal 15") {
			t.Errorf("stderr %q", p.stderr)
		}
		if pid := serverPID(t, trace); liveInGroup(pid) {
			t.Error("the server's group is still there")
		}
	})
	t.Run("host closes stdin", func(t *testing.T) {
		trace := filepath.Join(dir, "eof.jsonl")
		// The server ignores the end of stdin and SIGTERM: the tap escalates to SIGKILL.
		p := startTapProcess(t, env, "--record", trace, "--", "sh", "-c", `trap '' TERM; echo ready; sleep 60 & wait; sleep 60`)
		bufio.NewReader(p.out).ReadString('\n')
		p.in.Close()
		start := time.Now()
		if code := p.wait(t); code != 137 {
			t.Errorf("exit %d, want 137 (SIGKILL after close stdin and SIGTERM)", code)
		}
		if took := time.Since(start); took < 3*time.Second || took > 15*time.Second {
			t.Errorf("shutdown took %v, want two 2 s grace periods", took)
		}
		if pid := serverPID(t, trace); liveInGroup(pid) {
			t.Error("the server's group is still there")
		}
	})
	t.Run("spawn failure", func(t *testing.T) {
		p := startTapProcess(t, env, "--no-save", "--", "/nonexistent/server")
		out, _ := io.ReadAll(p.out)
		if code := p.wait(t); code != 127 {
			t.Errorf("exit %d, want 127", code)
		}
		if len(out) != 0 || !strings.HasPrefix(p.stderr.String(), "mcp-inspect tap: cannot start /nonexistent/server") {
			t.Errorf("stdout %q, stderr %q", out, p.stderr)
		}
	})
}

// liveInGroup reports whether a process of group pgid is alive (zombies, which an init that
// does not reap keeps forever, do not count).
func liveInGroup(pgid int) bool { return platform.GroupAlive(pgid) }
