package cmd

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

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
	if err := c.Process.Signal(syscall.SIGINT); err != nil {
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

// TestTUIStopServerHastenedByInterrupt: after the UI quit, stopServer waits for a server
// that ignores its stdin's end and SIGTERM; ctrl+c then (ctx ends) cuts each remaining step
// to InterruptGrace, so SIGKILL ends the server well before one DefaultShutdownGrace.
func TestTUIStopServerHastenedByInterrupt(t *testing.T) {
	t.Parallel()
	c, err := mcpclient.Start(mcpclient.Config{Command: fake.Binary(t), Args: []string{"--scenario", "linger-kill"}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range c.Events() {
		}
	}()
	if _, err := c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	var stderr bytes.Buffer
	go func() {
		stopServer(ctx, c, &stderr)
		close(stopped)
	}()
	for c.State() != mcpclient.StateClosed {
		time.Sleep(5 * time.Millisecond)
	}
	cancel() // the second ctrl+c, during the close
	<-stopped
	r := c.Shutdown()
	if r.Step != "SIGKILL" || r.After >= mcpclient.DefaultShutdownGrace {
		t.Fatalf("shutdown %+v: an interrupt should cut each step to %v, not wait %v", r, check.InterruptGrace, mcpclient.DefaultShutdownGrace)
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
	if err := c.Process.Signal(syscall.SIGINT); err != nil {
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
