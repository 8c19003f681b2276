//go:build unix

package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/internal/tmuxtest"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestTUISavesSessionUnderName: the TUI says the session is kept (● rec in the status line)
// and where (Server pane), and S + a name copies it to the state directory's saved/NAME.jsonl,
// a trace that opens.
func TestTUISavesSessionUnderName(t *testing.T) {
	bin := testservers.BuildInspector(t)
	srv := fake.Binary(t)
	state := t.TempDir()
	s := tmuxtest.Start(t, 160, 30, []string{"XDG_STATE_HOME=" + state, "NO_COLOR=1"}, bin, "--", srv, "--scenario", "minimal")
	s.WaitFor(t, 20*time.Second, "● rec")
	s.Send("4")
	s.WaitFor(t, 10*time.Second, "recording to "+filepath.Join(state, "mcp-inspect", "sessions"))
	s.WaitFor(t, 10*time.Second, "S saves it under a name")
	s.Send("S")
	s.WaitFor(t, 10*time.Second, "save session as:")
	s.SendText("bug 42")
	s.Send("Enter")
	want := filepath.Join(state, "mcp-inspect", "saved", "bug 42.jsonl")
	s.WaitFor(t, 10*time.Second, "session saved to")
	s.Send("q")
	if st := s.Wait(t, 20*time.Second); st.Code != 0 {
		t.Fatalf("the TUI exited with %v", st)
	}
	if _, err := os.Stat(want); err != nil {
		t.Fatalf("saved session: %v", err)
	}
	tr, err := trace.Open(want)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if tr.Len() == 0 || !strings.Contains(strings.Join(tr.Header.Argv, " "), "minimal") {
		t.Errorf("saved trace: %d events, argv %q", tr.Len(), tr.Header.Argv)
	}
}
