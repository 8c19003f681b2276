package testservers

import "syscall"

// setParentDeathSignal has the kernel kill the server if the test process
// dies without running its cleanups (a panic, a timeout, SIGKILL).
func setParentDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}
