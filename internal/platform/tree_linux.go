package platform

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// setParentDeath asks the kernel to SIGKILL the child if the inspector dies without a
// chance to clean up.
func setParentDeath(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

// groupAlive reports whether any live (non-zombie) process is left in process group pgid.
// A zombie cannot be signalled further and holds nothing, but kill(-pgid, 0) still counts
// it, and in containers whose init does not reap, zombies stay forever.
func groupAlive(pgid int) bool {
	if pgid <= 0 || syscall.Kill(-pgid, 0) != nil {
		return false
	}
	dir, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, d := range dir {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the parenthesised command: state ppid pgrp ...
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid && pid > 0 {
			return true
		}
	}
	return false
}
