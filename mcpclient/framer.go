package mcpclient

import (
	"bytes"
	"errors"
	"io"
)

// Frame is one newline-delimited unit of a byte stream, exactly as it arrived.
type Frame struct {
	// Raw holds the bytes including the line ending. When Oversize is set only the first
	// max bytes are kept.
	Raw []byte
	// Size is the frame's full length on the wire, line ending included.
	Size int64
	// Offset is the stream offset of the frame's first byte; Line is its 1-based line number.
	Offset int64
	Line   int64
	// Chunks are offsets inside the frame where a new read began (0 excluded), at most
	// MaxChunkMarks of them; ChunkCount counts all of them.
	Chunks     []int
	ChunkCount int
	// Oversize is set when the line was longer than the framer's limit.
	Oversize bool
	// Partial is set for bytes left without a newline at end of stream.
	Partial bool
	// Exchange is the Seq of the HTTP request whose answer held the frame (Event.Exchange);
	// 0 on stdio.
	Exchange uint64
}

// DefaultMaxMessage is the default longest frame kept whole: 256 MiB, far above
// bufio.Scanner's 64 KiB (case B03) and above the 100 MB responses real servers have sent;
// --max-message lowers it to bound memory.
const DefaultMaxMessage = 256 << 20

// oversizeHead is how much of an oversize frame is kept for display.
const oversizeHead = 64 << 10

// Framer splits a byte stream into newline-terminated frames of any length. It keeps the
// exact bytes (a "\r\n" ending stays in Raw), marks where reads split a frame, and costs
// O(n) in total however the writer chunked its output (case B02b: one byte per write).
//
// Two kinds of frame that break MCP's one-message-per-line rule are kept whole, so that a
// message is one frame however its writer framed it (issue #14): a frame that starts with
// an LSP-style header line ("Content-Length: N") runs to the end of its header block and then
// N bytes of body, with no newline needed (--framing content-length reads this way, and the
// default framing sees it as one violation instead of a row of broken lines); and a JSON
// value pretty-printed over several lines (a first line that opens an object or array and
// does not close it) runs, line by line, to the line that closes it. A continuation line must
// start with white space or a closing bracket: anything else at column 0 ends the frame
// before it, so a broken message never swallows the ones after it.
// It works in pull mode (NewFramer, Next: it reads) or push mode (NewPushFramer, Feed and
// End: the caller reads and hands the bytes over), with the same frames either way.
// It is not safe for concurrent use.
type Framer struct {
	r     io.Reader
	max   int
	buf   []byte // read buffer (pull mode)
	start int    // unread bytes are buf[start:end]
	end   int

	cur []byte // the frame being assembled (its last block, when blocks is set)
	// A frame of more than blockSize bytes is assembled in blocks of blockSize, copied once
	// into one slice of its exact size when it is complete: growing one slice by append
	// would allocate about four times the frame in all, and briefly hold 2.25 times it.
	blocks     [][]byte // the frame's earlier blocks, full; nil: cur holds the whole frame
	blockLen   int      // bytes in blocks
	curSize    int64
	curChunks  []int
	chunkCount int
	oversize   bool
	offset     int64 // stream offset of the next frame's first byte
	line       int64
	err        error

	// Push mode lends frames instead of giving them: a frame inside one fed slice is not
	// copied (inPlace), and the assembly buffer of a frame that spans feeds is reused.
	push    bool
	inPlace bool
	scratch []byte
	ended   bool

	// Message framing beyond one line (see the type's comment).
	state    frameState
	lineAt   int64 // curSize where the line being read began
	bodyLeft int64 // stBody: body bytes still to read
	clen     int64 // stHeader: the Content-Length seen so far, -1 when none
	depth    int   // stMulti: bracket depth of the JSON value so far
	inStr    bool  // stMulti: inside a JSON string
	esc      bool  // stMulti: the previous byte was a backslash inside a string
}

// frameState is where a Framer is inside the frame it assembles.
type frameState uint8

const (
	stLine   frameState = iota // the frame's first line
	stHeader                   // header lines, until the blank line
	stBody                     // Content-Length body bytes
	stMulti                    // continuation lines of a pretty-printed JSON value
)

// NewFramer reads frames from r, keeping frames of up to max bytes whole (max <= 0 means
// DefaultMaxMessage).
func NewFramer(r io.Reader, max int) *Framer {
	if max <= 0 {
		max = DefaultMaxMessage
	}
	return &Framer{r: r, max: max, buf: make([]byte, 64<<10)}
}

// NewPushFramer returns a Framer in push mode: the caller hands it each read with Feed and
// the end of the stream with End. max is as for NewFramer.
func NewPushFramer(max int) *Framer {
	if max <= 0 {
		max = DefaultMaxMessage
	}
	return &Framer{max: max, push: true}
}

// Next returns the next frame (pull mode). At end of stream it returns any unterminated
// tail as a frame with Partial set, then io.EOF. Read errors other than EOF are returned
// after the tail.
func (f *Framer) Next() (Frame, error) {
	for {
		if f.start < f.end {
			n, done := f.take(f.buf[f.start:f.end])
			f.start += n
			if done {
				return f.finish(false), nil
			}
			continue
		}
		if f.err != nil {
			if f.curSize > 0 {
				return f.finish(true), nil
			}
			return Frame{}, f.err
		}
		n, err := f.r.Read(f.buf)
		if n > 0 {
			f.start, f.end = 0, n
			if f.curSize > 0 {
				f.markChunk()
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF
			}
			f.err = err
		}
	}
}

// Feed takes the bytes of one read (push mode) and calls emit with each frame they
// complete, in order. The frames are lent: a frame's Raw is valid only until emit returns
// (it may point into data, or into a buffer the next frame reuses), so copy what you keep.
// Feed after End does nothing.
func (f *Framer) Feed(data []byte, emit func(Frame)) {
	if f.ended || len(data) == 0 {
		return
	}
	if f.curSize > 0 {
		f.markChunk()
	}
	for len(data) > 0 {
		n, done := f.take(data)
		data = data[n:]
		if done {
			emit(f.finish(false))
		}
	}
}

// End marks the end of the stream (push mode): an unterminated tail is emitted as a frame
// with Partial set. Later calls do nothing.
func (f *Framer) End(emit func(Frame)) {
	if f.ended {
		return
	}
	f.ended = true
	if f.curSize > 0 {
		emit(f.finish(true))
	}
}

// take adds data up to and including its first newline to the frame being assembled (or,
// in a Content-Length body, up to the body's end); it returns how many bytes it used and
// whether they complete the frame. It may use no bytes and complete the frame: the next
// line is not part of it.
func (f *Framer) take(data []byte) (int, bool) {
	if f.state == stBody {
		n := int(min(int64(len(data)), f.bodyLeft))
		f.appendBytes(data[:n])
		f.bodyLeft -= int64(n)
		return n, f.bodyLeft == 0
	}
	if f.curSize > 0 && f.lineAt == f.curSize && !f.continues(data[0]) {
		return 0, true
	}
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		f.appendBytes(data)
		if f.state == stMulti {
			f.scan(data)
		}
		return len(data), false
	}
	n := i + 1
	if f.state == stLine && f.curSize == 0 && !startsLonger(data[:n]) {
		// A whole one-line frame.
		if f.push && n <= f.max {
			// The whole frame is in this read: lend it in place, no copy.
			f.cur, f.curSize, f.inPlace = data[:n:n], int64(n), true
			return n, true
		}
		f.appendBytes(data[:n])
		return n, true
	}
	f.appendBytes(data[:n])
	if f.state == stMulti {
		f.scan(data[:n])
	}
	return n, f.lineDone()
}

// continues reports whether a line starting with byte c belongs to the frame being
// assembled, which has at least one whole line.
func (f *Framer) continues(c byte) bool {
	switch f.state {
	case stHeader:
		// A header block cut short by a message: the message is a frame of its own.
		return c != '{' && c != '['
	case stMulti:
		return c == ' ' || c == '\t' || c == '}' || c == ']' || c == '\r' || c == '\n'
	}
	return true
}

// lineDone looks at the line just completed (f.cur[f.lineAt:]) and reports whether it ends
// the frame; otherwise it moves to the state the rest of the frame is read in.
func (f *Framer) lineDone() bool {
	var line []byte
	if !f.oversize {
		line = f.lastLine()
	}
	f.lineAt = f.curSize
	switch f.state {
	case stLine:
		switch {
		case isHeaderLine(line):
			f.state, f.clen = stHeader, -1
			f.noteHeader(line)
			return false
		case opensValue(line):
			f.state, f.depth, f.inStr, f.esc = stMulti, 0, false, false
			f.scan(line)
			return f.depth <= 0
		}
		return true
	case stHeader:
		if len(bytes.TrimRight(line, "\r\n")) > 0 {
			f.noteHeader(line)
			return false
		}
		if f.clen > 0 {
			f.state, f.bodyLeft = stBody, f.clen
			return false
		}
		return true // no Content-Length (or 0): the header block is the frame
	case stMulti:
		return f.depth <= 0
	}
	return true
}

// noteHeader records a Content-Length header line's value.
func (f *Framer) noteHeader(line []byte) {
	if !hasPrefixFold(line, "content-length:") {
		return
	}
	v := bytes.TrimSpace(line[len("content-length:"):])
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' || n > 1<<40 {
			return
		}
		n = n*10 + int64(c-'0')
	}
	if len(v) > 0 {
		f.clen = n
	}
}

// scan follows the bracket depth of a pretty-printed JSON value over b.
func (f *Framer) scan(b []byte) {
	for _, c := range b {
		switch {
		case f.esc:
			f.esc = false
		case f.inStr:
			switch c {
			case '\\':
				f.esc = true
			case '"':
				f.inStr = false
			}
		case c == '"':
			f.inStr = true
		case c == '{' || c == '[':
			f.depth++
		case c == '}' || c == ']':
			f.depth--
		}
	}
}

// startsLonger reports whether line, a frame's whole first line, may begin a frame of more
// than one line: an LSP header, or a JSON value that it opens and does not close.
func startsLonger(line []byte) bool {
	return isHeaderLine(line) || opensValue(line)
}

// isHeaderLine reports whether line is an LSP-style Content-Length or Content-Type header.
func isHeaderLine(line []byte) bool {
	return hasPrefixFold(line, "content-length:") || hasPrefixFold(line, "content-type:")
}

// opensValue reports whether line starts a JSON object or array and ends with an opening
// bracket, as the first line of pretty-printed JSON does ("{" alone, for json.dumps(indent=2)
// and JSON.stringify(v, null, 2)); a one-line message never ends that way.
func opensValue(line []byte) bool {
	t := bytes.TrimSpace(line)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	last := t[len(t)-1]
	return last == '{' || last == '['
}

func (f *Framer) markChunk() {
	f.chunkCount++
	if len(f.curChunks) < MaxChunkMarks && f.curSize <= int64(f.max) {
		f.curChunks = append(f.curChunks, int(f.curSize))
	}
}

func (f *Framer) appendBytes(b []byte) {
	f.curSize += int64(len(b))
	if f.oversize {
		return
	}
	if f.blockLen+len(f.cur)+len(b) > f.max {
		keep := min(oversizeHead, f.max)
		if f.blocks != nil {
			f.cur = f.head(keep)
			f.blocks, f.blockLen = nil, 0
		}
		if room := keep - len(f.cur); room > 0 {
			f.cur = append(f.cur, b[:min(room, len(b))]...)
		}
		if len(f.cur) > keep {
			f.cur = f.cur[:keep:keep]
		}
		f.oversize = true
		return
	}
	if f.blocks == nil && len(f.cur)+len(b) > max(cap(f.cur), blockSize) {
		f.blocks = make([][]byte, 0, 16)
		if len(f.cur) > 0 {
			f.blocks, f.blockLen = append(f.blocks, f.cur), len(f.cur)
		}
		f.cur = make([]byte, 0, blockSize)
	}
	if f.blocks == nil {
		if f.cur == nil && f.scratch != nil {
			f.cur = f.scratch[:0]
		}
		f.cur = append(f.cur, b...)
		return
	}
	for len(b) > 0 {
		if len(f.cur) == cap(f.cur) {
			f.blocks, f.blockLen = append(f.blocks, f.cur), f.blockLen+len(f.cur)
			f.cur = make([]byte, 0, blockSize)
		}
		n := min(len(b), cap(f.cur)-len(f.cur))
		f.cur, b = append(f.cur, b[:n]...), b[n:]
	}
}

// blockSize is the size of the blocks a long frame is assembled in (see Framer.blocks).
const blockSize = 1 << 20

// flatten copies a frame assembled in blocks into one slice of its size.
func (f *Framer) flatten() {
	if f.blocks == nil {
		return
	}
	buf := make([]byte, 0, f.blockLen+len(f.cur))
	for _, b := range f.blocks {
		buf = append(buf, b...)
	}
	f.cur, f.blocks, f.blockLen = append(buf, f.cur...), nil, 0
}

// head is a copy of the first n bytes of a frame assembled in blocks (all when shorter).
func (f *Framer) head(n int) []byte {
	out := make([]byte, 0, n)
	for _, b := range append(f.blocks[:len(f.blocks):len(f.blocks)], f.cur) {
		out = append(out, b[:min(len(b), n-len(out))]...)
	}
	return out
}

// lastLine is the line just completed, f.cur[f.lineAt:] of the whole frame. In blocks, a
// line of up to blockSize is copied out; a longer one flattens the frame (once per long
// line: a frame is one long line, or a pretty-printed value with a few).
func (f *Framer) lastLine() []byte {
	if f.blocks == nil {
		if f.lineAt > int64(len(f.cur)) {
			return nil
		}
		return f.cur[f.lineAt:]
	}
	n := f.blockLen + len(f.cur) - int(f.lineAt)
	if n > blockSize {
		f.flatten()
		return f.cur[f.lineAt:]
	}
	line := make([]byte, n)
	at := n
	for i := len(f.blocks); i >= 0 && at > 0; i-- {
		b := f.cur
		if i < len(f.blocks) {
			b = f.blocks[i]
		}
		k := min(len(b), at)
		copy(line[at-k:], b[len(b)-k:])
		at -= k
	}
	return line
}

// maxScratch is the largest assembly buffer a push-mode Framer keeps for the next frame.
const maxScratch = 1 << 20

func (f *Framer) finish(partial bool) Frame {
	f.flatten()
	f.line++
	fr := Frame{
		Raw:        f.cur,
		Size:       f.curSize,
		Offset:     f.offset,
		Line:       f.line,
		Chunks:     f.curChunks,
		ChunkCount: f.chunkCount,
		Oversize:   f.oversize,
		Partial:    partial,
	}
	f.offset += f.curSize
	if f.push && !f.inPlace && cap(f.cur) > 0 && cap(f.cur) <= maxScratch {
		f.scratch = f.cur[:0] // the frame is lent: emit is done with it before the next one
	}
	f.cur, f.curSize, f.curChunks, f.chunkCount, f.oversize, f.inPlace = nil, 0, nil, 0, false, false
	f.state, f.lineAt, f.bodyLeft = stLine, 0, 0
	return fr
}
