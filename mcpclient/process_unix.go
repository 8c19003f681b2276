//go:build unix && !linux

package mcpclient

import "syscall"

// sysProcAttr puts the child in its own process group so the whole group can be signalled
// at shutdown.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// groupAlive reports whether process group pgid still has members.
func groupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
