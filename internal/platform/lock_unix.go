//go:build unix

package platform

import (
	"errors"
	"os"
	"syscall"
)

// LockShared takes a shared advisory lock on f (flock(2)), waiting for an exclusive one to
// go. Errors (a file system without locks) are ignored: nothing is then protected.
func LockShared(f *os.File) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH)
		if !errors.Is(err, syscall.EINTR) {
			return
		}
	}
}

// TryLockExclusive takes an exclusive advisory lock on f without waiting; false when
// another open file holds a lock on it. A file system without locks gives true: nothing
// says the file is in use. Closing f releases the lock.
func TryLockExclusive(f *os.File) bool {
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

// LockExclusive takes an exclusive advisory lock on f (flock(2)), waiting for every other
// lock on it to go; test helpers use it so that one process of several installs or builds a
// shared thing while the others wait. Closing f releases the lock. The error is flock's
// (a file system without locks).
func LockExclusive(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
