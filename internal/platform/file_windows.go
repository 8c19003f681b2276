package platform

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// OpenFIFO opens path for reading: Windows has no FIFOs in the file system.
func OpenFIFO(path string) (*os.File, error) { return os.Open(path) }

// TempFileGone creates a temporary file in the system's temporary directory that leaves
// nothing behind: Windows deletes it when its handle closes (FILE_FLAG_DELETE_ON_CLOSE;
// an open file cannot be removed as on Unix).
func TempFileGone(pattern string) (*os.File, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return nil, err
	}
	name := f.Name()
	f.Close()
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		os.Remove(name)
		return nil, err
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_TEMPORARY|windows.FILE_FLAG_DELETE_ON_CLOSE, 0)
	if err != nil {
		os.Remove(name)
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(h), name), nil
}

// OpenRemovable opens path for reading so that it can still be removed (os.Remove)
// while this handle is open: shared for delete (os.Open's handles are not).
func OpenRemovable(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		if errors.Is(err, windows.ERROR_FILE_NOT_FOUND) || errors.Is(err, windows.ERROR_PATH_NOT_FOUND) {
			err = os.ErrNotExist
		}
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// InUse reports whether err says another process has the file open in a way that stops
// the operation (a sharing or lock violation).
func InUse(err error) bool {
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}

// MkdirPrivate creates dir and its parents, or makes an existing dir private to the user
// (EnsurePrivateDir: the access list of MakePrivate; another user's directory is refused).
// A file system without access lists (FAT, exFAT, some network shares) is no error: there
// is nothing to set.
func MkdirPrivate(dir string) error {
	_, err := EnsurePrivateDir(dir)
	return err
}

// aclUnsupported reports whether err says the file system keeps no access lists.
func aclUnsupported(err error) bool {
	return errors.Is(err, windows.ERROR_NOT_SUPPORTED) || errors.Is(err, windows.ERROR_INVALID_FUNCTION) || errors.Is(err, windows.ERROR_CALL_NOT_IMPLEMENTED)
}

// MakePrivate gives path a protected access list that grants the user alone full
// control, inherited by what a directory holds: what modes 0700 and 0600 mean on Unix
// (Windows ignores them).
func MakePrivate(path string) error {
	sid, err := userSID()
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	inherit := uint32(windows.NO_INHERITANCE)
	if st.IsDir() {
		inherit = windows.SUB_CONTAINERS_AND_OBJECTS_INHERIT
	}
	acl, err := windows.ACLFromEntries([]windows.EXPLICIT_ACCESS{{
		AccessPermissions: windows.GENERIC_ALL,
		AccessMode:        windows.GRANT_ACCESS,
		Inheritance:       inherit,
		Trustee: windows.TRUSTEE{
			TrusteeForm:  windows.TRUSTEE_IS_SID,
			TrusteeType:  windows.TRUSTEE_IS_USER,
			TrusteeValue: windows.TrusteeValueFromSID(sid),
		},
	}}, nil)
	if err != nil {
		return os.NewSyscallError("SetEntriesInAcl", err)
	}
	err = windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, acl, nil)
	if err != nil {
		return &os.PathError{Op: "SetNamedSecurityInfo", Path: path, Err: err}
	}
	return nil
}

// userSID is the SID of the user this process runs as.
func userSID() (*windows.SID, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, os.NewSyscallError("GetTokenInformation", err)
	}
	return u.User.Sid, nil
}

// ownedByUser reports whether path's owner is the user, or the Administrators group, which
// owns what an elevated process of an administrator creates. An owner that cannot be read
// counts as the user's: the directory sits in the user's profile.
func ownedByUser(path string) (bool, string) {
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return true, ""
	}
	owner, _, err := sd.Owner()
	if err != nil || owner == nil {
		return true, ""
	}
	me, err := userSID()
	if err != nil || owner.Equals(me) || owner.IsWellKnown(windows.WinBuiltinAdministratorsSid) {
		return true, ""
	}
	return false, owner.String()
}

// OwnedByUser reports whether path belongs to the user (see ownedByUser).
func OwnedByUser(path string) bool {
	ok, _ := ownedByUser(path)
	return ok
}

// CheckPrivateDir checks that dir is a real directory (not a symlink or junction) owned by
// the user.
func CheckPrivateDir(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() || st.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if ok, owner := ownedByUser(dir); !ok {
		return fmt.Errorf("%s belongs to %s, not to us", dir, owner)
	}
	return nil
}

// ProcessExists reports whether a process pid is running (one of another user counts).
func ProcessExists(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil {
		return true
	}
	return code == stillActive
}
