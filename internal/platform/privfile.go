package platform

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// The rule for every file mcp-inspect writes that holds what a server said (traces, kept
// and saved sessions, exports, its log) or a copy of it: it is created private to the user
// (CreatePrivate, OpenAppendPrivate), never written through a symlink someone planted, and
// an existing file is replaced by renaming a new one over it, so the old file's owner and
// mode do not carry over and a link's target is left untouched.

// NotOwnedError is EnsurePrivateDir's refusal of a directory another user owns: it cannot
// be made private, so mcp-inspect writes nothing in it.
type NotOwnedError struct {
	// Dir is the directory; Owner is who owns it ("uid 0"; a SID on Windows) and Me the
	// user mcp-inspect runs as, in the same form.
	Dir, Owner, Me string
	// Mode is the directory's permission bits (0 where they mean nothing: Windows).
	Mode fs.FileMode
}

func (e *NotOwnedError) Error() string {
	s := fmt.Sprintf("%s belongs to %s, not to you (%s)", e.Dir, e.Owner, e.Me)
	if e.Mode != 0 {
		s += fmt.Sprintf(" and has mode %#o", e.Mode)
	}
	return s
}

// replaceError reports a failed replacement of path by a new file: the temporary name is
// an implementation detail, so the error names path alone.
func replaceError(op, path string, err error) error {
	var pe *os.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &os.PathError{Op: op, Path: path, Err: err}
}

// tempPattern is the os.CreateTemp pattern of the new file that replaces path: hidden, in
// path's directory (a rename never crosses file systems).
func tempPattern(base string) string { return "." + base + ".new-*" }
