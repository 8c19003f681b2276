//go:build unix

package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// interruptedCall is a headless `call sleep --json --record` on the b12 server, sent sig
// once the call is on the wire and the server's pid is in the trace. It returns the JSON
// error, stderr, the trace's path and the server's pid.
type interruptedCall struct {
	kind, message, stderr, trace string
	pid                          int
}

func interruptCall(t *testing.T, sig os.Signal) interruptedCall {
	t.Helper()
	bin := testservers.BuildInspector(t)
	trace := filepath.Join(t.TempDir(), "t.jsonl")
	cmd := exec.Command(bin, cmdline([]string{"call", "sleep", "--json", "--record", trace}, fakeArgv(t, "b12"))...)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	started := regexp.MustCompile(`started pid (\d+)`)
	var pid int
	for deadline := time.Now().Add(30 * time.Second); ; {
		b, _ := os.ReadFile(trace)
		if m := started.FindSubmatch(b); m != nil && bytes.Contains(b, []byte(`\"method\":\"tools/call\"`)) {
			pid, _ = strconv.Atoi(string(m[1]))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the call never went out; stderr %q", errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(sig)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d; stderr %q", err, exitInterrupted, errb.String())
	}
	var doc struct {
		Error struct{ Kind, Message string }
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	return interruptedCall{kind: doc.Error.Kind, message: doc.Error.Message, stderr: errb.String(), trace: trace, pid: pid}
}

// SIGHUP (the terminal closed) stops a headless command like SIGTERM: exit 130, the error
// says so, the server is gone, and the trace is closed with the server's end in it.
func TestHeadlessSIGHUP(t *testing.T) {
	t.Parallel()
	r := interruptCall(t, platformtest.SIGHUP)
	if want := "interrupted by SIGHUP before the tools/call response arrived"; r.kind != "interrupted" || r.message != want {
		t.Errorf("error %s %q, want %q", r.kind, r.message, want)
	}
	if !platformtest.Gone(r.pid) {
		t.Errorf("the server (pid %d) is still there", r.pid)
	}
	tr, err := trace.Open(r.trace)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if tr.Truncated {
		t.Errorf("the trace was cut: %v", tr.Warnings)
	}
	var cat bytes.Buffer
	trace.Cat(tr, &cat, trace.CatOptions{})
	if !strings.Contains(cat.String(), "# server ") {
		t.Errorf("the trace does not record the server's end:\n%s", cat.String())
	}
}
