//go:build unix

package recorder

import (
	"errors"
	"os"
	"syscall"
)

// lockShared takes a shared flock(2) on f, waiting for an exclusive one (a pruner's, held
// for the time of one unlink) to go. Errors (a file system without locks) are ignored.
func lockShared(f *os.File) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH)
		if !errors.Is(err, syscall.EINTR) {
			return
		}
	}
}

// tryLockExclusive takes an exclusive flock(2) on f without waiting; false when another
// open file holds a lock on it (a running Writer's shared one). A file system without
// locks gives true: nothing says the file is in use.
func tryLockExclusive(f *os.File) bool {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false
		}
		return true
	}
}
