package platform

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// Windows locks are mandatory byte-range locks: a lock on the file's bytes would stop
// writes to them, the lock holder's own included. The lock is taken on one byte far past
// any real end of file, which nothing reads or writes, so it only says "in use", as
// flock(2) does on Unix.
const lockOffsetHigh = 0x7FFFFFFF

func lockFile(f *os.File, flags uint32) error {
	var ol windows.Overlapped
	ol.OffsetHigh = lockOffsetHigh
	return windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &ol)
}

// LockShared takes a shared lock on f (LockFileEx), waiting for an exclusive one to go.
// Errors (a file system without locks) are ignored: nothing is then protected.
func LockShared(f *os.File) { _ = lockFile(f, 0) }

// TryLockExclusive takes an exclusive lock on f without waiting; false when another
// handle holds a lock on it. A file system without locks gives true. Closing f releases
// the lock.
func TryLockExclusive(f *os.File) bool {
	err := lockFile(f, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY)
	return err == nil || !errors.Is(err, windows.ERROR_LOCK_VIOLATION) && !errors.Is(err, windows.ERROR_IO_PENDING)
}

// LockExclusive takes an exclusive lock on f (LockFileEx), waiting for every other lock on
// it to go; test helpers use it so that one process of several installs or builds a shared
// thing while the others wait. Closing f releases the lock.
func LockExclusive(f *os.File) error { return lockFile(f, windows.LOCKFILE_EXCLUSIVE_LOCK) }
