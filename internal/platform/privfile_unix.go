//go:build unix

package platform

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// CreatePrivate creates a file at path for writing, mode 0600, never writing through a
// symlink. With replace false an existing path (a file, a directory, a symlink, even a
// dangling one) is refused with an error that satisfies errors.Is(err, fs.ErrExist)
// (O_CREAT|O_EXCL, which does not follow links). With replace true the new file is created
// under a temporary name in path's directory and renamed over path: whatever was there is
// replaced, never written to (a file keeps its owner and mode elsewhere, and a symlink's
// target is left untouched); in a sticky directory such as /tmp another user's file cannot
// be replaced, and that is an error. The returned file's Name is then the temporary name.
func CreatePrivate(path string, replace bool) (*os.File, error) {
	if !replace {
		return os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|syscall.O_NOFOLLOW, 0o600)
	}
	f, err := os.CreateTemp(filepath.Dir(path), tempPattern(filepath.Base(path))) // O_EXCL, 0600
	if err != nil {
		return nil, replaceError("create", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, replaceError("replace", path, err)
	}
	return f, nil
}

// OpenAppendPrivate opens the file at path for appending, creating it with mode 0600. A
// symlink at path is refused, never followed (O_NOFOLLOW), and so is anything but a
// regular file of the user's (a FIFO is refused without waiting for a reader:
// O_NONBLOCK); a file of the user's that others can reach is made 0600.
func OpenAppendPrivate(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) { // EMLINK: FreeBSD's O_NOFOLLOW
			return nil, fmt.Errorf("%s is a symbolic link: not followed (remove it)", path)
		}
		if errors.Is(err, syscall.ENXIO) {
			return nil, fmt.Errorf("%s is a FIFO, not a file (remove it)", path)
		}
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (remove it)", path)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		f.Close()
		return nil, fmt.Errorf("%s belongs to uid %d, not to you (uid %d): not written (remove it)", path, sys.Uid, os.Getuid())
	}
	if st.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// EnsurePrivateDir creates dir and its missing parents (mode 0700), or checks an existing
// dir (a symlink to one is followed): one another user owns is refused with a
// *NotOwnedError, and one of the user's that group or others can reach is tightened to
// 0700 and note says so ("tightened DIR from 0777 to 0700"; "" when nothing changed).
func EnsurePrivateDir(dir string) (note string, err error) {
	st, err := mkdirStat(dir)
	if err != nil {
		return "", err
	}
	perm := st.Mode().Perm()
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return "", &NotOwnedError{Dir: dir, Owner: "uid " + strconv.Itoa(int(sys.Uid)), Me: "uid " + strconv.Itoa(os.Getuid()), Mode: perm}
	}
	if perm&0o077 == 0 {
		return "", nil
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return "", err
	}
	return fmt.Sprintf("tightened %s from %#o to 0700", dir, perm), nil
}
