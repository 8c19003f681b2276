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
// It is not safe for concurrent use.
type Framer struct {
	r     io.Reader
	max   int
	buf   []byte // read buffer
	start int    // unread bytes are buf[start:end]
	end   int

	cur        []byte // the frame being assembled
	curSize    int64
	curChunks  []int
	chunkCount int
	oversize   bool
	offset     int64 // stream offset of the next frame's first byte
	line       int64
	err        error
}

// NewFramer reads frames from r, keeping frames of up to max bytes whole (max <= 0 means
// DefaultMaxMessage).
func NewFramer(r io.Reader, max int) *Framer {
	if max <= 0 {
		max = DefaultMaxMessage
	}
	return &Framer{r: r, max: max, buf: make([]byte, 64<<10)}
}

// Next returns the next frame. At end of stream it returns any unterminated tail as a frame
// with Partial set, then io.EOF. Read errors other than EOF are returned after the tail.
func (f *Framer) Next() (Frame, error) {
	for {
		if f.start < f.end {
			data := f.buf[f.start:f.end]
			i := bytes.IndexByte(data, '\n')
			n := len(data)
			if i >= 0 {
				n = i + 1
			}
			f.appendBytes(data[:n])
			f.start += n
			if i >= 0 {
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
	if len(f.cur)+len(b) > f.max {
		keep := oversizeHead
		if keep > f.max {
			keep = f.max
		}
		room := keep - len(f.cur)
		if room > 0 {
			if room > len(b) {
				room = len(b)
			}
			f.cur = append(f.cur, b[:room]...)
		}
		if len(f.cur) > keep {
			f.cur = f.cur[:keep:keep]
		}
		f.oversize = true
		return
	}
	f.cur = append(f.cur, b...)
}

func (f *Framer) finish(partial bool) Frame {
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
	f.cur = nil
	f.curSize = 0
	f.curChunks = nil
	f.chunkCount = 0
	f.oversize = false
	return fr
}
