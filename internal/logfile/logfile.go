// Package logfile is the inspector's own log file: it rotates at a size (the full file
// becomes FILE.1, replacing an older one) and no record holds a whole huge value, so a 300 MB
// argument or message cannot make a 600 MB log (issue 15).
package logfile

import (
	"fmt"
	"log/slog"
	"os"
	"sync"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// MaxSize is the size at which the log rotates (8 MiB).
const MaxSize = 8 << 20

// MaxValue is the longest string value a record keeps (4 KiB); the rest is replaced by a
// note with the full length.
const MaxValue = 4 << 10

// Writer appends to a log file and rotates it at a size. It is safe for concurrent use.
type Writer struct {
	mu   sync.Mutex
	path string
	max  int64
	f    *os.File
	size int64
}

// Open opens (creating, mode 0600) the log at path for appending; it rotates once the file
// would pass max bytes. A symlink at path (one planted in the state directory) is refused,
// never followed, and so is anything but a regular file of the user's
// (platform.OpenAppendPrivate).
func Open(path string, max int64) (*Writer, error) {
	f, err := platform.OpenAppendPrivate(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Writer{path: path, max: max, f: f, size: st.Size()}, nil
}

// Write appends p, rotating first when the file would pass its size.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return 0, os.ErrClosed
	}
	if w.size > 0 && w.size+int64(len(p)) > w.max {
		w.rotate()
		if w.f == nil {
			return 0, os.ErrClosed
		}
	}
	n, err := w.f.Write(p)
	w.size += int64(n)
	return n, err
}

// rotate renames the file to path.1 and starts a new one; on failure it goes on appending.
// The file is closed before the rename: Windows cannot rename a file that is open.
func (w *Writer) rotate() {
	w.f.Close()
	reopen := func() bool {
		f, err := platform.OpenAppendPrivate(w.path)
		if err != nil {
			return false
		}
		w.f = f
		return true
	}
	if err := os.Rename(w.path, w.path+".1"); err != nil {
		if !reopen() {
			w.f = nil
		}
		return
	}
	if reopen() {
		w.size = 0
		return
	}
	// Keep writing to the renamed file.
	f, err := platform.OpenAppendPrivate(w.path + ".1")
	if err != nil {
		w.f = nil
		return
	}
	w.f = f
}

// Close closes the file.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	return err
}

// Truncate returns s cut to at most max bytes (on a character boundary) with a note giving
// the full length, or s itself when it is short enough.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes in all)", s[:cut], len(s))
}

// ReplaceAttr is a slog.HandlerOptions.ReplaceAttr that cuts string values (the message
// included) and other values' text to MaxValue bytes.
func ReplaceAttr(_ []string, a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindString:
		if s := a.Value.String(); len(s) > MaxValue {
			return slog.String(a.Key, Truncate(s, MaxValue))
		}
	case slog.KindAny:
		if s := fmt.Sprint(a.Value.Any()); len(s) > MaxValue {
			return slog.String(a.Key, Truncate(s, MaxValue))
		}
	}
	return a
}
