package platformtest

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// OpenPty opens a new pseudo-terminal pair (/dev/ptmx, unlocked, and its /dev/pts/N), neither
// becoming the controlling terminal.
func OpenPty() (ptm, pts *os.File, err error) {
	ptm, err = os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		ptm.Close()
		return nil, nil, err
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		ptm.Close()
		return nil, nil, err
	}
	pts, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		ptm.Close()
		return nil, nil, err
	}
	return ptm, pts, nil
}

// SeqpacketPair is a connected pair of AF_UNIX SOCK_SEQPACKET sockets (close-on-exec):
// each write is read as one message, so a test can see a child's writes one by one.
func SeqpacketPair() (a, b int, err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, -1, err
	}
	return fds[0], fds[1], nil
}
