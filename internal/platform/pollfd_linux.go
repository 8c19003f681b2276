package platform

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// The system calls of mcpclient's caller-reads mode (mcpclient/leader.go).

// PollSupported: caller-reads mode needs poll(2) on a descriptor (ppoll here).
const PollSupported = true

// PollIn waits up to d for fd to be readable (or at its end: POLLHUP, POLLERR count, a read
// tells which). EINTR counts as not ready yet.
func PollIn(fd int, d time.Duration) (bool, error) {
	fds := [1]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	ts := unix.NsecToTimespec(max(int64(d), 0))
	n, err := unix.Ppoll(fds[:], &ts, nil)
	switch {
	case err == unix.EINTR || err == unix.EAGAIN:
		return false, nil
	case err != nil:
		return false, err
	}
	return n > 0 && fds[0].Revents != 0, nil
}

// ReadFD reads what fd holds into buf, retrying on EINTR; again reports that nothing was
// there yet (EAGAIN: the descriptor is non-blocking). n 0 without an error is the end. It is
// a raw system call (readNonblocking), for a descriptor PollIn found readable: one that
// might wait would hold its thread and processor with the runtime unaware.
func ReadFD(fd int, buf []byte) (n int, again bool, err error) {
	n, err = readNonblocking(fd, buf)
	for err == unix.EINTR {
		n, err = readNonblocking(fd, buf)
	}
	if err == unix.EAGAIN {
		return 0, true, nil
	}
	return n, false, err
}

// CloseFD closes a descriptor DetachFD returned.
func CloseFD(fd int) { _ = unix.Close(fd) }

// DetachFD returns a descriptor of its own for f's file, out of the runtime's poller (whose
// epoll would otherwise be told of every response), and closes f; the caller closes the
// descriptor. The file stays non-blocking, as os.Pipe made it: readers poll(2) first. If
// the copy fails it returns f's own descriptor (still known to the poller, which does no
// harm) and f, which the caller then keeps and closes instead.
func DetachFD(f *os.File) (int, *os.File) {
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

// PollerFile is a copy of fd registered with the runtime's poller, for waiting until it is
// readable without a thread; closing it forgets the registration.
func PollerFile(fd int) (*os.File, error) {
	nfd, err := dupCloexec(fd)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(nfd), "server stdout"), nil
}

func dupCloexec(fd int) (int, error) {
	return unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
}
