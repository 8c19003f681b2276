package platform

import (
	"syscall"
	"unsafe"
)

// writeNonblocking is write(2) on a non-blocking descriptor, made as a raw system call:
// one that cannot block needs none of the runtime's bookkeeping for a call that might (the
// hand-off of the processor), which was a tenth of a stdio call's client-side CPU for its
// two such calls. n is -1 on an error, as write(2)'s.
func writeNonblocking(fd int, b []byte) (n int, err error) { return rawIO(syscall.SYS_WRITE, fd, b) }

// readNonblocking is read(2) on a non-blocking descriptor as a raw system call (see
// writeNonblocking).
func readNonblocking(fd int, b []byte) (n int, err error) { return rawIO(syscall.SYS_READ, fd, b) }

// rawIO makes the read(2) or write(2) trap of b on fd as a raw system call.
func rawIO(trap uintptr, fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	r, _, e := syscall.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}
