package mcpclient

import "syscall"

// sysProcAttr puts the child in its own process group (so the whole group can be signalled at
// shutdown; npx- and uvx-launched servers fork grandchildren) and asks the kernel to kill it
// if the inspector dies without a chance to clean up.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
