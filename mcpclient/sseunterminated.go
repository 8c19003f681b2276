package mcpclient

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"
)

// unterminated takes a request's stream that ended inside an event: the SSE rules discard
// an event without the blank line that dispatches it (HTML §9.2.6 "Interpreting an event
// stream": at the end of the stream, an event still being built is not dispatched), so a
// browser's EventSource never sees it. When its data is the response the request waits for,
// mcp-inspect says so and takes it, so the request does not wait out its timeout for what
// already arrived; with Strict the violation stops the session instead.
func (t *streamable) unterminated(f outFrame, fr *SSEFrame) {
	data := unterminatedData(fr.Raw)
	if len(data) == 0 {
		return
	}
	if !answers(data, f) {
		return
	}
	did := "mcp-inspect took its data as the response (--strict refuses it)"
	if t.c.cfg.Strict {
		did = "--strict refuses it"
	}
	t.c.problem(Problem{Warning, CodeSSEUnterminated, fmt.Sprintf("the stream of %s ended inside the event holding its response, without the blank line that ends an event: the SSE rules discard such an event (HTML §9.2.6), so clients that follow them never get this response; %s", f.label(), did)})
	if t.c.cfg.Strict {
		return
	}
	t.noteResult(f, data)
	t.c.handleBody(data, f.ex)
}

// unterminatedData joins the data fields of an event's lines as the SSE rules would have,
// the last line's too though it has no line ending (a stream cut right after the JSON).
func unterminatedData(raw []byte) []byte {
	var out [][]byte
	lines := bytes.FieldsFunc(raw, func(r rune) bool { return r == '\n' || r == '\r' })
	for _, l := range lines {
		v, ok := bytes.CutPrefix(l, []byte("data:"))
		if !ok {
			continue
		}
		out = append(out, bytes.TrimPrefix(v, []byte(" ")))
	}
	return bytes.Join(out, []byte("\n"))
}

// stallQuiet is how long a request's stream may hold the start of an event without more
// bytes before mcp-inspect looks at what it holds: a server that writes an event's blank line
// separately does so at once; one that never writes it would hold the response forever.
const stallQuiet = 300 * time.Millisecond

// sseTail keeps the bytes of a request's stream read but not yet part of a returned frame
// (the SSE reader reads ahead), so that an event whose blank line never comes can be looked
// at while the stream stays open. Its timer fires after stallQuiet without a byte; no
// goroutine waits on it before then (a request's stream costs a timer, not a goroutine).
type sseTail struct {
	r     io.Reader
	mu    sync.Mutex
	buf   []byte
	timer *time.Timer
	// taken is set once the response was taken from an event still open; done once the
	// stream's reading ended.
	taken, done bool
}

func (s *sseTail) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.mu.Lock()
		if len(s.buf) < 1<<20 {
			s.buf = append(s.buf, p[:n]...)
		}
		s.mu.Unlock()
		s.timer.Reset(stallQuiet)
	}
	return n, err
}

// consumed drops the first n bytes: a frame was returned. What is left (the start of the
// next event, usually nothing: servers flush whole events) moves to the front, so the buffer
// is reused and never holds more than the event being read.
func (s *sseTail) consumed(n int) {
	s.mu.Lock()
	s.buf = s.buf[:copy(s.buf, s.buf[min(n, len(s.buf)):])]
	s.mu.Unlock()
}

// stop ends the watch: the stream's reading ended.
func (s *sseTail) stop() {
	s.timer.Stop()
	s.mu.Lock()
	s.done = true
	s.mu.Unlock()
}

// watchStall wraps the body of f's stream: once no byte has come for stallQuiet while the
// request waits and the stream holds the event with its response without the blank line
// that ends it, the response is taken (takeStalled): the same violation as an event cut by
// the stream's end (unterminated), and the request ends at once instead of waiting out its
// timeout. The caller stops it when the stream's reading ends.
func (t *streamable) watchStall(f outFrame, body io.Reader) *sseTail {
	tail := &sseTail{r: body}
	tail.timer = time.AfterFunc(stallQuiet, func() {
		tail.mu.Lock()
		held, done := append([]byte(nil), tail.buf...), tail.done
		tail.mu.Unlock()
		if done || !t.c.isPending(f.msg.ID) {
			return
		}
		// Only whole lines count: a line still being written is not data yet.
		if i := bytes.LastIndexAny(held, "\r\n"); i >= 0 && t.takeStalled(f, held[:i+1], tail) {
			return
		}
		tail.timer.Reset(stallQuiet)
	})
	return tail
}

// takeStalled takes the response to f from the open event in held, when there is one.
func (t *streamable) takeStalled(f outFrame, held []byte, tail *sseTail) bool {
	data := unterminatedData(held)
	if len(data) == 0 {
		return false
	}
	if !answers(data, f) {
		return false
	}
	did := "mcp-inspect took its data as the response and closed the stream (--strict refuses it)"
	if t.c.cfg.Strict {
		did = "--strict refuses it"
	}
	t.c.problem(Problem{Warning, CodeSSEUnterminated, fmt.Sprintf("the stream of %s holds the event with its response but no blank line ends it after %s, and the stream stays open: the SSE rules dispatch an event only at that blank line (HTML §9.2.6), so clients that follow them wait for it; %s", f.label(), stallQuiet, did)})
	if t.c.cfg.Strict {
		return true
	}
	tail.mu.Lock()
	tail.taken = true
	tail.mu.Unlock()
	t.noteResult(f, data)
	t.c.handleBody(data, f.ex)
	t.mu.Lock()
	cancel := t.inflight[idKey(f.msg.ID)]
	t.mu.Unlock()
	if cancel != nil {
		cancel() // the request is answered: its stream, stalled, is closed
	}
	return true
}

// wasTaken reports whether the response was taken from an open event.
func (s *sseTail) wasTaken() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.taken
}

// answers reports whether data (a message an SSE event or body held) is the response to
// f's request: what the stream's end, a stalled event and a late blank line are checked for.
func answers(data []byte, f outFrame) bool {
	k, m, _ := Classify(append(append([]byte(nil), data...), '\n'))
	return (k == KindResponse || k == KindErrorResponse) && m != nil && f.msg != nil && idKey(m.ID) == idKey(f.msg.ID)
}
