package platform

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// setParentDeath does nothing: macOS has no parent-death signal; the watchdog covers an
// inspector killed with SIGKILL.
func setParentDeath(*syscall.SysProcAttr) {}

// szomb is p_stat of a zombie (sys/proc.h).
const szomb = 5

// groupAlive reports whether any live (non-zombie) process is left in process group pgid,
// from the kernel's process table (sysctl kern.proc.pgrp): kill(-pgid, 0) would count
// zombies too.
func groupAlive(pgid int) bool {
	if pgid <= 0 || syscall.Kill(-pgid, 0) != nil {
		return false
	}
	procs, err := unix.SysctlKinfoProcSlice("kern.proc.pgrp", pgid)
	if err != nil {
		return true
	}
	for _, p := range procs {
		if p.Proc.P_stat != szomb {
			return true
		}
	}
	return false
}
