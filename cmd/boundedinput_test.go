package cmd

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// inspectStdin is inspect with stdin from in.
func inspectStdin(t *testing.T, in []byte, args ...string) ran {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testservers.BuildInspector(t), args...)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
	cmd.Stdin = bytes.NewReader(in)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %q: %v", args, err)
	}
	return ran{out.String(), errb.String(), code}
}

// An error that quotes a huge argument shows its start and its length, not all of it.
func TestHugeArgumentNotEchoed(t *testing.T) {
	t.Parallel()
	name := strings.Repeat("n", 100<<10)
	r := inspect(t, nil, cmdline([]string{"call", name}, fakeArgv(t, "minimal"))...)
	if r.code == 0 || len(r.stderr) > 20<<10 || !strings.Contains(r.stderr, "bytes in all") {
		t.Fatalf("exit %d, %d bytes of stderr: %.300q", r.code, len(r.stderr), r.stderr)
	}
}
