//go:build unix

package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestCheckInterruptShutsDownPromptly: ctrl+c while check waits for a server that ignores
// its stdin's end and SIGTERM (linger-kill) escalates at once instead of granting the
// shutdown rule's full delay (DefaultShutdownWithin before SIGTERM, again before SIGKILL):
// the trace shows stdin closed, SIGTERM and SIGKILL within InterruptGrace steps, well
// before DefaultShutdownWithin; the run exits 130 with shutdown "not finished".
func TestCheckInterruptShutsDownPromptly(t *testing.T) {
	t.Parallel()
	bin := testservers.BuildInspector(t)
	tracePath := filepath.Join(t.TempDir(), "t.jsonl")
	c := exec.Command(bin, cmdline([]string{"check", "--json", "--record", tracePath}, fakeArgv(t, "linger-kill"))...)
	c.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Process.Kill()
	// The battery is over and the main session's shutdown is waiting on the server.
	for deadline := time.Now().Add(2 * time.Minute); ; {
		if b, _ := os.ReadFile(tracePath); bytes.Contains(b, []byte("closing the server's stdin")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the shutdown never began; stderr %q", errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.Process.Signal(platformtest.SIGINT)
	err := c.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d; stderr %q", err, exitInterrupted, errb.String())
	}
	var doc struct {
		Results  []check.Result `json:"results"`
		ExitCode int            `json:"exitCode"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	for _, res := range doc.Results {
		if res.ID == "shutdown" && (res.Status != check.StatusNA || res.Reason != "not finished: the check was interrupted") {
			t.Errorf("shutdown: %s %q %+v", res.Status, res.Reason, res.Findings)
		}
	}
	tr, err := trace.Open(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var closed, term, kill time.Time
	for i := range tr.Len() {
		ev, err := tr.Event(i)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Dir != mcpclient.Lifecycle || ev.Life == nil || ev.Life.Kind != mcpclient.LifeShutdown {
			continue
		}
		switch {
		case strings.Contains(ev.Life.Text, "stdin"):
			closed = ev.Time
		case strings.Contains(ev.Life.Text, "SIGTERM"):
			term = ev.Time
		case strings.Contains(ev.Life.Text, "SIGKILL"):
			kill = ev.Time
		}
	}
	if closed.IsZero() || term.IsZero() || kill.IsZero() {
		t.Fatalf("the trace lacks a shutdown step: stdin %v SIGTERM %v SIGKILL %v", closed, term, kill)
	}
	if d := kill.Sub(closed); d >= check.DefaultShutdownWithin {
		t.Errorf("SIGKILL came %v after stdin closed; an interrupt should not wait the rule's %v per step", d, check.DefaultShutdownWithin)
	}
}
