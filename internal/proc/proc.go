// Package proc is the process hygiene every spawned server gets, shared by mcpclient (the
// TUI and headless sessions) and tap: its own process group, a parent-death signal, a
// watchdog for the group, liveness checks that ignore zombies, and exit statuses in words.
// MCP 2025-11-25 basic/lifecycle §Shutdown (stdio): close stdin, wait, SIGTERM, wait, SIGKILL.
package proc

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ExitStatus turns cmd.Wait's result into an exit code (-1 when a signal ended the process)
// and that signal (0 when none).
func ExitStatus(cmd *exec.Cmd, err error) (int, syscall.Signal) {
	st := cmd.ProcessState
	if st == nil {
		return -1, 0
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, ws.Signal()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), 0
	}
	return st.ExitCode(), 0
}

// SignalName names a signal the way the status bar shows it: "KILL", "TERM", "SEGV".
func SignalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "KILL"
	case syscall.SIGTERM:
		return "TERM"
	case syscall.SIGINT:
		return "INT"
	case syscall.SIGHUP:
		return "HUP"
	case syscall.SIGSEGV:
		return "SEGV"
	case syscall.SIGABRT:
		return "ABRT"
	case syscall.SIGPIPE:
		return "PIPE"
	case syscall.SIGQUIT:
		return "QUIT"
	case syscall.SIGBUS:
		return "BUS"
	}
	return strings.ToUpper(s.String())
}

// WaitGroupGone polls until no live process of group pgid is left, for at most d; it
// reports whether the group is gone.
func WaitGroupGone(pgid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for GroupAlive(pgid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// watchdogScript waits for EOF on its stdin, which happens when the inspector exits in any
// way (SIGKILL included: the kernel closes the pipe), then kills the server's process group.
// It ignores the terminal's signals so a closed terminal does not disarm it.
const watchdogScript = `trap '' HUP INT TERM QUIT; read _ ; kill -KILL -"$1" 2>/dev/null; exit 0`

// Watchdog is a tiny /bin/sh process outside the server's group holding the read end of a
// pipe whose write end only this process holds. Pdeathsig reaches only the direct child, so
// without it a server's own children (npx → node, uvx → python) would outlive an inspector
// killed with SIGKILL.
type Watchdog struct {
	w *os.File
}

// StartWatchdog arms a watchdog for process group pgid. It returns nil when /bin/sh cannot
// run; the session then relies on the parent-death signal and stdin EOF alone.
func StartWatchdog(pgid int) *Watchdog {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	cmd := exec.Command("/bin/sh", "-c", watchdogScript, "mcp-inspect-watchdog", strconv.Itoa(pgid))
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil
	}
	r.Close()
	go func() { _ = cmd.Wait() }()
	return &Watchdog{w: w}
}

// Disarm lets the watchdog exit. Call it once the group is gone, so that a later reuse of
// the group id can never be hit. Safe on nil and more than once.
func (d *Watchdog) Disarm() {
	if d == nil {
		return
	}
	d.w.Close()
}
