//go:build unix

package tmuxtest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

const timeout = 10 * time.Second

func TestReadEcho(t *testing.T) {
	s := Start(t, 40, 6, []string{"GREETING=hello there"},
		"sh", "-c", `echo "ready $GREETING"; read x; echo "got $x"; read y; echo "bye $y"`)
	s.WaitFor(t, timeout, "ready hello there")
	s.SendText("one two")
	s.Send("Enter")
	screen := s.WaitFor(t, timeout, "got one two")
	if lines := strings.Split(strings.TrimSuffix(screen, "\n"), "\n"); len(lines) != 6 {
		t.Errorf("screen has %d lines, want 6 (no status line):\n%s", len(lines), screen)
	}
	// Key names in SendText are typed literally, and text that looks like
	// an option is not taken as one.
	s.SendText("-l Enter")
	s.Send("Enter")
	s.WaitFor(t, timeout, "bye -l Enter")
	if st := s.Wait(t, timeout); st != (ExitStatus{Code: 0}) {
		t.Errorf("exit = %v, want exit status 0", st)
	}
	if s.Alive() {
		t.Error("Alive after exit")
	}
	// remain-on-exit: the dead program's screen is still there, unscrolled.
	screen = s.Screen()
	if !strings.HasPrefix(screen, "ready hello there\n") || !strings.Contains(screen, "bye -l Enter") {
		t.Errorf("screen after exit:\n%s", screen)
	}
}

func TestExitCodeAndSignal(t *testing.T) {
	s := Start(t, 40, 5, nil, "sh", "-c", "echo failing; exit 3")
	if st := s.Wait(t, timeout); st != (ExitStatus{Code: 3}) {
		t.Errorf("exit = %v, want exit status 3", st)
	}
	s.WaitFor(t, timeout, "failing")

	s = Start(t, 40, 5, nil, "sh", "-c", "echo dying; kill -TERM $$")
	if st := s.Wait(t, timeout); st != (ExitStatus{Code: -1, Signal: int(platformtest.SIGTERM)}) {
		t.Errorf("exit = %v, want killed by SIGTERM", st)
	}
	s.WaitFor(t, timeout, "dying")
}

func TestKeysAndCtrlC(t *testing.T) {
	// cat echoes what it reads; C-c interrupts it.
	s := Start(t, 40, 5, nil, "cat")
	if pid := s.PID(); pid <= 0 || !platformtest.Alive(pid) {
		t.Fatalf("PID %d is not a live process", pid)
	}
	if !s.Alive() {
		t.Error("not Alive")
	}
	s.SendText("abc")
	s.Send("Tab", "x", "Enter")
	// capture-pane renders the tab as spaces to the next tab stop.
	s.WaitFor(t, timeout, "abc     x\nabc     x")
	s.WaitGone(t, timeout, "nothing such")
	s.Send("C-c")
	if st := s.Wait(t, timeout); st.Signal != int(platformtest.SIGINT) {
		t.Errorf("exit = %v, want killed by SIGINT", st)
	}
}

func TestWaitGoneAndResize(t *testing.T) {
	s := StartWith(t, Options{Width: 30, Height: 4, Term: "xterm-256color"},
		"sh", "-c", `echo "term $TERM"; echo busy; read x; clear; echo "size $(stty size)"; read y`)
	s.WaitFor(t, timeout, "term xterm-256color")
	s.Send("Enter")
	s.WaitGone(t, timeout, "busy")
	s.WaitFor(t, timeout, "size 4 30")
	s.Resize(50, 8)
	if got := s.WaitForFunc(t, timeout, "8 rows", func(screen string) bool {
		return strings.Count(screen, "\n") == 8
	}); !strings.Contains(got, "size 4 30") {
		t.Errorf("screen after resize:\n%s", got)
	}
}

func TestSingleArgumentIsNotShellSplit(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "a script; with spaces")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"ran in $(pwd)\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := StartWith(t, Options{Dir: dir}, script)
	if st := s.Wait(t, timeout); st.Code != 0 {
		t.Fatalf("exit = %v; screen:\n%s", st, s.Screen())
	}
	s.WaitFor(t, timeout, "ran in "+dir)
}

func TestExecFailure(t *testing.T) {
	s := Start(t, 60, 5, nil, "/nonexistent/program", "arg")
	if st := s.Wait(t, timeout); st != (ExitStatus{Code: 127}) {
		t.Errorf("exit = %v, want exit status 127", st)
	}
	if s.PID() != 0 {
		t.Errorf("PID = %d, want 0", s.PID())
	}
	s.WaitFor(t, timeout, "/nonexistent/program")
}

// TestLastOutputKept runs programs that print and exit at once, many times:
// the screen must always hold their last output.
func TestLastOutputKept(t *testing.T) {
	for i := range 10 {
		s := Start(t, 40, 5, nil, "sh", "-c", "echo line "+strconv.Itoa(i)+"; printf 'no newline'; exit 5")
		if st := s.Wait(t, timeout); st != (ExitStatus{Code: 5}) {
			t.Errorf("exit = %v, want exit status 5", st)
		}
		if screen := s.Screen(); !strings.Contains(screen, "line "+strconv.Itoa(i)+"\nno newline") {
			t.Fatalf("run %d lost output:\n%s", i, frame(screen))
		}
	}
}

func TestCleanupKillsProgram(t *testing.T) {
	var pid int
	var socket string
	t.Run("session", func(t *testing.T) {
		// The program ignores SIGHUP, so only the process-group SIGKILL
		// of the cleanup ends it.
		s := Start(t, 40, 5, nil, "sh", "-c", `trap "" HUP; echo up; while :; do sleep 1; done`)
		s.WaitFor(t, timeout, "up")
		pid, socket = s.PID(), s.socket
	})
	deadline := time.Now().Add(timeout)
	for platformtest.Alive(pid) && !isZombie(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("pane process %d still alive after cleanup", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(socket); !os.IsNotExist(err) {
		t.Errorf("socket %s left behind: %v", socket, err)
	}
}

// isZombie reports whether pid has exited but not been reaped yet.
func isZombie(pid int) bool { return platformtest.Alive(pid) && !platformtest.Running(pid) }
