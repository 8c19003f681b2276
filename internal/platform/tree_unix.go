//go:build unix

package platform

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// The shutdown ladder's words on Unix (mcpclient and tap show them on the wire).
const (
	// TerminateStep names the polite step: SIGTERM to the server's process group.
	TerminateStep = "SIGTERM"
	// KillStep names the last step: SIGKILL to the group.
	KillStep = "SIGKILL"
	// TerminateAction and KillAction say the steps as lifecycle notes do.
	TerminateAction = "sending SIGTERM to the server's process group"
	KillAction      = "sending SIGKILL to the server's process group"
	// ShutdownLadder is the whole sequence in a few words, for messages.
	ShutdownLadder = "stdin closed, then SIGTERM, then SIGKILL to its process group"
)

type treeSys struct {
	watchdog *watchdog
}

// prepare puts the child in its own process group (so the whole group can be signalled;
// a terminal's ctrl+c does not reach it past the inspector), with a parent-death signal
// where the kernel has one.
func prepare(cmd *exec.Cmd) {
	attr := &syscall.SysProcAttr{Setpgid: true}
	setParentDeath(attr)
	cmd.SysProcAttr = attr
}

func (t *Tree) adopt(*exec.Cmd) error {
	// If the inspector is killed with SIGKILL, this kills what the server forked:
	// Pdeathsig reaches only the direct child.
	t.sys.watchdog = startWatchdog(t.pid)
	return nil
}

// Terminate sends SIGTERM to the tree's process group.
func (t *Tree) Terminate() error { return t.signal(syscall.SIGTERM) }

// Kill sends SIGKILL to the tree's process group.
func (t *Tree) Kill() error { return t.signal(syscall.SIGKILL) }

// Signal forwards sig (one the inspector received, such as SIGINT or SIGHUP) to the
// tree's process group.
func (t *Tree) Signal(sig os.Signal) error {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return errors.New("not a Unix signal: " + sig.String())
	}
	return t.signal(s)
}

func (t *Tree) signal(s syscall.Signal) error {
	if t.pid <= 0 {
		return errors.New("no process group")
	}
	return syscall.Kill(-t.pid, s)
}

// Alive reports whether any live (non-zombie) process is left in the tree's group.
func (t *Tree) Alive() bool { return groupAlive(t.pid) }

// Release disarms the watchdog. Call it once the tree is gone (Alive false), so that a
// later reuse of the group id can never be hit. Safe more than once.
func (t *Tree) Release() { t.sys.watchdog.disarm() }

// watchdogScript waits for EOF on its stdin, which happens when the inspector exits in any
// way (SIGKILL included: the kernel closes the pipe), then kills the server's process group.
// It ignores the terminal's signals so a closed terminal does not disarm it.
const watchdogScript = `trap '' HUP INT TERM QUIT; read _ ; kill -KILL -"$1" 2>/dev/null; exit 0`

// watchdog is a tiny /bin/sh process outside the server's group holding the read end of a
// pipe whose write end only this process holds.
type watchdog struct {
	w *os.File
}

// startWatchdog arms a watchdog for process group pgid. It returns nil when /bin/sh cannot
// run; the session then relies on the parent-death signal (Linux) and stdin EOF alone.
func startWatchdog(pgid int) *watchdog {
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
	return &watchdog{w: w}
}

// disarm lets the watchdog exit. Safe on nil and more than once.
func (d *watchdog) disarm() {
	if d == nil {
		return
	}
	d.w.Close()
}

// Warning is always "" on Unix: the process group is the whole tree.
func (t *Tree) Warning() string { return "" }

// GroupAlive reports whether any live (non-zombie) process is left in process group pgid
// (tests check a whole group is gone with it).
func GroupAlive(pgid int) bool { return groupAlive(pgid) }
