package mcpclient

// Message framing on a stdio server's pipes (issue #14). MCP's stdio transport is
// newline-delimited JSON in every revision (MCP 2025-11-25 basic/transports §stdio); MCP
// courses teach LSP-style Content-Length framing instead, so a student's first server often
// speaks it. The Framer always reads both (a header-framed frame is one frame, flagged
// CodeLSPFraming); Config.Framing decides what the client writes and what it does when the
// server's framing is not the one it writes.

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Framing is how messages are delimited on a stdio server's stdin and stdout.
type Framing string

const (
	// FramingNewline is MCP's stdio framing: one JSON-RPC message per line. A server that
	// writes a Content-Length header ends the wait of every pending request at once with a
	// *FramingError.
	FramingNewline Framing = "newline"
	// FramingContentLength is LSP-style framing, which MCP does not allow: each message is
	// "Content-Length: N\r\n\r\n" and N bytes of JSON, no newline. Server frames so framed
	// still carry CodeLSPFraming (a Warning on the first, Info after it).
	FramingContentLength Framing = "content-length"
	// FramingAuto writes newline JSON until the server writes a Content-Length header, then
	// reads its framing, says so in a lifecycle note, and writes Content-Length framing too
	// (re-sending the requests still pending) unless the header-framed frame answered a
	// request sent as a JSON line (the server reads newline JSON: writing stays newline).
	FramingAuto Framing = "auto"
)

// FramingAutoNote starts the text of the lifecycle note a --framing auto session writes
// when the server shows Content-Length framing (the UI and headless commands look for it).
const FramingAutoNote = "--framing auto: "

// ParseFraming reads a --framing value ("" is FramingNewline).
func ParseFraming(s string) (Framing, error) {
	switch f := Framing(strings.ToLower(s)); f {
	case "":
		return FramingNewline, nil
	case FramingNewline, FramingContentLength, FramingAuto:
		return f, nil
	}
	return "", fmt.Errorf("framing %q: want newline, content-length or auto", s)
}

// FramingError says the server and the session frame messages differently, in a way no
// answer can cross: the server writes LSP-style Content-Length headers while the session
// writes newline-delimited JSON (--framing newline, the default), or, with --framing
// content-length, the server answers in newline-delimited JSON. Pending and later requests
// fail with it at once instead of waiting for their timeout.
type FramingError struct {
	// Seq is the event of the server frame that showed it.
	Seq uint64
	// Newline is set when the server writes newline-delimited JSON to a session that writes
	// Content-Length framing.
	Newline bool
	// Answers is set when the server's Content-Length frame answers a request the session
	// wrote as a JSON line: it reads newline JSON and only writes headers, which
	// --framing auto talks to (--framing content-length would not).
	Answers bool
	// Request names the request that was waiting ("request id 1 (initialize)"), "" when none.
	Request string
}

func (e *FramingError) Error() string {
	s := fmt.Sprintf("the server wrote a Content-Length header (event #%d): it frames its messages LSP-style, but MCP stdio is newline-delimited JSON, one message per line; to talk to it anyway, run again with --framing content-length", e.Seq)
	if e.Answers {
		s = fmt.Sprintf("the server answered a JSON line with a Content-Length framed message (event #%d): it reads MCP's newline-delimited JSON but writes LSP-style headers, which MCP stdio does not allow; to talk to it anyway, run again with --framing auto (it reads their framing and keeps writing JSON lines)", e.Seq)
	}
	if e.Newline {
		s = fmt.Sprintf("the server answered with newline-delimited JSON (event #%d), MCP's stdio framing, to messages sent with Content-Length headers (--framing content-length); run again without --framing content-length (or with --framing auto)", e.Seq)
	}
	if e.Request != "" {
		s = e.Request + ": " + s
	}
	return s
}

// frameLocked frames a message body for the server's stdin in the framing the session writes.
func (c *Client) frameLocked(b []byte) []byte {
	if !c.writeCL {
		return append(b, '\n')
	}
	hdr := "Content-Length: " + strconv.Itoa(len(b)) + "\r\n\r\n"
	out := make([]byte, 0, len(hdr)+len(b))
	return append(append(out, hdr...), b...)
}

// checkFramingLocked acts on a server frame with a Content-Length header (ev is stamped and
// paired, not emitted yet). It returns true when it emitted ev itself and ev must not be
// routed; after, when not nil, runs once ev has been emitted.
func (c *Client) checkFramingLocked(ev *Event) (handled bool, after func()) {
	if c.tr != nil || c.framingSeen {
		return false, nil
	}
	if !HasCode(ev.Problems, CodeLSPFraming) {
		if c.probedCL && ev.Kind.IsMessage() {
			// --framing auto tried Content-Length on a server that was only slow: it
			// answers newline JSON after all.
			c.framingSeen, c.writeCL, c.probedCL = true, false, false
			seq := ev.Seq // not ev: a closure over it would move every frame's event to the heap
			return false, func() {
				c.noteLocked(fmt.Sprintf(FramingAutoNote+"the server answered newline JSON (event #%d): it was slow, not framed LSP-style; newline JSON from now on", seq))
			}
		}
		// With --framing content-length, a newline JSON message that answers nothing we
		// sent (typically -32700 with a null id: the server could not read our headers).
		if c.cfg.Framing != FramingContentLength || !ev.Kind.IsMessage() || c.answersLocked(ev) {
			return false, nil
		}
		c.framingSeen = true
		c.failFramingLocked(ev, &FramingError{Seq: ev.Seq, Newline: true})
		return true, nil
	}
	c.framingSeen = true
	switch c.cfg.Framing {
	case FramingContentLength:
		return false, nil
	case FramingAuto:
		return false, c.autoSwitchLocked(ev)
	}
	c.failFramingLocked(ev, &FramingError{Seq: ev.Seq, Answers: c.answersLocked(ev)})
	return true, nil
}

// answersLocked reports whether ev is the response a pending request waits for.
func (c *Client) answersLocked(ev *Event) bool {
	if ev.Kind != KindResponse && ev.Kind != KindErrorResponse {
		return false
	}
	p, ok := c.pending[idKey(ev.Msg.ID)]
	return ok && ev.Pair == p.seq
}

// failFramingLocked emits ev and a note saying fe, and fails every pending request (and,
// through c.framingErr, every later one) with fe.
func (c *Client) failFramingLocked(ev *Event, fe *FramingError) {
	c.framingErr = fe
	c.emitLocked(*ev)
	c.emitLocked(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, PID: c.pid, Err: fe, Text: fe.Error()}})
	for _, p := range c.pendingInOrderLocked() {
		e := *fe
		e.Request = p.label()
		p.ch <- reqOutcome{err: &e}
		c.dropLocked(p)
	}
}

// autoSwitchLocked decides, on the first header-framed frame of a --framing auto session,
// what the client writes from now on; the returned func says so and re-sends what is pending.
func (c *Client) autoSwitchLocked(ev *Event) func() {
	seq := ev.Seq // the closures keep this, not ev (see checkFramingLocked)
	if c.probedCL {
		return func() {
			c.noteLocked(fmt.Sprintf(FramingAutoNote+"the server answered the Content-Length framed request (event #%d): it is framed LSP-style; Content-Length both ways from now on (still a violation: MCP stdio is newline-delimited JSON)", seq))
		}
	}
	if c.answersLocked(ev) {
		return func() {
			c.noteLocked(fmt.Sprintf(FramingAutoNote+"the server answered a JSON line with a Content-Length framed message (event #%d): reading its Content-Length framing, still writing newline JSON, which it reads", seq))
		}
	}
	c.writeCL = true
	return func() {
		pend := c.pendingInOrderLocked()
		text := fmt.Sprintf(FramingAutoNote+"the server writes Content-Length framing (event #%d): switched to Content-Length framing both ways", seq)
		if len(pend) > 0 {
			text += fmt.Sprintf("; re-sending %d pending request(s) so framed", len(pend))
		}
		c.noteLocked(text + " (still a violation: MCP stdio is newline-delimited JSON)")
		for _, p := range pend {
			c.resendLocked(p)
		}
	}
}

func (c *Client) noteLocked(text string) {
	c.emitLocked(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, PID: c.pid, Text: text}})
}

// pendingInOrderLocked returns the pending requests, oldest first.
func (c *Client) pendingInOrderLocked() []*pendingReq {
	ps := make([]*pendingReq, 0, len(c.pending))
	for _, p := range c.pending {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b *pendingReq) int { return int(a.seq) - int(b.seq) })
	return ps
}

// resendLocked writes a pending request again, in the framing the session writes now; its
// response pairs with the new event.
func (c *Client) resendLocked(p *pendingReq) {
	if p.body == nil || c.writer == nil {
		return
	}
	if err := c.writeMsgLocked(append([]byte(nil), p.body...), KindRequest, p.msg, time.Time{}); err != nil {
		return
	}
	p.seq = c.seq
}

// Framing is the framing the client writes now (FramingAuto resolves to FramingNewline or
// FramingContentLength once the server has shown its framing).
func (c *Client) Framing() Framing {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.writeCL {
		return FramingContentLength
	}
	return FramingNewline
}

// Complete reports whether raw is a whole frame as the Framer ends one: a line with its
// newline, or a Content-Length framed message with its whole body (a trace reader tells a
// frame the stream cut short by this).
func Complete(raw []byte) bool {
	if bytes.HasSuffix(raw, []byte("\n")) {
		return true
	}
	hdr, body, ok := SplitHeader(raw)
	if !ok {
		return false
	}
	f := Framer{clen: -1}
	for _, l := range bytes.SplitAfter(hdr, []byte("\n")) {
		f.noteHeader(l)
	}
	return f.clen == int64(len(body))
}
