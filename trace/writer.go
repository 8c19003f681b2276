package trace

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Writer appends events to a trace, one line per event, each line handed to the file in a
// single write(2) as soon as the event arrives (a frame over 1 MiB in pieces of 1 MiB, so
// it is not copied whole): a kill -9 of the process loses at most the line being written,
// and the reader tolerates that line. It is safe for concurrent use.
type Writer struct {
	mu     sync.Mutex
	w      io.Writer
	f      *os.File // set when the Writer owns the file
	path   string
	start  time.Time
	red    *Redactor
	buf    []byte
	runAt  []int64 // WriteAll: where each line of the run in buf starts
	err    error
	events int64
	bytes  int64
	closed bool
	// live is the index of the lines written, for EventBySeq (nil until IndexEvents).
	live *liveIndex
	// hdrStart and overHTTP are what reading a line back needs from the header.
	hdrStart time.Time
	overHTTP bool
	// rec is the record of the event being written (one, reused); stamp caches its time
	// stamp's text.
	rec   Record
	stamp wallStamp
}

// Create creates the trace file at path with mode 0600, since a trace holds whatever the
// server said, and writes the header. An existing file at path is replaced, never written
// through: the trace is a new file renamed over it (CreateFile), so a symlink there is
// replaced and its target left untouched, and the old file's owner and mode do not carry
// over. The file is marked running (MarkRunning) until Close, so PruneSessions never
// removes it meanwhile. red scrubs secrets (nil: none, and the header says redaction was
// off). CreateNew is the same but never replaces a file.
func Create(path string, h Header, red *Redactor) (*Writer, error) {
	return create(path, true, h, red)
}

// CreateNew is Create for a file that must not exist yet: it is created with O_EXCL, so an
// existing file (or a symlink, even a dangling one) is never replaced, and the error then
// satisfies errors.Is(err, fs.ErrExist).
func CreateNew(path string, h Header, red *Redactor) (*Writer, error) {
	return create(path, false, h, red)
}

// CreateFile creates the file of a trace at path, mode 0600, and marks it running
// (MarkRunning): platform.CreatePrivate, which never writes through a symlink; replace says
// whether an existing file at path is replaced (by a new file renamed over it) or refused
// with an error that satisfies errors.Is(err, fs.ErrExist). It is for writers of traces
// other than Writer (the tap); the file's Name may be a temporary name, not path.
func CreateFile(path string, replace bool) (*os.File, error) {
	f, err := platform.CreatePrivate(path, replace)
	for try := 0; err == nil && !MarkRunning(f, path) && try < 3; try++ {
		f.Close() // a pruner removed it before the lock: the name is free again
		f, err = platform.CreatePrivate(path, replace)
	}
	return f, err
}

func create(path string, replace bool, h Header, red *Redactor) (*Writer, error) {
	f, err := CreateFile(path, replace)
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
	h.URL = red.URL(h.URL)
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
	w.hdrStart, w.overHTTP = h.Start, h.Transport != ""
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
	if err := w.usableLocked(); err != nil {
		return err
	}
	r := w.recordLocked(&ev)
	at := w.bytes
	if err := w.writeLine(r); err != nil {
		w.err = fmt.Errorf("writing trace: %w", err)
		return w.err
	}
	w.events++
	if w.live != nil {
		w.live.add(ev.Seq, at)
	}
	if cap(w.buf) > 1<<20 {
		w.buf = nil // do not keep a huge frame's buffer alive
	}
	return nil
}

// WriteAll appends a run of events, in order, with one write for all of them (the lines
// Write would write, byte for byte; a frame over pieceSize still goes in pieces of its
// own). A kill -9 then loses at most the run being written, whose last line the reader
// tolerates if cut. After a write error every later write returns that error.
func (w *Writer) WriteAll(evs []mcpclient.Event) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usableLocked(); err != nil {
		return err
	}
	w.buf = w.buf[:0]
	w.runAt = w.runAt[:0] // each buffered line's offset from the run's start
	for i := range evs {
		r := w.recordLocked(&evs[i])
		if len(r.Raw) > pieceSize && utf8.Valid(r.Raw) {
			// Written in pieces by writeLine, after what the run holds so far.
			if err := w.flushRunLocked(evs[i-len(w.runAt) : i]); err != nil {
				return err
			}
			at := w.bytes
			if err := w.writeLine(r); err != nil {
				w.err = fmt.Errorf("writing trace: %w", err)
				return w.err
			}
			w.events++
			if w.live != nil {
				w.live.add(evs[i].Seq, at)
			}
			w.buf = w.buf[:0]
			continue
		}
		w.runAt = append(w.runAt, int64(len(w.buf)))
		w.buf = appendRecord(w.buf, r, &w.stamp)
	}
	err := w.flushRunLocked(evs[len(evs)-len(w.runAt):])
	if cap(w.buf) > 1<<20 {
		w.buf = nil // do not keep a huge frame's buffer alive
	}
	return err
}

// flushRunLocked writes the lines buffered in w.buf, those of evs (w.runAt holds where
// each starts), in one write, and counts and indexes them.
func (w *Writer) flushRunLocked(evs []mcpclient.Event) error {
	if len(w.runAt) == 0 {
		return nil
	}
	base := w.bytes
	n, err := w.w.Write(w.buf)
	w.bytes += int64(n)
	if err != nil {
		w.err = fmt.Errorf("writing trace: %w", err)
		return w.err
	}
	w.events += int64(len(w.runAt))
	if w.live != nil {
		for i, at := range w.runAt {
			w.live.add(evs[i].Seq, base+at)
		}
	}
	w.buf, w.runAt = w.buf[:0], w.runAt[:0]
	return nil
}

// usableLocked is the error a write meets first: an earlier one, or the Writer closed.
func (w *Writer) usableLocked() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("trace writer closed")
	}
	return nil
}

// recordLocked is ev's record as the trace keeps it: times from the start, secrets
// redacted.
func (w *Writer) recordLocked(ev *mcpclient.Event) *Record {
	r := &w.rec
	fillRecord(r, ev, w.start)
	if w.red == nil {
		return r
	}
	if ev.Dir == mcpclient.HTTPOut && ev.Kind == mcpclient.KindHTTPRequest {
		w.red.Learn(r.Raw) // a credential obtained since the start (OAuth) is known from here on
	}
	r.Raw, r.Redacted = w.red.Bytes(r.Raw)
	if ev.Dir == mcpclient.HTTPOut || ev.Dir == mcpclient.HTTPIn {
		if raw, ok := HTTPHead(r.Raw); ok {
			r.Raw = raw
			r.Redacted = appendOnce(r.Redacted, "http-credential-header")
		}
		if raw, ok := OAuthCredentials(r.Raw); ok {
			r.Raw = raw
			r.Redacted = appendOnce(r.Redacted, "oauth-credential")
		}
	}
	if ev.Kind == mcpclient.KindHTTPEncoded && len(r.Raw) > 0 && w.red.encodedSecret(r) {
		// Compressed, a secret is not found by matching; decoded, it is: then the
		// bytes as received are not kept (the decoded body, redacted, is).
		r.Raw, r.Truncated = nil, true
		r.Redacted = appendOnce(r.Redacted, "encoded-body-secret")
	}
	if r.Life != nil {
		r.Life.Text = w.red.String(r.Life.Text)
		r.Life.Err = w.red.String(r.Life.Err)
	}
	return r
}

// pieceSize is the most of a frame's bytes one write of a trace line carries: a line over it
// is encoded and written in pieces, so a huge frame is not copied whole into the line.
const pieceSize = 1 << 20

// writeLine encodes r and writes its line: in one Write call (one write(2) for a regular
// file) unless its raw bytes are over pieceSize and valid UTF-8; then in pieces of about
// pieceSize, each of whole characters. A kill -9 cuts at most that line, the last one,
// which the reader tolerates. It counts what was written in w.bytes.
func (w *Writer) writeLine(r *Record) error {
	write := func(b []byte) error {
		n, err := w.w.Write(b)
		w.bytes += int64(n)
		return err
	}
	if len(r.Raw) <= pieceSize || !utf8.Valid(r.Raw) {
		w.buf = appendRecord(w.buf[:0], r, &w.stamp)
		return write(w.buf)
	}
	w.buf = append(appendRecordHead(w.buf[:0], r, &w.stamp), '"')
	for raw := r.Raw; len(raw) > 0; {
		n := min(pieceSize, len(raw))
		for n < len(raw) && !utf8.RuneStart(raw[n]) {
			n++ // a character is never split: U+2028 must be seen whole to be escaped
		}
		w.buf = appendJSONChars(w.buf, raw[:n])
		raw = raw[n:]
		if len(raw) == 0 {
			break
		}
		if err := write(w.buf); err != nil {
			return err
		}
		w.buf = w.buf[:0]
	}
	w.buf = appendRecordTail(append(w.buf, '"'), r)
	return write(w.buf)
}

// Observe is Write for mcpclient.Config.OnEvent, which has no error result: the first error
// is kept for Err and Close.
func (w *Writer) Observe(ev mcpclient.Event) { _ = w.Write(ev) }

// ObserveAll is WriteAll for mcpclient.Config.OnEvents (one write per run of events), the
// first error kept as Observe keeps it.
func (w *Writer) ObserveAll(evs []mcpclient.Event) { _ = w.WriteAll(evs) }

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
	w.live.close()
	return w.err
}

// CopyTo writes a copy of the trace so far (header and every event written until now, whole
// lines only) to path, mode 0600, without stopping the recording: it is how a running
// session is saved under a name of its own. path must not exist (O_EXCL: an error that
// satisfies errors.Is(err, fs.ErrExist) otherwise, and the file is left as it was). It
// fails when the Writer was not made by Create or CreateNew.
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
	dst, err := platform.CreatePrivate(path, false)
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

// appendJSONString appends s, valid UTF-8, as a JSON string. Only what JSON requires is
// escaped (plus U+2028/U+2029 for JavaScript readers), so the stored text is the wire text.
// Every recorded byte passes through here, so it looks at eight bytes at a time and jumps
// straight to the next byte that needs a look: a JSON frame has a '"' every few bytes.
func appendJSONString(b, s []byte) []byte {
	b = append(b, '"')
	b = appendJSONChars(b, s)
	return append(b, '"')
}

// appendJSONChars appends s escaped as the inside of a JSON string (appendJSONString
// without the quotes). Eight bytes at a time are stored whole and kept up to the first that
// needs a look, so the runs between a frame's many quotes cost no copy call each.
func appendJSONChars(b, s []byte) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			if cap(b)-len(b) < 8 {
				b = slices.Grow(b, len(s)-i+16)
			}
			w := binary.LittleEndian.Uint64(s[i:])
			n := len(b)
			b = b[:n+8]
			binary.LittleEndian.PutUint64(b[n:], w)
			m := specialBytes(w)
			if m == 0 {
				i += 8
				continue
			}
			k := bits.TrailingZeros64(m) >> 3 // the first byte that needs a look
			b = b[:n+k]
			i += k
		}
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 0x20 && c != '"' && c != '\\':
				b = append(b, c)
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == '\u2028' || r == '\u2029' {
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return b
}

// specialBytes marks (with its high bit) each byte of the little-endian word x that is a
// control character (< 0x20), '"', '\\' or not ASCII. These "has a zero byte" and "has a
// byte less than n" word tricks can also mark a byte above a marked one, never below: the
// lowest mark is always exact, which is all appendJSONString relies on.
func specialBytes(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	control := (x - 0x20*ones) &^ x
	quote := x ^ ('"' * ones)
	quote = (quote - ones) &^ quote
	backslash := x ^ ('\\' * ones)
	backslash = (backslash - ones) &^ backslash
	return (control | quote | backslash | x) & highs
}
