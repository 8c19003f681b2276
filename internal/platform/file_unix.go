//go:build unix

package platform

import (
	"fmt"
	"os"
	"syscall"
)

// OpenFIFO opens a named pipe for reading without waiting for its writer: the descriptor
// is non-blocking and joins Go's poller, so reads still wait for data (and can be given
// a deadline), and with no writer at all they return EOF at once. f.Fd() would make it
// blocking again, so it must not be called.
func OpenFIFO(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// TempFileGone creates a temporary file in the system's temporary directory that leaves
// nothing behind: removed at once on Unix, where an open file stays readable and
// writable; deleted when closed on Windows.
func TempFileGone(pattern string) (*os.File, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	return f, nil
}

// OpenRemovable opens path for reading so that it can still be removed (os.Remove)
// while this handle is open: any open on Unix.
func OpenRemovable(path string) (*os.File, error) { return os.Open(path) }

// InUse reports whether err says another process has the file open in a way that stops
// the operation (Windows sharing violations); never on Unix.
func InUse(error) bool { return false }

// MkdirPrivate creates dir and its parents, or makes an existing dir private to the user
// (EnsurePrivateDir, its note dropped: a looser mode is tightened, another user's directory
// refused).
func MkdirPrivate(dir string) error {
	_, err := EnsurePrivateDir(dir)
	return err
}

// MakePrivate makes path reachable by the user alone: mode 0700 for a directory, 0600 for
// a file.
func MakePrivate(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return os.Chmod(path, 0o700)
	}
	return os.Chmod(path, 0o600)
}

// CheckPrivateDir checks that dir is a real directory (not a symlink) owned by the user
// with no access for group or others.
func CheckPrivateDir(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not to us (uid %d)", dir, sys.Uid, os.Getuid())
	}
	if st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s has mode %v; want 0700", dir, st.Mode().Perm())
	}
	return nil
}

// OwnedByUser reports whether path (not followed if a symlink) belongs to the user.
func OwnedByUser(path string) bool {
	st, err := os.Lstat(path)
	if err != nil {
		return false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	return !ok || int(sys.Uid) == os.Getuid()
}

// ProcessExists reports whether a process pid exists (kill(pid, 0) is not ESRCH; a
// process of another user counts).
func ProcessExists(pid int) bool {
	return pid > 0 && syscall.Kill(pid, 0) != syscall.ESRCH
}
