package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/boundedfile"
	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// ErrNotTrace is returned (wrapped) by Open when the first line is not a trace header.
var ErrNotTrace = errors.New("not an mcp-inspect trace")

// LineError is an event line of a trace that cannot be read. Index is the event's 0-based
// position (as for Trace.Record); Offset is the line's byte offset in the file.
type LineError struct {
	Index  int
	Offset int64
	Err    error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("trace event %d (byte %d): %v", e.Index, e.Offset, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// Trace is an open trace file. Open indexes the byte offset of every event line without
// keeping the lines; events are read from the file on demand, so a trace of any size opens
// in memory proportional to its number of events (8 bytes each). Methods are safe for
// concurrent use.
type Trace struct {
	// Header is the trace's first line.
	Header Header
	// Warnings are problems found while indexing: a truncated last line (the recorder was
	// killed mid-write), a format version newer than this reader's.
	Warnings []string
	// Truncated is set when the last line was incomplete and was left out.
	Truncated bool

	r       io.ReaderAt
	closer  io.Closer
	size    int64
	offsets []int64 // start of each event line, plus one past the end of the last
}

// Open opens and indexes the trace at path. A pipe or FIFO is read like OpenStream (a FIFO
// without a writer reads as empty at once instead of blocking); a device or other special
// file is refused at once.
func Open(path string) (*Trace, error) {
	f, isPipe, err := boundedfile.Open(path)
	if err != nil {
		return nil, err
	}
	if isPipe {
		defer f.Close()
		t, err := OpenStream(f)
		if errors.Is(err, errEmpty) {
			return nil, fmt.Errorf("%s: %w: empty (a pipe; a FIFO is read only when its writer is already there)", path, ErrNotTrace)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return t, nil
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	t, err := OpenReader(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t.closer = f
	return t, nil
}

// OpenReader indexes a trace of size bytes read through r. The header must be a complete
// line; everything after it is tolerated: empty lines are skipped, a last line without a
// newline that does not parse is dropped with a warning (Truncated), and a bad line in the
// middle is reported when it is read.
func OpenReader(r io.ReaderAt, size int64) (*Trace, error) {
	t := &Trace{r: r, size: size}
	br := bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 1<<20)
	head, err := readHeader(br)
	if err != nil && !(errors.Is(err, io.EOF) && len(head) > 0) {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: %w", ErrNotTrace, errEmpty)
		}
		return nil, err
	}
	if t.Header, err = ParseHeader(head); err != nil {
		return nil, err
	}
	if len(head) == 0 || head[len(head)-1] != '\n' {
		t.Warnings = append(t.Warnings, "the trace has a header and no events")
	}
	if t.Header.Version > FormatVersion {
		t.Warnings = append(t.Warnings, fmt.Sprintf("trace format version %d is newer than this mcp-inspect reads (%d): members it does not know are ignored", t.Header.Version, FormatVersion))
	}
	off := int64(len(head))
	// Scan for newlines; keep only offsets.
	lineStart := off
	for {
		chunk, err := br.ReadSlice('\n')
		off += int64(len(chunk))
		if err == nil {
			if off-lineStart > 1 && !(off-lineStart == 2 && chunk[0] == '\r') {
				t.offsets = append(t.offsets, lineStart)
			}
			lineStart = off
			continue
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // a line longer than the buffer: keep scanning
		}
		if !errors.Is(err, io.EOF) {
			return nil, err
		}
		break
	}
	if off > lineStart {
		// A last line without its newline: keep it only if it is a whole record.
		last := make([]byte, off-lineStart)
		if _, err := r.ReadAt(last, lineStart); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if len(bytes.TrimSpace(last)) > 0 {
			if _, err := decodeRecord(last); err == nil {
				t.offsets = append(t.offsets, lineStart)
				lineStart = off
			} else {
				t.Truncated = true
				t.Warnings = append(t.Warnings, fmt.Sprintf("the last line (%d bytes at byte %d) is incomplete: the recording stopped mid-write; it is left out", off-lineStart, lineStart))
			}
		}
		// A blank last line (spaces, or a \v no JSON decoder skips) is no part of the
		// record before it: that record ends at its newline.
	}
	t.offsets = append(t.offsets, lineStart)
	return t, nil
}

// readLine reads one whole line (newline included) of any length.
// errEmpty is an input with no bytes at all.
var errEmpty = errors.New("empty file")

// headerPrefix is how every header this program writes begins (Format is Header's first
// member). A first line longer than the reader's buffer must begin so before more of it is
// read: a huge file of one line is refused after the first buffer, not read whole.
const headerPrefix = `{"format":"` + FormatName + `"`

// MaxHeaderLine bounds the header line (16 MiB); a real header is a few KiB.
const MaxHeaderLine = 16 << 20

// readHeader reads the header line through br, within the bounds above.
func readHeader(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if err == nil || !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
		if !bytes.HasPrefix(bytes.TrimLeft(bytes.TrimPrefix(line, utf8BOM), " \t\r\n"), []byte(headerPrefix)) {
			return nil, fmt.Errorf("%w: the first line is not a trace header (no line break in its first %d bytes, and it does not begin as a header does)", ErrNotTrace, len(line))
		}
		if len(line) > MaxHeaderLine {
			return nil, fmt.Errorf("%w: the header line is longer than %d bytes", ErrNotTrace, MaxHeaderLine)
		}
	}
}

// OpenStream reads a trace from r (stdin, a pipe): the header is checked first, within the
// bounds of readHeader, then the rest is copied to a temporary file that leaves nothing
// behind (platform.TempFileGone), which the Trace reads on demand like a file; Close
// releases it.
func OpenStream(r io.Reader) (*Trace, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	head, err := readHeader(br)
	if err != nil && !(errors.Is(err, io.EOF) && len(head) > 0) {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: %w", ErrNotTrace, errEmpty)
		}
		return nil, err
	}
	if _, err := ParseHeader(head); err != nil {
		return nil, err
	}
	f, err := platform.TempFileGone("mcp-inspect-stream-*.jsonl") // nothing is left behind
	if err != nil {
		return nil, err
	}
	size, err := io.Copy(f, io.MultiReader(bytes.NewReader(head), br))
	if err != nil {
		f.Close()
		return nil, err
	}
	t, err := OpenReader(f, size)
	if err != nil {
		f.Close()
		return nil, err
	}
	t.closer = f
	return t, nil
}

// Close closes the file opened by Open.
func (t *Trace) Close() error {
	if t.closer != nil {
		return t.closer.Close()
	}
	return nil
}

// Len is the number of event lines.
func (t *Trace) Len() int { return len(t.offsets) - 1 }

// Size is the trace's length in bytes.
func (t *Trace) Size() int64 { return t.size }

// line reads event line i (0-based), newline included.
func (t *Trace) line(i int) ([]byte, int64, error) {
	if i < 0 || i >= t.Len() {
		return nil, 0, fmt.Errorf("event index %d out of range [0,%d)", i, t.Len())
	}
	off, end := t.offsets[i], t.offsets[i+1]
	buf := make([]byte, end-off)
	n, err := t.r.ReadAt(buf, off)
	if n == len(buf) {
		err = nil
	}
	return buf[:n], off, err
}

// Record reads event line i (0-based) as stored. The error is a *LineError.
func (t *Trace) Record(i int) (*Record, error) {
	b, off, err := t.line(i)
	if err == nil {
		var r *Record
		if r, err = decodeOwnedRecord(b); err == nil {
			return r, nil
		}
	}
	return nil, &LineError{Index: i, Offset: off, Err: err}
}

// Event reads event i with its classification (kind, parsed message, per-frame problems)
// but without the pairing pass, which needs the events before it: use Events for that.
func (t *Trace) Event(i int) (mcpclient.Event, error) {
	r, err := t.Record(i)
	if err != nil {
		return mcpclient.Event{}, err
	}
	return r.event(t.Header.Start, t.httpTrace()), nil
}

// EventBySeq reads the event whose Seq is seq, as Event does (classified, not paired).
// Seqs grow through the file and normally count from 1 without gaps, so the line seq-1 is
// tried first and a binary search over the lines follows (a trace with gaps or bad lines
// costs a few more reads). The error is a *LineError from a line that cannot be read, or
// one saying that no event has that Seq.
func (t *Trace) EventBySeq(seq uint64) (mcpclient.Event, error) {
	n := t.Len()
	if seq >= 1 && seq-1 < uint64(n) {
		if r, err := t.Record(int(seq - 1)); err == nil && r.Seq == seq {
			return r.event(t.Header.Start, t.httpTrace()), nil
		}
	}
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		r, err := t.Record(mid)
		// A bad line in the way: step to the next readable one on the same side.
		k := mid
		for err != nil && k+1 < hi {
			k++
			r, err = t.Record(k)
		}
		if err != nil {
			hi = mid
			continue
		}
		switch {
		case r.Seq == seq:
			return r.event(t.Header.Start, t.httpTrace()), nil
		case r.Seq < seq:
			lo = k + 1
		default:
			hi = mid
		}
	}
	return mcpclient.Event{}, fmt.Errorf("no event #%d in the trace", seq)
}

// Records yields every record in file order, read sequentially. A bad line yields a
// *LineError and the iteration goes on.
func (t *Trace) Records() iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		n := t.Len()
		if n == 0 {
			return
		}
		start := t.offsets[0]
		br := bufio.NewReaderSize(io.NewSectionReader(t.r, start, t.offsets[n]-start), 256<<10)
		var lineBuf []byte
		for i := 0; i < n; i++ {
			want := t.offsets[i+1] - t.offsets[i]
			// Lines between indexed ones (empty lines) are skipped by length.
			if cap(lineBuf) < int(want) {
				lineBuf = make([]byte, want)
			}
			b := lineBuf[:want]
			if _, err := io.ReadFull(br, b); err != nil {
				yield(nil, &LineError{Index: i, Offset: t.offsets[i], Err: err})
				return
			}
			var r *Record
			var err error
			if want > 1<<20 {
				// A big line's buffer is not kept for the lines after it but given to its
				// record: the frame is decoded in place, and the caller may hold it.
				r, err = decodeOwnedRecord(b)
				lineBuf = nil
			} else {
				r, err = decodeRecord(b)
			}
			if err != nil {
				if !yield(nil, &LineError{Index: i, Offset: t.offsets[i], Err: err}) {
					return
				}
				continue
			}
			if !yield(r, nil) {
				return
			}
		}
	}
}

// Events yields every event in order with all derived data recomputed (classification and
// the pairing pass). Bad lines yield a *LineError and are skipped. Lines are decoded and
// classified on every CPU (in chunks, in order); the stream offsets and the pairing pass
// follow in file order, so the result is exactly that of a sequential pass.
func (t *Trace) Events() iter.Seq2[mcpclient.Event, error] {
	return func(yield func(mcpclient.Event, error) bool) {
		p := mcpclient.NewPairer()
		offs := map[mcpclient.Direction]*[2]int64{}
		for ev, err := range t.classified() {
			if err != nil {
				if !yield(mcpclient.Event{}, err) {
					return
				}
				continue
			}
			// Stream offsets and line numbers are derived: the running totals per stream.
			if ev.Dir != mcpclient.Lifecycle {
				o := offs[ev.Dir]
				if o == nil {
					o = &[2]int64{}
					offs[ev.Dir] = o
				}
				ev.Offset = o[0]
				o[1]++
				ev.Line = o[1]
				o[0] += ev.Size
			}
			p.Add(&ev)
			big := len(ev.Raw) >= collectAfter
			if !yield(ev, nil) {
				return
			}
			if big {
				// The caller has had the frame; unless it keeps it, it is garbage as large as
				// the frame: give it back before the next line is read, as mcpclient does
				// after reading one (replay of a 100 MB result: 324 MB resident without).
				debug.FreeOSMemory()
			}
		}
	}
}

// collectAfter is the frame size from which Events collects after yielding it (32 MiB).
const collectAfter = 32 << 20

// decodeChunk and decodeChunkBytes bound the lines a worker of classified decodes at a
// time.
const (
	decodeChunk      = 512
	decodeChunkBytes = 4 << 20
)

// chunk is a run of event lines on their way through classified's workers.
type chunk struct {
	first int    // index of the first line
	data  []byte // the lines, back to back
	ends  []int  // end of each line in data
	evs   []mcpclient.Event
	errs  []error // per line: a *LineError, or nil
	fail  error   // a read error after the lines (ends the iteration)
	done  chan struct{}
}

// classified yields every event line decoded and classified (Record.Event), in order.
// With more than one CPU the lines are read by one goroutine and decoded by the others;
// stopping the iteration early stops them.
func (t *Trace) classified() iter.Seq2[mcpclient.Event, error] {
	workers := min(runtime.GOMAXPROCS(0), 8)
	if workers < 2 || t.Len() < 2*decodeChunk {
		return func(yield func(mcpclient.Event, error) bool) {
			for r, err := range t.Records() {
				var ev mcpclient.Event
				if err == nil {
					ev = r.event(t.Header.Start, t.httpTrace())
				}
				if !yield(ev, err) {
					return
				}
			}
		}
	}
	return func(yield func(mcpclient.Event, error) bool) {
		stop := make(chan struct{})
		work := make(chan *chunk, workers)
		order := make(chan *chunk, 2*workers)
		go t.readChunks(stop, work, order)
		for range workers {
			go func() {
				for c := range work {
					c.decode(t.offsets, t.Header.Start, t.httpTrace())
				}
			}()
		}
		defer close(stop)
		for c := range order {
			<-c.done
			for i := range c.evs {
				if !yield(c.evs[i], c.errs[i]) {
					return
				}
			}
			if c.fail != nil {
				yield(mcpclient.Event{}, c.fail)
				return
			}
		}
	}
}

// readChunks reads the event lines in chunks and hands each to the workers (work) and,
// in file order, to the consumer (order); it closes both when done or stopped.
func (t *Trace) readChunks(stop <-chan struct{}, work, order chan<- *chunk) {
	defer close(order)
	defer close(work)
	n := t.Len()
	start := t.offsets[0]
	br := bufio.NewReaderSize(io.NewSectionReader(t.r, start, t.offsets[n]-start), 256<<10)
	for first := 0; first < n; {
		// Up to decodeChunk lines and decodeChunkBytes bytes (at least one line): a few
		// chunks are in flight at once, whatever the size of the frames.
		last := first + 1
		for last < min(first+decodeChunk, n) && t.offsets[last+1]-t.offsets[first] <= decodeChunkBytes {
			last++
		}
		c := &chunk{first: first, done: make(chan struct{})}
		first = last
		c.data = make([]byte, t.offsets[last]-t.offsets[c.first])
		got, err := io.ReadFull(br, c.data)
		end := t.offsets[c.first] + int64(got)
		for i := c.first; i < last && t.offsets[i+1] <= end; i++ {
			c.ends = append(c.ends, int(t.offsets[i+1]-t.offsets[c.first]))
		}
		if err != nil {
			k := c.first + len(c.ends)
			c.fail = &LineError{Index: k, Offset: t.offsets[k], Err: err}
		}
		for _, ch := range []chan<- *chunk{order, work} {
			select {
			case ch <- c:
			case <-stop:
				return
			}
		}
		if c.fail != nil {
			return
		}
	}
}

// decode decodes and classifies the chunk's lines, then marks it done.
func (c *chunk) decode(offsets []int64, start time.Time, overHTTP bool) {
	defer close(c.done)
	c.evs = make([]mcpclient.Event, len(c.ends))
	c.errs = make([]error, len(c.ends))
	from := 0
	for i, end := range c.ends {
		decode := decodeRecord
		if len(c.ends) == 1 {
			// A chunk of one line (a big frame): the line is given to its record.
			decode = decodeOwnedRecord
		}
		r, err := decode(c.data[from:end])
		if err != nil {
			c.errs[i] = &LineError{Index: c.first + i, Offset: offsets[c.first+i], Err: err}
		} else {
			c.evs[i] = r.event(start, overHTTP)
		}
		from = end
	}
	c.data = nil
}

// Event rebuilds the live event: Raw, Size, Dir, Seq, chunk marks and lifecycle info as
// recorded, Time as start plus the monotonic offset (the wall time when start is zero),
// and the classification from mcpclient.Classify. Pairing is left to an mcpclient.Pairer, the client's own pass, so a trace's derived data is recomputed exactly as it was live.
func (r *Record) Event(start time.Time) mcpclient.Event {
	return r.event(start, false)
}

// httpTrace reports whether the trace recorded a remote (HTTP) session.
func (t *Trace) httpTrace() bool { return t.Header.Transport != "" }

// event is Event; overHTTP says the trace is of an HTTP session, whose messages have no
// line ending (mcpclient.ClassifyBody).
func (r *Record) event(start time.Time, overHTTP bool) mcpclient.Event {
	ev := mcpclient.Event{
		Seq:        r.Seq,
		Dir:        r.Dir,
		Raw:        r.Raw,
		Size:       r.Size,
		Chunks:     r.Chunks,
		ChunkCount: r.ChunkCount,
		Written:    mcpclient.NoteCond(r.Written),
	}
	if r.Dir != mcpclient.HTTPIn {
		ev.Exchange = r.Exchange
	}
	if len(r.Redacted) > 0 && !r.Truncated {
		// A masked frame is whole, only shorter than received: its size is the bytes
		// kept, or it would read as cut by --max-message.
		ev.Size = int64(len(r.Raw))
	}
	if start.IsZero() {
		ev.Time = r.Wall
	} else {
		ev.Time = start.Add(time.Duration(r.Mono))
	}
	switch r.Dir {
	case mcpclient.Lifecycle:
		ev.Kind = mcpclient.KindLifecycle
		l := r.Life
		if l == nil {
			l = &LifeRecord{Kind: "note"}
		}
		li := &mcpclient.LifeInfo{Kind: lifeKindOf(l.Kind), PID: l.PID, Signal: l.Signal, Text: l.Text, Cond: mcpclient.NoteCond(l.Cond)}
		if l.Code != nil {
			li.ExitCode = *l.Code
		}
		if l.Err != "" {
			li.Err = errors.New(l.Err)
		}
		ev.Life = li
	case mcpclient.Stderr:
		ev.Kind = mcpclient.KindStderr
	case mcpclient.HTTPOut:
		ev.Kind = mcpclient.KindHTTPRequest
	case mcpclient.HTTPIn:
		ev.Pair = r.Exchange
		switch r.HTTPKind {
		case "sse":
			ev.Kind = mcpclient.KindSSEFrame
		case "body":
			ev.Kind = mcpclient.KindHTTPBody
		case "encoded":
			ev.Kind = mcpclient.KindHTTPEncoded
			if e := r.Encoding; e != nil {
				ev.Encoding = &mcpclient.Encoding{Coding: e.Coding, Decoded: e.Decoded, Err: e.Err}
			}
		default:
			ev.Kind = mcpclient.KindHTTPResponse
		}
	default:
		if overHTTP && !r.Truncated {
			ev.Kind, ev.Msg, ev.Problems = mcpclient.ClassifyBody(r.Raw)
			break
		}
		switch {
		case r.Truncated:
			ev.Kind = mcpclient.KindOversize
			ev.Problems = []mcpclient.Problem{{Severity: mcpclient.Warning, Code: mcpclient.CodeOversize, Text: fmt.Sprintf("frame of %d bytes was over the size limit when recorded; only the first %d bytes are kept", r.Size, len(r.Raw))}}
		case r.Dir == mcpclient.ServerToClient && !mcpclient.Complete(r.Raw):
			ev.Kind, ev.Msg, ev.Problems = mcpclient.Classify(r.Raw)
			if ev.Kind.IsMessage() {
				ev.Problems = append(ev.Problems, mcpclient.Problem{Severity: mcpclient.Warning, Code: mcpclient.CodePartial, Text: "stream ended before this frame's newline"})
			} else {
				ev.Kind = mcpclient.KindPartial
				ev.Problems = append(ev.Problems, mcpclient.Problem{Severity: mcpclient.Warning, Code: mcpclient.CodePartial, Text: "stream ended in the middle of a line"})
			}
		default:
			ev.Kind, ev.Msg, ev.Problems = mcpclient.Classify(r.Raw)
		}
		if r.Dir == mcpclient.ClientToServer {
			ev.Problems = mcpclient.SentProblems(ev.Problems)
		}
		if r.Written != "" {
			// A tap broke it on purpose (truncate, corrupt): no fault of the side it
			// stands for, and not counted as one; the trace's note says what it did.
			ev.Problems = nil
		}
	}
	return ev
}
