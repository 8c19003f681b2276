package cmd

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestTapDetachedGrandchild: the real binary on a server that starts `setsid sleep 60`
// (a grandchild out of reach of its process group, holding its stdout and stderr) and
// exits. The tap exits with the server's code while the host keeps stdin open, the host
// sees the end of stdout, and the trace ends with the exit. (Linux: setsid(1) is
// util-linux's.)
func TestTapDetachedGrandchild(t *testing.T) {
	env := tapEnv(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "grandchild.pid")
	tr := filepath.Join(dir, "t.jsonl")
	start := time.Now()
	p := startTapProcess(t, env, "--record", tr, "--", "sh", "-c", `setsid sleep 60 & echo $! > "$1"; echo hi; exit 3`, "sh", pidFile)
	defer p.in.Close()
	grandchild := func() int {
		b, _ := os.ReadFile(pidFile)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		return pid
	}
	t.Cleanup(func() {
		if pid := grandchild(); pid > 0 {
			_ = platformtest.Signal(pid, platformtest.SIGKILL)
		}
	})
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(p.out)
		got <- b
	}()
	code := p.wait(t)
	t.Logf("tap exited %v after it started", time.Since(start).Round(time.Millisecond))
	if !platformtest.Running(grandchild()) {
		t.Fatal("the grandchild is gone: the test proves nothing")
	}
	if code != 3 {
		t.Errorf("exit %d, want the server's 3; stderr: %s", code, p.stderr)
	}
	if b := <-got; string(b) != "hi\n" {
		t.Errorf("host got %q", b)
	}
	evs := traceEvents(t, tr)
	last := evs[len(evs)-1]
	if last.Life == nil || last.Life.Kind != mcpclient.LifeExited || last.Life.ExitCode != 3 {
		t.Errorf("last event %+v, want the exit", last.Life)
	}
}
