//go:build unix

package platform

import (
	"os"
	"syscall"
)

// Pipe makes a pipe whose ends are blocking, except the write end when writeNonblocking:
// a blocking read end lets a forward loop wait in read(2) itself (cheaper than the
// runtime's poller on a busy machine), a non-blocking write end joins the poller so a
// Close interrupts a write to a reader that stopped reading. Both are close-on-exec.
func Pipe(writeNonblocking bool) (r, w *os.File, err error) {
	p, err := rawPipe()
	if err != nil {
		return nil, nil, err
	}
	if writeNonblocking {
		if err := syscall.SetNonblock(p[1], true); err != nil {
			syscall.Close(p[0])
			syscall.Close(p[1])
			return nil, nil, os.NewSyscallError("setnonblock", err)
		}
	}
	// NewFile registers a non-blocking descriptor with the poller, a blocking one not.
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}
