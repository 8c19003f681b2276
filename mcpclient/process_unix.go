//go:build unix && !linux

package mcpclient

import "syscall"

// sysProcAttr puts the child in its own process group so the whole group can be signalled
// at shutdown.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
