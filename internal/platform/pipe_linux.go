package platform

import (
	"os"
	"syscall"
)

// rawPipe makes a close-on-exec pipe in one system call.
func rawPipe() ([2]int, error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return p, os.NewSyscallError("pipe2", err)
	}
	return p, nil
}
