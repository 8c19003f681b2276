package tap

// --inject on an HTTP tap. A request's JSON body is matched before it goes upstream; a
// response is read whole (a JSON body) or frame by frame (an event stream) and each message
// matched before the host gets it. Without rules, or when no rule can match what the
// server sends (injectprefilter.go), none of this runs for a response (response streams
// bytes as they come).

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// requestFate is what injectRequest made of a request.
type requestFate struct {
	// answered: the host was answered (an error, or 202 for a drop) and nothing goes
	// upstream; keep says whether the connection still serves.
	answered, keep bool
	// written is NoteEdited when what goes upstream is the tap's edit.
	written mcpclient.NoteCond
	// recorded: the request as it came is in the trace already, so what goes upstream (the
	// same bytes) is not recorded again.
	recorded bool
}

// injectRequest matches a request's body. When edited, *body, *wire and rh hold what goes
// upstream (no longer chunked). The request as it came is recorded before any note on it:
// before the match when a breakpoint may hold it (the hold's note is written as it is held).
func (t *httpTap) injectRequest(cw *bufio.Writer, rh *head, body, wire *[]byte) requestFate {
	b := bytes.TrimSpace(*body)
	if len(b) == 0 || (b[0] != '{' && b[0] != '[') {
		return requestFate{keep: true}
	}
	now := time.Now()
	var orig []httpItem // the request as it came, unless recorded already
	early := t.inj.mayHold(mcpclient.ClientToServer, b)
	if early {
		t.record([]httpItem{{t: now, kind: itemMsg, dir: mcpclient.ClientToServer, raw: clone(b)}})
	} else {
		orig = []httpItem{{t: now, kind: itemMsg, dir: mcpclient.ClientToServer, raw: clone(b)}}
	}
	out, ok := t.inj.match(mcpclient.ClientToServer, b, nil)
	if !ok {
		t.inj.keepRequest(mcpclient.ClientToServer, b)
		return requestFate{keep: true, recorded: early}
	}
	note := &mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: out.note, Cond: out.cond}
	t.s.log.Info("inject", "note", out.note)
	items := append(orig, httpItem{t: time.Now(), kind: itemLife, life: note})
	if out.delay > 0 || out.same {
		t.record(items)
		time.Sleep(out.delay)
		return requestFate{keep: true, recorded: true}
	}
	switch {
	case out.back != nil:
		items = append(items, httpItem{t: time.Now(), kind: itemMsg, dir: mcpclient.ServerToClient, raw: out.back, written: NoteInjected})
		t.record(items)
		fmt.Fprintf(cw, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(out.back), out.back)
		return requestFate{answered: true, keep: cw.Flush() == nil}
	case out.fwd == nil: // dropped: the server never sees it
		t.record(items)
		_, _ = cw.WriteString("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
		return requestFate{answered: true, keep: cw.Flush() == nil}
	}
	t.record(items)
	*body, *wire = out.fwd, out.fwd
	rh.raw = withLength(rh.raw, len(out.fwd))
	rh.chunked, rh.contentLength = false, int64(len(out.fwd))
	fate := requestFate{keep: true}
	if out.cond == NoteEdited {
		fate.written = NoteEdited
	}
	return fate
}

// injectNotes notes the rules at the start, and at the end (end) each rule that matched
// nothing, on stderr too.
func (t *httpTap) injectNotes(end bool) {
	if t.inj == nil || len(t.inj.rules) == 0 {
		return
	}
	if !end {
		t.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: t.inj.summary()})
		return
	}
	for _, text := range t.inj.unmatched() {
		t.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: text, Cond: NoteUnmatched})
		fmt.Fprintf(t.s.opt.Stderr, "mcp-inspect tap: %s\n", text)
	}
}

// injectsRequests reports whether the host's requests go through the rules: some rule may
// match one, or may match what the server sends (a response's method and tool are those
// of its request, which the injector learns when it matches the request).
func (t *httpTap) injectsRequests() bool {
	return t.inj != nil && (t.inj.mayMatch(mcpclient.ClientToServer) || t.inj.mayMatch(mcpclient.ServerToClient))
}

// respond forwards one response: as it comes when no rule may match what the server
// sends, else through responseInjected.
func (t *httpTap) respond(ubr *bufio.Reader, cw *bufio.Writer, method string, pend []httpItem) (bool, error) {
	if t.inj != nil && t.inj.mayMatch(mcpclient.ServerToClient) {
		return t.responseInjected(ubr, cw, method, pend)
	}
	keep, _, err := t.response(ubr, cw, method, pend, false)
	return keep, err
}

// withLength is a head with its body length set to n: Content-Length and
// Transfer-Encoding lines removed, "Content-Length: n" added at the end.
func withLength(raw []byte, n int) []byte {
	out := make([]byte, 0, len(raw)+24)
	for i := 0; i < len(raw); {
		j := bytes.IndexByte(raw[i:], '\n')
		if j < 0 {
			j = len(raw) - i - 1
		}
		line := raw[i : i+j+1]
		i += j + 1
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			out = append(out, "Content-Length: "+strconv.Itoa(n)+"\r\n"...)
			return append(out, line...)
		}
		l := strings.ToLower(string(line))
		if strings.HasPrefix(l, "content-length:") || strings.HasPrefix(l, "transfer-encoding:") {
			continue
		}
		out = append(out, line...)
	}
	return out
}

// responseInjected forwards one response as response does, with each JSON-RPC message it
// carries matched first: a JSON body is read whole, an event stream frame by frame.
func (t *httpTap) responseInjected(ubr *bufio.Reader, cw *bufio.Writer, method string, pend []httpItem) (keep bool, err error) {
	defer func() {
		if len(pend) > 0 {
			t.record(pend)
		}
	}()
	for {
		h, err := readHead(ubr)
		if err != nil {
			return false, err
		}
		status, st := h.responseStream()
		pend = append(pend, httpItem{t: time.Now(), kind: itemHead, raw: h.raw, stream: st})
		if status >= 100 && status < 200 && status != 101 {
			if _, err := cw.Write(h.raw); err != nil {
				return false, err
			}
			if err := cw.Flush(); err != nil {
				return false, err
			}
			continue
		}
		if method == "HEAD" || status == 204 || status == 304 {
			pend = append(pend, httpItem{kind: itemEnd, stream: st})
			_, err := cw.Write(h.raw)
			if err == nil {
				err = cw.Flush()
			}
			return err == nil && !h.closeConn, err
		}
		if st.sse && (h.chunked || h.contentLength < 0) {
			// The head goes out with the first frames (one write), as response sends it.
			if _, err := cw.Write(h.raw); err != nil {
				return false, err
			}
			err = t.sseInjected(ubr, cw, h, st, pend)
			pend = nil
			return err == nil && !h.closeConn && h.chunked, err
		}
		wire, body, err := readBody(ubr, h)
		if err != nil {
			return false, err
		}
		pend = append(pend, httpItem{t: time.Now(), kind: itemBody, raw: body, stream: st}, httpItem{t: time.Now(), kind: itemEnd, stream: st})
		raw := h.raw
		if b := bytes.TrimSpace(body); st.json && len(b) > 0 && (b[0] == '{' || b[0] == '[') {
			if t.inj.mayHold(mcpclient.ServerToClient, b) {
				// A breakpoint may hold it: the answer is in the trace before the note.
				t.record(pend)
				pend = nil
			}
			if out, ok := t.inj.match(mcpclient.ServerToClient, b, nil); ok {
				t.record(pend)
				pend = nil
				if fwd := t.served(out, nil); !out.same {
					wire = fwd
					raw = withLength(h.raw, len(wire))
				}
			}
		}
		if _, err := cw.Write(raw); err != nil {
			return false, err
		}
		if _, err := cw.Write(wire); err != nil {
			return false, err
		}
		return !h.closeConn && (h.contentLength >= 0 || h.chunked), cw.Flush()
	}
}

// readBody reads a whole response body: its bytes as sent (wire) and de-chunked (body).
func readBody(br *bufio.Reader, h *head) (wire, body []byte, err error) {
	switch {
	case h.chunked:
		return readChunked(br, nil)
	case h.contentLength >= 0:
		b := make([]byte, h.contentLength)
		_, err := io.ReadFull(br, b)
		return b, b, err
	}
	b, err := io.ReadAll(br)
	h.closeConn = true
	return b, b, err
}

// served carries out a rule's outcome on a message from the server over HTTP and returns
// what the host gets in its place (empty for a drop). The tap cannot answer the server
// over HTTP, so an error rule on the server's request drops it. The note (and an edited
// message) go to sink, behind the original, or are recorded at once when sink is nil.
func (t *httpTap) served(out outcome, sink *[]httpItem) []byte {
	note := out.note
	cond := out.cond
	if out.back != nil {
		note += " (over HTTP the tap cannot send the server an answer: dropped)"
		cond = NoteDropped
	}
	t.s.log.Info("inject", "note", note)
	items := []httpItem{{t: time.Now(), kind: itemLife, life: &mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: note, Cond: cond}}}
	if cond == NoteEdited && out.fwd != nil {
		items = append(items, httpItem{t: time.Now(), kind: itemMsg, dir: mcpclient.ServerToClient, raw: out.fwd, written: NoteEdited})
	}
	if sink != nil {
		*sink = append(*sink, items...)
	} else {
		t.record(items)
	}
	if out.delay > 0 {
		time.Sleep(out.delay)
	}
	if out.back != nil {
		return nil
	}
	return out.fwd
}

// sseInjected forwards an event stream (chunked or to the connection's end) frame by
// frame, each frame's message matched first; an edited message goes out as one data line.
// A chunked stream is sent on in chunks of whole frames. What went by (pend first) is
// recorded after each write to the host, as response does, off the latency path.
func (t *httpTap) sseInjected(ubr *bufio.Reader, cw *bufio.Writer, h *head, st *respStream, pend []httpItem) error {
	var buf, out []byte
	var fr frameReader
	// flush writes what was sent on unless more is waiting upstream (one write for all
	// of it), then records what went by.
	flush := func() error {
		if ubr.Buffered() != 0 {
			return nil
		}
		err := cw.Flush()
		if len(pend) > 0 {
			t.record(pend)
			pend = pend[:0]
		}
		return err
	}
	// send writes b on, as one chunk of a chunked stream.
	send := func(b []byte) {
		if h.chunked {
			var size [18]byte
			_, _ = cw.Write(append(strconv.AppendInt(size[:0], int64(len(b)), 16), '\r', '\n'))
		}
		_, _ = cw.Write(b)
		if h.chunked {
			_, _ = cw.WriteString("\r\n")
		}
	}
	frames := func(end bool) error {
		out = out[:0]
		for {
			n := frameEnd(buf)
			if n < 0 && end {
				n = len(buf)
			}
			if n <= 0 {
				break
			}
			frame := clone(buf[:n])
			buf = buf[n:]
			pend = append(pend, httpItem{t: time.Now(), kind: itemBody, raw: frame, stream: st})
			out = append(out, t.sseFrameInjected(frame, &fr, &pend)...)
		}
		if len(out) > 0 {
			send(out)
		}
		if end {
			return nil
		}
		return flush()
	}
	each := func(_, data []byte, last bool) error {
		if !last && len(buf) == 0 && bytes.HasSuffix(data, []byte("\n\n")) && t.inj.ruledOut(mcpclient.ServerToClient, data) {
			// Whole frames no rule or breakpoint can match a message of: they go on
			// unread, in the piece they came in.
			send(data)
			pend = append(pend, httpItem{t: time.Now(), kind: itemBody, raw: clone(data), stream: st})
			return flush()
		}
		buf = append(buf, data...)
		if last { // the stream's end: written with its terminator below
			return nil
		}
		return frames(false)
	}
	var err error
	if h.chunked {
		_, _, err = readChunked(ubr, each)
		if err == nil {
			err = frames(true)
		}
		if err == nil {
			_, _ = cw.WriteString("0\r\n\r\n")
		}
	} else {
		for err == nil {
			var p []byte
			p, err = ubr.Peek(max(ubr.Buffered(), 1))
			if len(p) > 0 {
				if perr := each(p, p, false); perr != nil {
					err = perr
				}
				_, _ = ubr.Discard(len(p))
			}
		}
		if errors.Is(err, io.EOF) {
			err = frames(true)
		}
	}
	if ferr := cw.Flush(); err == nil {
		err = ferr
	}
	t.record(append(pend, httpItem{t: time.Now(), kind: itemEnd, stream: st}))
	return err
}

// frameReader reads one SSE frame with the SSE reader; its buffer is made on first use,
// as most frames are read without it (sseData).
type frameReader struct {
	rd bytes.Reader
	br *bufio.Reader
}

func (r *frameReader) next(frame []byte) mcpclient.SSEFrame {
	r.rd.Reset(frame)
	if r.br == nil {
		r.br = bufio.NewReaderSize(&r.rd, 4096)
	} else {
		r.br.Reset(&r.rd)
	}
	fr, _ := mcpclient.NewSSEReader(r.br).Next()
	return fr
}

// sseFrameInjected is what goes on for one SSE frame: itself, or its message's outcome;
// fr is reused to read it.
func (t *httpTap) sseFrameInjected(frame []byte, fr *frameReader, sink *[]httpItem) []byte {
	data, simple := sseData(frame)
	if !simple {
		f := fr.next(frame)
		if !f.Dispatches() || f.Data == "" || (f.Event != "" && f.Event != "message") {
			return frame
		}
		data = []byte(f.Data)
	}
	if len(*sink) > 0 && t.inj.mayHold(mcpclient.ServerToClient, data) {
		// A breakpoint may hold it: the frame is in the trace before the note.
		t.record(*sink)
		*sink = nil
	}
	out, ok := t.inj.match(mcpclient.ServerToClient, data, nil)
	if !ok {
		t.inj.keepRequest(mcpclient.ServerToClient, data)
		return frame
	}
	f := fr.next(frame)
	b := t.served(out, sink)
	if out.same {
		return frame
	}
	if b == nil {
		return nil
	}
	res := []byte("event: message\n")
	if f.HasID {
		res = append(res, "id: "+f.ID+"\n"...)
	}
	return append(append(append(res, "data: "...), b...), "\n\n"...)
}

// sseData is the message of the usual frame, read without a copy: lines ending in LF,
// one "data:" line, and besides it only "event: message" and "id:" lines. simple is false
// for any other frame (the SSE reader reads it then).
func sseData(frame []byte) (data []byte, simple bool) {
	for len(frame) > 0 {
		i := bytes.IndexByte(frame, '\n')
		if i < 0 {
			return nil, false
		}
		line := frame[:i]
		frame = frame[i+1:]
		switch {
		case len(line) == 0:
			return data, data != nil && len(frame) == 0
		case bytes.IndexByte(line, '\r') >= 0:
			return nil, false
		case bytes.HasPrefix(line, []byte("data:")):
			if data != nil {
				return nil, false
			}
			data = bytes.TrimPrefix(line[5:], []byte(" "))
			if len(data) == 0 {
				return nil, false
			}
		case bytes.Equal(line, []byte("event: message")), bytes.HasPrefix(line, []byte("id:")):
		default:
			return nil, false
		}
	}
	return nil, false
}
