package mcpclient

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// leaderSupported: caller-reads mode needs poll(2) on a descriptor (ppoll here).
const leaderSupported = true

// pollIn waits up to d for fd to be readable (or at its end: POLLHUP, POLLERR count, a read
// tells which). EINTR counts as not ready yet.
func pollIn(fd int, d time.Duration) (bool, error) {
	fds := struct {
		fd      int32
		events  int16
		revents int16
	}{fd: int32(fd), events: pollIN}
	ts := syscall.NsecToTimespec(max(int64(d), 0))
	n, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	switch {
	case e == syscall.EINTR || e == syscall.EAGAIN:
		return false, nil
	case e != 0:
		return false, e
	}
	return n > 0 && fds.revents != 0, nil
}

// pollIN is POLLIN from <poll.h>.
const pollIN = 0x1

// detach returns a descriptor of its own for f's file, in blocking mode and not registered
// with the runtime's poller (whose epoll would otherwise be told of every response), and
// closes f; the caller closes the descriptor. If the copy fails it returns f's own
// descriptor (blocking too, still known to the poller, which does no harm) and f, which
// the caller then keeps and closes instead.
func detach(f *os.File) (int, *os.File) {
	fd := int(f.Fd()) // blocking mode: the flag belongs to the open file, so a copy has it too
	nfd, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
	if e != 0 {
		return fd, f
	}
	f.Close()
	return int(nfd), nil
}
