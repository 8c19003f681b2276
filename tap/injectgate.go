package tap

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// lineGate is one direction of a stdio tap's forward path when --inject rules or an
// attach's breakpoints may act on frames.
// A rule matches a whole frame, so the gate holds a line until its newline has come, then
// passes it on or lets the first matching rule act on it. Lines no rule matches go on in
// runs, one write per read as without rules. A line that outgrows MaxMessage before its
// newline is passed on as it comes, unmatched.
type lineGate struct {
	s   *session
	dir mcpclient.Direction
	max int
	// fwd writes on in the gate's direction; back writes to the frame's sender (an
	// error answer to its request).
	fwd  func([]byte) bool
	back io.Writer

	partial []byte // the line held until its newline comes
	passing bool   // the current line outgrew max: passed on unmatched to its end
}

// lockedWriter serializes writes to one side: with rules set, both forward loops may write
// to it (a loop's own frames, and the other loop's error answers), whole lines each time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// write takes the bytes of one read; it reports false once fwd did.
func (g *lineGate) write(p []byte) bool { return g.writeRead(p, readCopy{}) }

// writeRead is write given the recorder's copy of p too (the same bytes, valid while a
// reference on its buffer is held; empty when there is none): the requests kept to name
// their responses refer to it instead of being copied once more.
func (g *lineGate) writeRead(p []byte, rc readCopy) bool {
	if len(g.partial) == 0 && !g.s.inj.active() {
		// No rules and no breakpoints (yet): the bytes go on as they come, as without a
		// gate. A line left open passes unmatched to its end should breakpoints come.
		if len(p) > 0 {
			g.passing = p[len(p)-1] != '\n'
		}
		return g.fwd(p)
	}
	// The requests kept to name their responses are copied once forwarded; until then a
	// response described on the other side waits for them (recentFrames.busy). None are
	// kept when no filter may match a response to them.
	if p0 := g.s.inj.plan.Load(); p0 != nil && !p0.keep[sideOf(g.dir)] {
		return g.lines(p, nil, readCopy{})
	}
	r := &g.s.inj.recent[sideOf(g.dir)]
	r.busy.Store(true)
	ok := g.lines(p, r, rc)
	r.busy.Store(false)
	return ok
}

// readCopy is the recorder's copy of a read: data holds the same bytes, in buf.
type readCopy struct {
	data []byte
	buf  *chunkBuf
}

// lines is write with rules or breakpoints active: each whole line is matched. r, when
// set, is where the requests forwarded are kept (its busy flag set while lines runs), from
// rc when it is there.
func (g *lineGate) lines(p []byte, r *recentFrames, rc readCopy) bool {
	if len(g.partial) > 0 || g.passing {
		nl := bytes.IndexByte(p, '\n')
		if nl < 0 {
			return g.hold(p)
		}
		line := p[:nl+1]
		p = p[nl+1:]
		if rc.data != nil {
			rc.data = rc.data[nl+1:]
		}
		if g.passing {
			g.passing = false
			if !g.fwd(line) {
				return false
			}
		} else {
			g.partial = append(g.partial, line...)
			ok := g.frame(g.partial)
			g.partial = g.partial[:0]
			if !ok {
				return false
			}
		}
	}
	run := 0  // the start of the lines passed unchanged, not yet written
	kept := 0 // the start of the lines forwarded, their requests not yet kept
	// settle keeps the requests forwarded ahead of i before something may block (a hold, a
	// delay), so that a response to them described meanwhile is named without waiting.
	settle := func(i int) {
		if r != nil && kept < i {
			var from readCopy
			if rc.data != nil {
				from = readCopy{rc.data[kept:i], rc.buf}
			}
			g.s.inj.keepRequests(g.dir, p[kept:i], from)
			kept = i
		}
	}
	for i := 0; i < len(p); {
		nl := bytes.IndexByte(p[i:], '\n')
		if nl < 0 {
			break
		}
		end := i + nl + 1
		body, eol := splitEOL(p[i:end])
		holding := g.s.inj.holding()
		if run < i && holding {
			// The line may be held: the lines ahead of it go on first.
			if !g.fwd(p[run:i]) {
				return false
			}
			run = i
		}
		if holding {
			settle(i)
			r.setBusy(false)
		}
		out, ok := g.s.inj.match(g.dir, body, eol)
		if holding {
			r.setBusy(true)
		}
		if ok {
			if run < i && !g.fwd(p[run:i]) {
				return false
			}
			settle(i)
			r.setBusy(false)
			ok = g.act(out)
			r.setBusy(true)
			if !ok {
				return false
			}
			run = end
		}
		i = end
	}
	last := bytes.LastIndexByte(p, '\n') + 1
	if run < last && !g.fwd(p[run:last]) {
		return false
	}
	settle(last)
	return g.hold(p[last:])
}

// frame passes on, or acts on, one whole line.
func (g *lineGate) frame(line []byte) bool {
	body, eol := splitEOL(line)
	if out, ok := g.s.inj.match(g.dir, body, eol); ok {
		return g.act(out)
	}
	ok := g.fwd(line)
	g.s.inj.keepRequest(g.dir, body)
	return ok
}

// hold keeps the start of a line; one that outgrows max goes on unmatched.
func (g *lineGate) hold(p []byte) bool {
	if len(p) == 0 {
		return true
	}
	if g.passing {
		return g.fwd(p)
	}
	if len(g.partial)+len(p) > g.max {
		g.passing = true
		held := g.partial
		g.partial = nil
		return (len(held) == 0 || g.fwd(held)) && g.fwd(p)
	}
	g.partial = append(g.partial, p...)
	return true
}

// end passes on what is held when the stream ends (a last line without its newline).
func (g *lineGate) end() {
	if len(g.partial) > 0 {
		g.fwd(g.partial)
		g.partial = nil
	}
}

// act carries out a rule's outcome: the note, the wait, the answer back, what goes on.
func (g *lineGate) act(out outcome) bool {
	if out.note != "" { // "": recorded already (a hold released as the session ended)
		g.s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: out.note, Cond: out.cond})
		g.s.log.Info("inject", "note", out.note)
	}
	if out.delay > 0 {
		time.Sleep(out.delay)
	}
	if out.back != nil {
		if _, err := g.back.Write(out.back); err != nil {
			g.s.log.Warn("writing an injected answer failed", "err", err)
		}
		g.s.recordSent(opposite(g.dir), out.back, NoteInjected)
	}
	if out.fwd == nil {
		return true
	}
	if out.cond == NoteEdited {
		g.s.recordSent(g.dir, out.fwd, NoteEdited)
	}
	return g.fwd(out.fwd)
}

// recordSent puts what the tap wrote in place of a frame (or in answer to it) into the
// trace, as a frame of direction dir marked written (NoteEdited, NoteInjected), after the
// note that says why.
func (s *session) recordSent(dir mcpclient.Direction, b []byte, written mcpclient.NoteCond) {
	ev := mcpclient.Event{Dir: dir, Raw: clone(b), Size: int64(len(b)), Written: written}
	s.q.push(item{t: time.Now(), ev: &ev})
}

func opposite(d mcpclient.Direction) mcpclient.Direction {
	if d == mcpclient.ClientToServer {
		return mcpclient.ServerToClient
	}
	return mcpclient.ClientToServer
}

// splitEOL splits a line into its message and its line ending ("\n" or "\r\n").
func splitEOL(line []byte) (body, eol []byte) {
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
		if n > 0 && line[n-1] == '\r' {
			n--
		}
	}
	return line[:n], line[n:]
}

// reportUnmatched notes, in the trace and on stderr, each rule that matched nothing.
func (s *session) reportUnmatched() {
	if s.inj == nil {
		return
	}
	for _, text := range s.inj.unmatched() {
		s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: text, Cond: NoteUnmatched})
		s.log.Warn("inject rule matched nothing", "note", text)
		fmt.Fprintf(s.opt.Stderr, "mcp-inspect tap: %s\n", text)
	}
}
