//go:build unix

package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

// A huge file of one line (1 GiB, sparse) is refused as "not a trace header" from a
// bounded prefix; a trace reads from stdin with "-"; a FIFO without a writer and a device
// are refused at once with the reason, never waited on (issue 15).
func TestTraceInputsBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.jsonl")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(1 << 30)
	f.Close()
	r := inspect(t, nil, "trace", "cat", huge)
	wantCode(t, r, exitBadTrace)
	if !strings.Contains(r.stderr, "not a trace header") {
		t.Fatalf("huge: %q", r.stderr)
	}

	trace := filepath.Join(dir, "t.jsonl")
	wantCode(t, inspect(t, nil, cmdline([]string{"ping", "--record", trace}, fakeArgv(t, "minimal"))...), 0)
	data, _ := os.ReadFile(trace)
	fromFile := inspect(t, nil, "trace", "cat", trace)
	fromStdin := inspectStdin(t, data, "trace", "cat", "-")
	wantCode(t, fromStdin, 0)
	if fromStdin.stdout != fromFile.stdout || !strings.Contains(fromStdin.stdout, `"method":"ping"`) {
		t.Fatalf("trace cat - differs:\n%s\nfile:\n%s", fromStdin.stdout, fromFile.stdout)
	}
	r = inspectStdin(t, []byte(strings.Repeat("x", 3<<20)), "trace", "stats", "-")
	wantCode(t, r, exitBadTrace)
	if !strings.Contains(r.stderr, "not a trace header") {
		t.Fatalf("stdin not a trace: %q", r.stderr)
	}

	fifo := filepath.Join(dir, "fifo")
	if err := platformtest.Mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	r = inspect(t, nil, "trace", "cat", fifo)
	wantCode(t, r, exitBadTrace)
	if !strings.Contains(r.stderr, "writer") {
		t.Fatalf("FIFO trace: %q", r.stderr)
	}
	r = inspect(t, nil, "trace", "stats", "/dev/zero")
	wantCode(t, r, exitBadTrace)
	if !strings.Contains(r.stderr, "not a regular file") {
		t.Fatalf("/dev/zero trace: %q", r.stderr)
	}
}

// --config, --args @FILE and envFile: a FIFO without a writer and /dev/zero are refused at
// once with the reason; an oversized --args file is refused without being echoed.
func TestConfigInputsBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := platformtest.Mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	r := inspect(t, nil, "tools", "--config", fifo, "--server", "x")
	if r.code == 0 || !strings.Contains(r.stderr, "writer") {
		t.Fatalf("--config FIFO: exit %d, %q", r.code, r.stderr)
	}
	r = inspect(t, nil, cmdline([]string{"call", "echo", "--args", "@" + fifo}, fakeArgv(t, "minimal"))...)
	if r.code == 0 || !strings.Contains(r.stderr, "writer") {
		t.Fatalf("--args @FIFO: exit %d, %q", r.code, r.stderr)
	}
	r = inspect(t, nil, cmdline([]string{"call", "echo", "--args", "@/dev/zero"}, fakeArgv(t, "minimal"))...)
	if r.code == 0 || !strings.Contains(r.stderr, "character device") {
		t.Fatalf("--args @/dev/zero: exit %d, %q", r.code, r.stderr)
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, bytes.Repeat([]byte("y"), 65<<20), 0o600)
	r = inspect(t, nil, cmdline([]string{"call", "echo", "--args", "@" + big}, fakeArgv(t, "minimal"))...)
	if r.code == 0 || !strings.Contains(r.stderr, "larger than the limit") || len(r.stderr) > 4096 {
		t.Fatalf("--args @big: exit %d, %d bytes of stderr: %.300q", r.code, len(r.stderr), r.stderr)
	}
	cfg := filepath.Join(dir, "mcp.json")
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"x": map[string]any{
		"command": fakeArgv(t, "minimal")[0], "args": fakeArgv(t, "minimal")[1:], "envFile": "/dev/zero"}}})
	os.WriteFile(cfg, doc, 0o600)
	r = inspect(t, nil, "ping", "--config", cfg, "--server", "x")
	wantCode(t, r, 0)
	if !strings.Contains(r.stderr, "envFile") || !strings.Contains(r.stderr, "character device") {
		t.Fatalf("envFile /dev/zero: %q", r.stderr)
	}
}
