package platform

import (
	"os"
	"syscall"
	"unsafe"
)

// PipeUnread is how many bytes written to the pipe f (either end) its reader has not read
// yet: FIONREAD, which Linux answers on a pipe's write end too. ok is false when it cannot
// tell.
func PipeUnread(f *os.File) (n int, ok bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, false
	}
	var v int32
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&v)))
	}); err != nil || errno != 0 {
		return 0, false
	}
	return int(v), true
}
