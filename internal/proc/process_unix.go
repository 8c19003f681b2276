//go:build unix && !linux

package proc

import "syscall"

// SysProcAttr puts the child in its own process group so the whole group can be signalled
// at shutdown.
func SysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// GroupAlive reports whether process group pgid still has members.
func GroupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
