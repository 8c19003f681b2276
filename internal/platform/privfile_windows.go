package platform

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/windows"
)

// Windows has no O_NOFOLLOW and its permission bits mean nothing (Go maps a mode to the
// read-only attribute alone): a file created here inherits its directory's access list,
// which MkdirPrivate/EnsurePrivateDir make the user's alone. Symlinks and junctions are
// reparse points: they are refused by Lstat first (for a clear message) and by opening
// with FILE_FLAG_OPEN_REPARSE_POINT, which opens the link itself rather than its target,
// and checking the handle's attributes (no window between the check and the open).

// CreatePrivate creates a file at path for writing, never writing through a symlink or
// junction. With replace false an existing path is refused with an error that satisfies
// errors.Is(err, fs.ErrExist) (CREATE_NEW, which Go opens with
// FILE_FLAG_OPEN_REPARSE_POINT). With replace true the new file is created under a
// temporary name in path's directory, shared for delete so that it can be renamed while
// open, and renamed over path (MoveFileEx replaces a link itself, not its target). The
// returned file's Name is then the temporary name.
func CreatePrivate(path string, replace bool) (*os.File, error) {
	if !replace {
		return os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	}
	dir, base := filepath.Split(path)
	var f *os.File
	var err error
	for try := 0; try < 100; try++ {
		f, err = createShareDelete(filepath.Join(dir, "."+base+".new-"+strconv.FormatUint(rand.Uint64(), 36)))
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
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

// createShareDelete creates a new file (never an existing one) open for reading and
// writing, shared for reading, writing and delete (a rename needs delete sharing).
func createShareDelete(name string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.CREATE_NEW, windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(h), name), nil
}

// isLink reports whether st (from Lstat) is a symlink, junction or other reparse point.
func isLink(st fs.FileInfo) bool { return st.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 }

// OpenAppendPrivate opens the file at path for appending, creating it. A symlink, junction
// or other reparse point at path is refused, never followed, and so is anything but a
// regular file. Permission bits do not apply on Windows: the file inherits the state
// directory's access list.
func OpenAppendPrivate(path string) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && (isLink(st) || !st.Mode().IsRegular()) {
		return nil, fmt.Errorf("%s is a link or not a regular file: not followed (remove it)", path)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|windows.O_FILE_FLAG_OPEN_REPARSE_POINT, 0o600)
	if err != nil {
		return nil, err
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info); err != nil {
		f.Close()
		return nil, &os.PathError{Op: "GetFileInformationByHandle", Path: path, Err: err}
	}
	if info.FileAttributes&(windows.FILE_ATTRIBUTE_REPARSE_POINT|windows.FILE_ATTRIBUTE_DIRECTORY) != 0 {
		f.Close()
		return nil, fmt.Errorf("%s is a link or not a regular file: not followed (remove it)", path)
	}
	return f, nil
}

// EnsurePrivateDir creates dir and its missing parents, or checks an existing dir: one
// another user owns is refused with a *NotOwnedError, and the user's gets the access list
// of MakePrivate (set each time; a file system without access lists is no error).
// Permission bits do not apply on Windows, so there is nothing to report: note is "".
func EnsurePrivateDir(dir string) (note string, err error) {
	if _, err := mkdirStat(dir); err != nil {
		return "", err
	}
	if ok, owner := ownedByUser(dir); !ok {
		me := "you"
		if sid, err := userSID(); err == nil {
			me = sid.String()
		}
		return "", &NotOwnedError{Dir: dir, Owner: owner, Me: me}
	}
	if err := MakePrivate(dir); err != nil && !aclUnsupported(err) {
		return "", err
	}
	return "", nil
}
