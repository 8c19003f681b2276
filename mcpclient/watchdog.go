package mcpclient

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// watchdogScript waits for EOF on its stdin, which happens when the inspector exits in any
// way (SIGKILL included: the kernel closes the pipe), and then kills the server's process
// group. It ignores the terminal's signals so a closed terminal does not disarm it.
const watchdogScript = `trap '' HUP INT TERM QUIT; read _ ; kill -KILL -"$1" 2>/dev/null; exit 0`

// watchdog is a tiny /bin/sh process outside the server's group that holds the read end of a
// pipe whose write end only this process holds. Pdeathsig reaches only the direct child, so
// without it a server's own children (npx → node, uvx → python) would outlive an inspector
// killed with SIGKILL.
type watchdog struct {
	w   *os.File
	cmd *exec.Cmd
}

// startWatchdog arms a watchdog for process group pgid; nil when /bin/sh cannot run (the
// session then relies on Pdeathsig and stdin EOF alone).
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
	return &watchdog{w: w, cmd: cmd}
}

// disarm lets the watchdog exit. Called once the group is gone, so that a later reuse of the
// group id can never be hit.
func (d *watchdog) disarm() {
	if d == nil {
		return
	}
	d.w.Close()
}
