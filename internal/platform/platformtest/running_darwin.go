package platformtest

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// Running reports whether process pid exists and is no zombie.
func Running(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	p, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return true
	}
	return p.Proc.P_stat != 5 // SZOMB, sys/proc.h
}
