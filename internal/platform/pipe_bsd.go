//go:build unix && !linux

package platform

import (
	"os"
	"syscall"
)

// rawPipe makes a close-on-exec pipe. Without pipe2(2) the flag is set after pipe(2),
// under ForkLock so no fork in between inherits the descriptors (as os.Pipe does).
func rawPipe() ([2]int, error) {
	var p [2]int
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := syscall.Pipe(p[:]); err != nil {
		return p, os.NewSyscallError("pipe", err)
	}
	syscall.CloseOnExec(p[0])
	syscall.CloseOnExec(p[1])
	return p, nil
}
