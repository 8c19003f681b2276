package mcpclient

import (
	"bytes"
	"strconv"
	"strings"
)

// The server's stderr as a person watches it in a terminal (issue 24): a progress bar
// redraws its line with '\r' and never ends it, a "Loading… " waits for its "done\n". Cut
// only at '\n', such output shows nothing until the line ends (or the server exits). So
// stderr frames end at '\n', a lone '\r' (not of "\r\n") starts a frame of its own (it
// redraws the line), and what a read that emptied the pipe leaves unterminated is a frame
// too when it is short (a progress state, shown at once; a full read means more is
// waiting, so a line cut by the buffer's end waits for its rest). Concatenated, the frames
// are the stream's exact bytes.

// Bounds of the stderr splitter: an unterminated tail up to stderrOpenMax bytes is a frame
// at the end of the read that brought it; a longer one (a huge line arriving in pieces)
// waits for its end, up to stderrFrameMax, then goes out in pieces of that size.
const (
	stderrOpenMax  = 4 << 10
	stderrFrameMax = 1 << 20
)

// stderrSplitter cuts stderr into frames (see above). Feed it each read; End at EOF.
type stderrSplitter struct {
	pending []byte // the current frame's bytes so far
	off     int64  // the stream offset of pending[0]
	line    int64  // the line pending is on, 1-based
}

// Feed takes the bytes of one read and emits the frames they complete, then, when drained
// (the read did not fill its buffer: nothing more was waiting), the unterminated tail when
// short. A '\r' that ends data is held (a "\r\n" may be split between reads); what came
// before it goes out.
func (s *stderrSplitter) Feed(data []byte, drained bool, emit func(Frame)) {
	if s.line == 0 {
		s.line = 1
	}
	s.pending = append(s.pending, data...)
	start := 0
	for i := 0; i < len(s.pending); i++ {
		switch s.pending[i] {
		case '\n':
			s.emit(start, i+1, emit)
			start = i + 1
			s.line++
		case '\r':
			if i+1 < len(s.pending) && s.pending[i+1] == '\n' {
				continue
			}
			if i > start {
				s.emit(start, i, emit) // the line so far; the '\r' redraws it
				start = i
			}
		}
	}
	tail := s.pending[start:]
	if n := len(tail); drained && n > 1 && tail[n-1] == '\r' {
		s.emit(start, start+n-1, emit)
		start += n - 1
	}
	if n := len(s.pending) - start; n >= stderrFrameMax || drained && n > 0 && n <= stderrOpenMax && s.pending[len(s.pending)-1] != '\r' {
		s.emit(start, len(s.pending), emit)
		start = len(s.pending)
	}
	s.pending = append(s.pending[:0], s.pending[start:]...)
}

// End emits what is left at EOF.
func (s *stderrSplitter) End(emit func(Frame)) {
	if len(s.pending) > 0 {
		s.emit(0, len(s.pending), emit)
		s.pending = s.pending[:0]
	}
}

// emit sends pending[from:to] as a frame (a copy: pending is reused) and moves the offset.
func (s *stderrSplitter) emit(from, to int, emit func(Frame)) {
	raw := bytes.Clone(s.pending[from:to])
	emit(Frame{Raw: raw, Size: int64(len(raw)), Offset: s.off, Line: s.line})
	s.off += int64(len(raw))
}

// StderrRedraws reports whether a stderr frame redraws the line it is on: it starts with a
// '\r' that is not part of "\r\n" (a progress bar's next state).
func StderrRedraws(raw []byte) bool {
	return len(raw) > 0 && raw[0] == '\r' && (len(raw) == 1 || raw[1] != '\n')
}

// StderrEnds reports whether a stderr frame ends its line ('\n'); a frame that does not is
// continued or redrawn by the next.
func StderrEnds(raw []byte) bool { return len(raw) > 0 && raw[len(raw)-1] == '\n' }

// StderrText is a stderr frame's text: without the '\r' that redraws and the line end.
func StderrText(raw []byte) string {
	s := string(raw)
	if StderrRedraws(raw) {
		s = strings.TrimLeft(s, "\r")
	}
	return strings.TrimRight(s, "\r\n")
}

// stderrLineMax bounds one line of a StderrTail (bytes): a line continued without end (a
// progress bar that never redraws) keeps its start and says how much more came.
const stderrLineMax = 4 << 10

// StderrTail keeps the last Keep lines of a server's stderr as a terminal shows them: a
// frame that redraws (StderrRedraws) replaces the unfinished line it follows, one that
// follows an unfinished line continues it. The zero value keeps nothing; set Keep first.
type StderrTail struct {
	Keep  int
	lines []string // a ring of the last Keep lines
	n     int      // lines ever started
	open  bool     // the last line has not ended
	more  int      // bytes of the last line beyond stderrLineMax, not kept
}

// Add takes one stderr frame.
func (t *StderrTail) Add(raw []byte) {
	if t.Keep <= 0 {
		return
	}
	text := StderrText(raw)
	switch {
	case t.open && StderrRedraws(raw):
		t.more = 0
		t.set(text)
	case t.open:
		t.set(t.last() + text)
	default:
		t.more = 0
		if len(t.lines) < t.Keep {
			t.lines = append(t.lines, "")
		}
		t.n++
		t.set(text)
	}
	t.open = !StderrEnds(raw)
}

func (t *StderrTail) last() string {
	s := t.lines[(t.n-1)%t.Keep]
	if t.more > 0 {
		s, _ = strings.CutSuffix(s, t.moreNote())
	}
	return s
}

func (t *StderrTail) moreNote() string {
	return " … (" + strconv.Itoa(t.more) + " bytes more)"
}

// set writes the last line, bounded by stderrLineMax.
func (t *StderrTail) set(s string) {
	if len(s) > stderrLineMax {
		t.more += len(s) - stderrLineMax
		s = strings.ToValidUTF8(s[:stderrLineMax], "") + t.moreNote()
	} else if t.more > 0 {
		s += t.moreNote()
	}
	t.lines[(t.n-1)%t.Keep] = s
}

// Lines returns the last n lines (at most Keep), oldest first, raw (unsanitized) text.
func (t *StderrTail) Lines(n int) []string {
	n = min(n, len(t.lines))
	out := make([]string, 0, n)
	for k := t.n - n; k < t.n; k++ {
		out = append(out, t.lines[k%t.Keep])
	}
	return out
}

// Live is the last line while it has not ended (a progress bar's latest state, a
// "Loading… " waiting for its "done"); ok is false when the last line ended.
func (t *StderrTail) Live() (line string, ok bool) {
	if !t.open || t.n == 0 {
		return "", false
	}
	return t.lines[(t.n-1)%t.Keep], true
}

// Count is how many lines the tail has seen start.
func (t *StderrTail) Count() int { return t.n }
