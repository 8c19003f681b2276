package mcpclient

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
)

// SSEFrame is one Server-Sent Events frame exactly as it came over the wire,
// with the fields parsed per the HTML Living Standard, sections 9.2.5
// "Parsing an event stream" (line endings, the BOM) and 9.2.6 "Interpreting
// an event stream"
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
//
// A frame is every line up to and including the blank line that dispatches
// it. Frames that a browser would not turn into a MessageEvent are frames too:
// comment-only keep-alives, id-only or retry-only frames, a lone blank line,
// and the unterminated tail at the end of the stream. Concatenating the Raw of
// every frame an SSEReader returns gives back the stream byte for byte.
//
// Field values are the bytes after the colon (minus one leading space) as Go
// strings; they are not UTF-8 decoded, so invalid UTF-8 stays as sent.
type SSEFrame struct {
	// Offset is the byte offset of Raw[0] in the stream.
	Offset int64
	// Raw is the frame's exact bytes: its lines with their line endings (CR,
	// LF or CRLF, as sent), including the blank line that ends the frame.
	Raw []byte
	// BOM reports that Raw starts with the UTF-8 byte order mark that began
	// the stream (only ever the first frame); the spec ignores it.
	BOM bool
	// Continued reports that Raw starts with the LF of a CRLF whose CR ended
	// the previous frame: the LF had not arrived when that frame was returned
	// (returning it at once keeps CR-only streams live).
	Continued bool

	// Event is the value of the last "event" field, "" if none; the spec
	// dispatches an event without a type (or with an empty one) as "message".
	Event string
	// Data is the values of the "data" fields joined with "\n".
	Data string
	// HasData reports at least one "data" field. A terminated frame with
	// data is dispatched as an event, even when Data is "" (a priming event,
	// `id: X` and an empty `data:`).
	HasData bool
	// ID is the value of the last valid "id" field; HasID reports there was
	// one. An id field with an empty value (HasID true, ID "") resets the
	// last event ID, so a reconnect must then send no Last-Event-ID. An id
	// containing NUL is ignored (listed in Ignored).
	ID    string
	HasID bool
	// LastEventID is the stream's last event ID after this frame: what a
	// reconnecting client sends as Last-Event-ID ("" means send none). It
	// carries over from earlier frames, and an unterminated frame does not
	// change it.
	LastEventID string
	// Retry is the reconnection time in milliseconds from the last valid
	// "retry" field (ASCII digits only); HasRetry reports there was one.
	Retry    int64
	HasRetry bool
	// Comments holds the text after the ":" of each comment line, in order.
	Comments []string
	// Ignored holds the lines that the spec ignores: unknown field names, a
	// retry that is not all ASCII digits (or overflows), an id holding NUL.
	Ignored []string
	// Unterminated reports that the stream ended, or failed, before the
	// blank line that ends the frame. The spec discards such an event; it
	// is returned to be shown. Only the complete lines are parsed: a last
	// line without a line ending is in Raw only.
	Unterminated bool
}

// Dispatches reports whether a browser's EventSource would fire an event
// for this frame: it ended with a blank line and had a data field.
func (f *SSEFrame) Dispatches() bool { return f.HasData && !f.Unterminated }

// SSEReader splits a text/event-stream into SSEFrames, keeping each frame's
// exact bytes. Lines may be of any length. It is not safe for concurrent use.
type SSEReader struct {
	br        *bufio.Reader
	off       int64
	lastID    string
	started   bool  // the BOM check at stream start is done
	crPending bool  // the last frame ended with a CR; an LF next belongs to it
	err       error // sticky read error, returned once the bytes before it are out
}

// NewSSEReader returns a reader of the event stream r.
func NewSSEReader(r io.Reader) *SSEReader {
	return &SSEReader{br: bufio.NewReaderSize(r, 4096)}
}

// LastEventID returns the stream's last event ID so far (see
// SSEFrame.LastEventID).
func (r *SSEReader) LastEventID() string { return r.lastID }

// Next returns the next frame. At the end of the stream it returns io.EOF;
// when the underlying reader fails it returns that error. Bytes received
// before the end or a failure that do not finish a frame come first as a
// frame with Unterminated set, and the error on the call after.
func (r *SSEReader) Next() (SSEFrame, error) {
	if r.err != nil && r.br.Buffered() == 0 {
		return SSEFrame{}, r.err
	}
	f := SSEFrame{Offset: r.off, LastEventID: r.lastID}
	var raw []byte
	if !r.started {
		r.started = true
		if r.hasBOM() {
			raw = append(raw, bom...)
			_, _ = r.br.Discard(len(bom))
			f.BOM = true
		}
	}
	if r.crPending {
		r.crPending = false
		if c, ok := r.peek(); ok && c == '\n' {
			_, _ = r.br.Discard(1)
			raw = append(raw, '\n')
			f.Continued = true
		}
	}
	body := len(raw)
	var data []byte
	for {
		start := len(raw)
		var cr, ok bool
		raw, cr, ok = r.readLine(raw)
		if !ok {
			if len(raw) == 0 {
				return SSEFrame{}, r.err
			}
			f.Raw = raw
			f.Unterminated = len(raw) > body || f.BOM
			if f.HasData {
				f.Data = string(data)
			}
			r.off += int64(len(raw))
			return f, nil
		}
		end := len(raw) - 1
		line := raw[start:end]
		if len(line) == 0 { // a blank line dispatches the frame
			if cr {
				// A CRLF? If the next byte has arrived, look; if not,
				// return the frame now and let the next call take the LF,
				// so that a stream of bare CRs is not held back an event.
				if r.br.Buffered() == 0 {
					r.crPending = true
				} else if b, _ := r.br.Peek(1); b[0] == '\n' {
					_, _ = r.br.Discard(1)
					raw = append(raw, '\n')
				}
			}
			if f.HasID {
				r.lastID = f.ID
			}
			f.LastEventID = r.lastID
			f.Raw = raw
			if f.HasData {
				f.Data = string(data)
			}
			r.off += int64(len(raw))
			return f, nil
		}
		if cr {
			// Mid-frame, waiting for the next byte delays nothing.
			if c, ok := r.peek(); ok && c == '\n' {
				_, _ = r.br.Discard(1)
				raw = append(raw, '\n')
			}
		}
		data = f.parseLine(line, data)
	}
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// hasBOM reports whether the stream starts with a UTF-8 BOM. It waits for
// more bytes only while those so far match the BOM.
func (r *SSEReader) hasBOM() bool {
	for n := 1; n <= len(bom); n++ {
		b, err := r.br.Peek(n)
		if len(b) < n {
			r.err = err // bufio hands a read error out only once
		}
		if !bytes.Equal(b, bom[:n]) {
			return false
		}
	}
	return true
}

// peek returns the next byte, waiting for it. It reports false once the
// buffer is empty and the underlying reader has failed (the error is in r.err).
func (r *SSEReader) peek() (byte, bool) {
	if r.br.Buffered() == 0 && r.err != nil {
		return 0, false
	}
	b, err := r.br.Peek(1)
	if len(b) == 0 {
		r.err = err
		return 0, false
	}
	return b[0], true
}

// readLine appends the next line and its line-ending byte (CR or LF; the LF
// of a CRLF is left to the caller) to raw. cr reports a CR ending; ok is
// false when the stream ended or failed first (r.err is set and whatever
// came of the line is appended).
func (r *SSEReader) readLine(raw []byte) (_ []byte, cr, ok bool) {
	for {
		if r.br.Buffered() == 0 {
			if _, ok := r.peek(); !ok {
				return raw, false, false
			}
		}
		chunk, _ := r.br.Peek(r.br.Buffered())
		i := bytes.IndexAny(chunk, "\r\n")
		if i < 0 {
			raw = append(raw, chunk...)
			_, _ = r.br.Discard(len(chunk))
			continue
		}
		c := chunk[i]
		raw = append(raw, chunk[:i+1]...)
		_, _ = r.br.Discard(i + 1)
		return raw, c == '\r', true
	}
}

// parseLine applies one non-blank line to f, appending a data value to data.
func (f *SSEFrame) parseLine(line, data []byte) []byte {
	if line[0] == ':' {
		f.Comments = append(f.Comments, string(line[1:]))
		return data
	}
	name, value, _ := bytes.Cut(line, []byte{':'})
	if len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	switch string(name) {
	case "event":
		f.Event = string(value)
	case "data":
		if f.HasData {
			data = append(data, '\n')
		}
		data = append(data, value...)
		f.HasData = true
	case "id":
		if bytes.IndexByte(value, 0) >= 0 {
			f.Ignored = append(f.Ignored, string(line))
			break
		}
		f.ID, f.HasID = string(value), true
	case "retry":
		ms, err := strconv.ParseInt(string(value), 10, 64)
		if err != nil || !allDigits(value) {
			f.Ignored = append(f.Ignored, string(line))
			break
		}
		f.Retry, f.HasRetry = ms, true
	default:
		f.Ignored = append(f.Ignored, string(line))
	}
	return data
}

// allDigits reports whether b is one or more ASCII digits, the only form of
// retry the spec accepts (strconv.ParseInt also takes a sign).
func allDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
