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

// detach returns a descriptor of its own for f's file, out of the runtime's poller (whose
// epoll would otherwise be told of every response), and closes f; the caller closes the
// descriptor. The file stays non-blocking, as os.Pipe made it: readers poll(2) first. If
// the copy fails it returns f's own descriptor (still known to the poller, which does no
// harm) and f, which the caller then keeps and closes instead.
func detach(f *os.File) (int, *os.File) {
	fd := -1
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(d uintptr) { fd = int(d) })
	}
	if fd < 0 {
		return int(f.Fd()), f
	}
	nfd, err := dupCloexec(fd)
	if err != nil {
		return fd, f
	}
	f.Close()
	return nfd, nil
}

// pollerFile is a copy of fd registered with the runtime's poller, for waiting until it is
// readable without a thread; closing it forgets the registration.
func pollerFile(fd int) (*os.File, error) {
	nfd, err := dupCloexec(fd)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(nfd), "server stdout"), nil
}

func dupCloexec(fd int) (int, error) {
	nfd, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
	if e != 0 {
		return -1, e
	}
	return int(nfd), nil
}
