// Package boundedfile reads the small files a user names (--config, --args @FILE, a config's
// envFile) without hanging and without unbounded memory (issue 15): a regular file is read
// up to a limit, a pipe or FIFO is opened without waiting for a writer and read up to the
// limit, and anything else (a terminal, /dev/zero, a socket, a directory) is refused at once
// with a message that says why.
package boundedfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// ErrTooLarge is returned (wrapped) when a file holds more than the limit.
var ErrTooLarge = errors.New("larger than the limit")

// ErrNotRegular is returned (wrapped) for a path that is neither a regular file nor a pipe.
var ErrNotRegular = errors.New("not a regular file")

// ErrNoWriter is returned (wrapped) for a FIFO that had no writer when it was opened.
var ErrNoWriter = errors.New("a FIFO with no writer")

// Open opens path for reading without blocking: a FIFO is opened whether or not a writer is
// there (a FIFO without a writer then reads as empty at once). isPipe reports a pipe or FIFO.
// Paths that are neither regular files nor pipes are refused with ErrNotRegular.
func Open(path string) (f *os.File, isPipe bool, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, false, err
	}
	switch m := st.Mode(); {
	case m.IsRegular():
		f, err = os.Open(path)
		return f, false, err
	case m&os.ModeNamedPipe != 0:
		// Non-blocking, the descriptor joins Go's poller: reads still wait for data (and
		// can be given a deadline), and with no writer at all they return EOF at once.
		// f.Fd() would make it blocking again, so it is never called.
		f, err = platform.OpenFIFO(path)
		if err != nil {
			return nil, true, err
		}
		return f, true, nil
	default:
		return nil, false, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(m))
	}
}

// kind names a file mode for a message.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeCharDevice != 0:
		return "a character device, such as a terminal or /dev/zero"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// Read reads all of path, at most limit bytes: more is ErrTooLarge, and only limit+1 bytes
// are ever read. An empty FIFO (no writer when opened) is ErrNoWriter.
// A FIFO whose writer goes PipeIdle without writing is ErrPipeSilent, not a wait forever.
func Read(path string, limit int64) ([]byte, error) { return read(path, limit, PipeIdle) }

// PipeIdle is how long Read waits for a pipe's writer to write more. Settings, arguments
// and env files are small and written at once (`<(cat x)`); a writer that holds the pipe
// open and writes nothing would otherwise hang the command before it says anything.
const PipeIdle = 5 * time.Second

// ErrPipeSilent is returned (wrapped) when a pipe's writer wrote nothing for PipeIdle
// without closing the pipe.
var ErrPipeSilent = errors.New("the pipe's writer went silent")

func read(path string, limit int64, idle time.Duration) ([]byte, error) {
	f, isPipe, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	ir := &idleReader{f: f, idle: idle}
	if isPipe {
		r = ir
	}
	data, err := ReadAll(r, limit)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		what := "wrote nothing"
		if ir.n > 0 {
			what = fmt.Sprintf("wrote %s, then nothing more and did not close the pipe", Size(ir.n))
		}
		return nil, fmt.Errorf("%s: %w: it %s for %s; refused (give a regular file, or a writer that writes at once and closes)", path, ErrPipeSilent, what, idle)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if isPipe && len(data) == 0 {
		return nil, fmt.Errorf("%s: %w: nothing to read (a FIFO is read only when its writer is already there)", path, ErrNoWriter)
	}
	return data, nil
}

// ReadAll reads r to EOF, at most limit bytes: more is ErrTooLarge.
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w of %s: refused", ErrTooLarge, Size(limit))
	}
	return data, nil
}

// Size formats a byte count for a message (KiB, MiB).
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// idleReader reads f with a fresh deadline of idle before each read; n counts the bytes.
type idleReader struct {
	f    *os.File
	idle time.Duration
	n    int64
}

func (r *idleReader) Read(p []byte) (int, error) {
	if err := r.f.SetReadDeadline(time.Now().Add(r.idle)); err != nil {
		return 0, err
	}
	n, err := r.f.Read(p)
	r.n += int64(n)
	return n, err
}
