//go:build unix

package cmd

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/internal/tmuxtest"
)

// TestTUIQuitAfterServerDied pins the README's TUI exit codes: a server that started and
// then died is shown in the UI, and quitting after it is a normal quit (exit 0); only a
// command that could not be spawned at all exits 3 (TestTUISpawnFailureQuit).
func TestTUIQuitAfterServerDied(t *testing.T) {
	bin := testservers.BuildInspector(t)
	s := tmuxtest.Start(t, 150, 30, []string{"XDG_STATE_HOME=" + t.TempDir(), "NO_COLOR=1"}, bin, "--", fake.Binary(t), "--scenario", "b09")
	screen := s.WaitFor(t, 20*time.Second, "exited with code 2")
	if strings.Contains(screen, "could not be started") {
		t.Fatalf("a server that started and exited is not a spawn failure:\n%s", screen)
	}
	s.Send("q")
	if st := s.Wait(t, 20*time.Second); st.Code != exitOK {
		t.Fatalf("quit after the server died: %v, want exit %d", st, exitOK)
	}
}

// TestTUICtrlCAfterQuit: ctrl+c while the server shuts down after q (linger-kill ignores
// its stdin's end and SIGTERM) cuts the shutdown short and says so, and the quit stands:
// exit 0, not 130 (docs/reference.md Exit codes).
func TestTUICtrlCAfterQuit(t *testing.T) {
	bin := testservers.BuildInspector(t)
	s := tmuxtest.Start(t, 150, 30, []string{"XDG_STATE_HOME=" + t.TempDir(), "NO_COLOR=1"}, bin, "--", fake.Binary(t), "--scenario", "linger-kill")
	s.WaitFor(t, 20*time.Second, "connected")
	s.Send("q")
	s.WaitFor(t, 20*time.Second, "stopping the server")
	s.Send("C-c")
	st := s.Wait(t, 20*time.Second)
	if st.Code != exitOK {
		t.Fatalf("ctrl+c during the shutdown after q: %v, want exit %d\n%s", st, exitOK, s.Screen())
	}
	if screen := s.Screen(); !strings.Contains(screen, "its shutdown was cut short") {
		t.Fatalf("no word that the shutdown was cut short:\n%s", screen)
	}
}
