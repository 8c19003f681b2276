package tap

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// sysProcAttr puts the server in its own process group, so the whole group (npx- and
// uvx-launched servers fork grandchildren) can be signalled, and asks the kernel to kill it
// if the tap dies without a chance to clean up. It is mcpclient's process hygiene.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// groupAlive reports whether any live (non-zombie) process is left in process group pgid.
// kill(-pgid, 0) alone counts zombies, which containers whose init does not reap keep
// forever.
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	dir, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, d := range dir {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		// Fields after the parenthesised command: state ppid pgrp ...
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			return true
		}
	}
	return false
}
