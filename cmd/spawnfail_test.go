//go:build unix

package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/internal/tmuxtest"
)

// TestTUISpawnFailureOffersEdit: a command that cannot be spawned opens the TUI on the
// dead-server panel with the E offer; E fixes the command and the new session connects.
// Nothing is kept in the state directory for the session that never started.
func TestTUISpawnFailureOffersEdit(t *testing.T) {
	bin := testservers.BuildInspector(t)
	state := t.TempDir()
	s := tmuxtest.Start(t, 150, 30, []string{"XDG_STATE_HOME=" + state, "NO_COLOR=1"}, bin, "--", "/nonexistent/srv")
	screen := s.WaitFor(t, 20*time.Second, "E edits the command")
	if !strings.Contains(screen, "could not be started") || strings.Contains(screen, "handshake failed") {
		t.Errorf("dead-server panel:\n%s", screen)
	}
	s.Send("E")
	s.WaitFor(t, 10*time.Second, "restart the server")
	s.Send("C-u")
	s.SendText(shellwords.Join([]string{fake.Binary(t), "--scenario", "minimal"}))
	s.Send("Enter")
	s.WaitFor(t, 20*time.Second, "connected")
	s.Send("q")
	if st := s.Wait(t, 20*time.Second); st.Code != 0 {
		t.Fatalf("quit after the fixed restart: %v", st)
	}
	kept, _ := filepath.Glob(filepath.Join(state, "mcp-inspect", "sessions", "*.jsonl"))
	if len(kept) != 1 {
		t.Errorf("kept sessions %q, want only the one that started", kept)
	}
}

// TestTUISpawnFailureQuit: quitting at the dead-server panel exits 3 and says why, and no
// session file is left for the session that never started.
func TestTUISpawnFailureQuit(t *testing.T) {
	bin := testservers.BuildInspector(t)
	state := t.TempDir()
	s := tmuxtest.Start(t, 150, 30, []string{"XDG_STATE_HOME=" + state, "NO_COLOR=1"}, bin, "--", "/nonexistent/srv")
	s.WaitFor(t, 20*time.Second, "E edits the command")
	s.Send("q")
	if st := s.Wait(t, 20*time.Second); st.Code != exitNoServer {
		t.Fatalf("quit at a spawn failure: %v, want exit %d", st, exitNoServer)
	}
	entries, err := os.ReadDir(filepath.Join(state, "mcp-inspect", "sessions"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("a session that never started left %d files", len(entries))
	}
}
