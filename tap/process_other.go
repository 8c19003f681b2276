//go:build unix && !linux

package tap

import "syscall"

// sysProcAttr puts the server in its own process group so the whole group can be
// signalled.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// groupAlive reports whether process group pgid still has members.
func groupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
