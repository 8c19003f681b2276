package recorder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Writer appends events to a trace, one line per event, each line handed to the file in a
// single write(2) as soon as the event arrives: a kill -9 of the process loses at most the
// line being written, and the reader tolerates that line. It is safe for concurrent use.
type Writer struct {
	mu     sync.Mutex
	w      io.Writer
	f      *os.File // set when the Writer owns the file
	path   string
	start  time.Time
	red    *Redactor
	buf    []byte
	err    error
	events int64
	bytes  int64
	closed bool
}

// Create creates (or truncates) the trace file at path with mode 0600, since a trace holds
// whatever the server said, and writes the header. red scrubs secrets (nil: none, and the
// header says redaction was off).
func Create(path string, h Header, red *Redactor) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	w, err := NewWriter(f, h, red)
	if err != nil {
		f.Close()
		return nil, err
	}
	w.f, w.path = f, path
	return w, nil
}

// NewWriter writes the header to out and returns a Writer appending events to it. Header
// fields Format, Version, Start and Redaction are filled in here; Argv and Env are passed
// through red. Event times are stored relative to the moment NewWriter runs.
func NewWriter(out io.Writer, h Header, red *Redactor) (*Writer, error) {
	w := &Writer{w: out, red: red, start: time.Now()}
	h.Format, h.Version = FormatName, FormatVersion
	if h.Start.IsZero() {
		h.Start = w.start
	} else {
		// Keep the caller's wall clock but our monotonic reading for offsets.
		w.start = w.start.Add(h.Start.Sub(w.start))
	}
	if h.Framing == "" {
		h.Framing = FramingNewline
	}
	h.Argv = red.Argv(h.Argv)
	h.Env = red.Env(h.Env)
	h.Cwd = red.String(h.Cwd)
	h.Redaction = Redaction{Enabled: red != nil, Items: red.Items()}
	h.Start = h.Start.UTC().Round(0)
	line, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	line = append(line, '\n')
	if _, err := out.Write(line); err != nil {
		return nil, fmt.Errorf("writing trace header: %w", err)
	}
	w.bytes = int64(len(line))
	return w, nil
}

// Path is the file the Writer writes ("" when it was given an io.Writer).
func (w *Writer) Path() string { return w.path }

// Start is the moment event offsets are measured from (the header's start).
func (w *Writer) Start() time.Time { return w.start }

// Write appends one event. After a write error every later Write returns that error.
func (w *Writer) Write(ev mcpclient.Event) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("trace writer closed")
	}
	r := recordOf(&ev, w.start)
	if w.red != nil {
		r.Raw, r.Redacted = w.red.Bytes(r.Raw)
		if r.Life != nil {
			r.Life.Text = w.red.String(r.Life.Text)
			r.Life.Err = w.red.String(r.Life.Err)
		}
	}
	w.buf = appendRecord(w.buf[:0], r)
	// One Write call per line; *os.File issues one write(2) for a regular file.
	n, err := w.w.Write(w.buf)
	w.bytes += int64(n)
	if err != nil {
		w.err = fmt.Errorf("writing trace: %w", err)
		return w.err
	}
	w.events++
	if cap(w.buf) > 1<<20 {
		w.buf = nil // do not keep a huge frame's buffer alive
	}
	return nil
}

// Observe is Write for mcpclient.Config.OnEvent, which has no error result: the first error
// is kept for Err and Close.
func (w *Writer) Observe(ev mcpclient.Event) { _ = w.Write(ev) }

// Err is the first write error, or nil.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Count returns how many events and bytes (header included) were written.
func (w *Writer) Count() (events, bytes int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.events, w.bytes
}

// Close syncs and closes the file when the Writer owns it, and returns the first error of
// the whole recording. It is idempotent.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.f != nil {
		if err := w.f.Sync(); err != nil && w.err == nil {
			w.err = err
		}
		if err := w.f.Close(); err != nil && w.err == nil {
			w.err = err
		}
	}
	return w.err
}

// CopyTo writes a copy of the trace so far (header and every event written until now, whole
// lines only) to path, mode 0600, without stopping the recording: it is how a running
// session is saved under a name of its own. It fails when the Writer was not made by Create.
func (w *Writer) CopyTo(path string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return errors.New("trace writer has no file to copy")
	}
	src, err := os.Open(w.path)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	// Holding the lock, the file ends at a line boundary: copy exactly what was written.
	if _, err := io.Copy(dst, io.LimitReader(src, w.bytes)); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
