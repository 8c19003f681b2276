//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
)

// Case B10: the server kills itself during a call; the TUI offers a restart, E then enter
// starts the same command again in a new session, and each session has its own trace.
func TestB10RestartAfterCrash(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "crash.jsonl")
	s := inspect(t, 130, 35, "--record", trace, "--", fake.Binary(t), "--scenario", "b10")
	s.WaitFor(t, wait, "connected")
	first := serverPID(t, s)
	s.WaitFor(t, wait, "crash")
	callToolNoWait(s, "crash")
	s.WaitFor(t, wait, "E restart · ? help")
	s.Send("E")
	s.WaitFor(t, wait, "restart the server")
	s.Send("Enter")
	screen := s.WaitForFunc(t, wait, "a new session with a new server pid", func(screen string) bool {
		m := pidRe.FindStringSubmatch(screen)
		return strings.Contains(screen, "connected") && m != nil && m[1] != "" && m[1] != strconv.Itoa(first)
	})
	if strings.Contains(screen, "dead:") {
		t.Errorf("the new session still shows the old death:\n%s", screen)
	}
	waitDead(t, first, "the crashed server")
	second := serverPID(t, s)
	s.Send("q")
	if st := s.Wait(t, wait); st.Code != 0 {
		t.Errorf("quit: %v", st)
	}
	waitDead(t, second, "the restarted server")
	old, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(old), `\"name\":\"crash\"`) || !strings.Contains(string(old), `"signal":"KILL"`) {
		t.Errorf("the first trace lacks the crash call or the exit by KILL:\n%s", old)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(trace), "crash-restart1.jsonl")); err != nil {
		t.Errorf("the restarted session must be recorded beside the first, not over it: %v", err)
	}
}

// Case B09: the command fails at start; the user edits it in the prompt (here: to a server
// that works) and the new session connects.
func TestB09EditCommandAndRetry(t *testing.T) {
	s := inspect(t, 130, 35, "--", "sh", "-c", "echo missing API_KEY >&2; exit 1")
	s.WaitFor(t, wait, "exited with code 1")
	s.WaitFor(t, wait, "E edits the command")
	s.Send("E")
	s.WaitFor(t, wait, "restart the server")
	s.Send("C-u") // clear the prefilled command line
	s.SendText(shellwords.Join([]string{fake.Binary(t), "--scenario", "minimal"}))
	s.Send("Enter")
	screen := s.WaitFor(t, wait, "connected")
	if strings.Contains(screen, "missing API_KEY") {
		t.Errorf("the new session shows the old session's stderr:\n%s", screen)
	}
	pid := serverPID(t, s)
	s.Send("q")
	s.Wait(t, wait)
	waitDead(t, pid, "the fake server")
}

// callToolNoWait calls a tool without arguments and does not wait for a result.
func callToolNoWait(s interface {
	Send(...string)
	SendText(string)
}, tool string) {
	s.Send("1")
	s.Send("/")
	s.SendText(tool)
	s.Send("Enter")
	s.Send("Enter")
	s.Send("C-s")
}

// Roots added with R survive E: the restarted session offers them too. A local server is
// offered the working directory until roots are given (issue 27), so the list starts at one.
func TestRestartKeepsEditedRoots(t *testing.T) {
	root := t.TempDir()
	s := inspect(t, 130, 35, "--", fake.Binary(t), "--scenario", "minimal")
	s.WaitFor(t, wait, "connected")
	first := serverPID(t, s)
	s.Send("R")
	s.WaitFor(t, wait, "roots offered to the server  (1)")
	s.Send("a")
	s.SendText(root)
	s.Send("Enter")
	s.WaitFor(t, wait, "roots offered to the server  (2)")
	s.Send("Enter") // done (esc then E would read as alt+E)
	s.Send("E")
	s.WaitFor(t, wait, "restart the server")
	s.Send("Enter")
	s.WaitForFunc(t, wait, "a new session with a new server pid", func(screen string) bool {
		m := pidRe.FindStringSubmatch(screen)
		return strings.Contains(screen, "connected") && m != nil && m[1] != "" && m[1] != strconv.Itoa(first)
	})
	s.Send("R")
	screen := s.WaitFor(t, wait, "roots offered to the server  (2)")
	if !strings.Contains(screen, filepath.Base(root)) {
		t.Errorf("the kept root is not listed:\n%s", screen)
	}
	s.Send("Enter")
	s.Send("q")
	s.Wait(t, wait)
}
