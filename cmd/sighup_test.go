package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/recorder"
)

// SIGHUP (the terminal closed) stops a headless command like SIGTERM: exit 130, the error
// says so, the server is gone, and the trace is closed with the server's end in it.
func TestHeadlessSIGHUP(t *testing.T) {
	t.Parallel()
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
	var pid int
	for deadline := time.Now().Add(30 * time.Second); ; {
		b, _ := os.ReadFile(trace)
		if m := regexp.MustCompile(`started pid (\d+)`).FindSubmatch(b); m != nil && bytes.Contains(b, []byte(`\"method\":\"tools/call\"`)) {
			pid, _ = strconv.Atoi(string(m[1]))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the call never went out; stderr %q", errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGHUP)
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
	if want := "interrupted by SIGHUP before the tools/call response arrived"; doc.Error.Kind != "interrupted" || doc.Error.Message != want {
		t.Errorf("error %+v, want %q", doc.Error, want)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the server (pid %d) is still there: %v", pid, err)
	}
	tr, err := recorder.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if tr.Truncated {
		t.Errorf("the trace was cut: %v", tr.Warnings)
	}
	var cat bytes.Buffer
	recorder.Cat(tr, &cat, recorder.CatOptions{})
	if !strings.Contains(cat.String(), "# server ") {
		t.Errorf("the trace does not record the server's end:\n%s", cat.String())
	}
}
