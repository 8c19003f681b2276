package mcpclient

// Reading the server's stdout and stderr, and routing each frame: events, responses to
// their callers, progress, server requests, --strict violations.

import (
	"fmt"
	"os"
	"runtime/debug"
)

func (c *Client) readStdout(r *os.File) {
	defer close(c.stdoutEOF)
	defer r.Close()
	fr := NewFramer(r, c.cfg.MaxMessage)
	for {
		c.waitRoom()
		f, err := fr.Next()
		if err != nil {
			return
		}
		if len(f.Raw) >= collectAfter {
			// The blocks the frame was assembled in are garbage as large as the frame:
			// reclaim them now and give their pages back to the system, before the
			// frame's consumers (the recorder, the result's decoding) allocate their own
			// copies, so a huge message costs its copies and not also the GC's lag (a
			// 200 MB result: 615 MB resident with a collection alone).
			debug.FreeOSMemory()
		}
		c.handleFrame(f)
	}
}

// collectAfter is the frame size from which readStdout runs a collection (32 MiB).
const collectAfter = 32 << 20

// readStderr reads the server's stderr as a terminal shows it (stderrSplitter): lines, and
// the redraws and unfinished lines of progress output as they come.
func (c *Client) readStderr(r *os.File) {
	defer close(c.stderrEOF)
	defer r.Close()
	var sp stderrSplitter
	buf := make([]byte, 32<<10)
	for {
		c.waitRoom()
		n, err := r.Read(buf)
		if n > 0 {
			sp.Feed(buf[:n], n < len(buf), c.stderrFrame)
		}
		if err != nil {
			sp.End(c.stderrFrame)
			return
		}
	}
}

// stderrFrame keeps a stderr frame in the tail an ExitError carries and emits it.
func (c *Client) stderrFrame(f Frame) {
	c.mu.Lock()
	c.stderrTail.Add(f.Raw)
	c.stderrFrames++
	c.emitLocked(Event{Dir: Stderr, Kind: KindStderr, Raw: f.Raw, Size: f.Size, Offset: f.Offset, Line: f.Line})
	c.mu.Unlock()
}

func (c *Client) handleFrame(f Frame) {
	if c.cfg.Intercept != nil && !f.Oversize && !f.Partial && c.cfg.Intercept.Active() && !c.intercept(&f) {
		return
	}
	c.heard.Store(true)
	ev := Event{Dir: ServerToClient, Raw: f.Raw, Size: f.Size, Offset: f.Offset, Line: f.Line, Chunks: f.Chunks, ChunkCount: f.ChunkCount, Exchange: f.Exchange}
	switch {
	case f.Oversize:
		ev.Kind = KindOversize
		ev.Problems = []Problem{{Warning, CodeOversize, fmt.Sprintf("frame of %d bytes is over the %d-byte limit (--max-message); only the first %d bytes are kept", f.Size, c.cfg.MaxMessage, len(f.Raw))}}
	case f.Partial:
		ev.Kind, ev.Msg, ev.Problems = Classify(f.Raw)
		if ev.Kind.IsMessage() {
			ev.Problems = append(ev.Problems, Problem{Warning, CodePartial, "stream ended before this frame's newline"})
		} else {
			ev.Kind = KindPartial
			ev.Problems = append(ev.Problems, Problem{Warning, CodePartial, "stream ended in the middle of a line"})
		}
	case c.tr != nil:
		ev.Kind, ev.Msg, ev.Problems = ClassifyBody(f.Raw)
	default:
		ev.Kind, ev.Msg, ev.Problems = Classify(f.Raw)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stampLocked(&ev)
	c.pairer.Add(&ev)
	handled, after := c.checkFramingLocked(&ev)
	if after != nil {
		defer after()
	}
	if c.cfg.Strict {
		// Every problem of the frame is known now; the stop follows its emission.
		defer c.checkStrictLocked(ev)
	}
	if handled {
		return
	}
	switch ev.Kind {
	case KindResponse, KindErrorResponse:
		late := c.stdinClosed && (HasCode(ev.Problems, CodeAfterTimeout) || c.answersLocked(&ev))
		c.routeResponseLocked(&ev)
		if late {
			c.flushedAtExitLocked(ev.Seq)
		}
		return
	case KindOversize:
		c.routeOversizeLocked(&ev)
		return
	case KindBatch:
		c.routeBatchLocked(&ev)
		return
	case KindNotification:
		if ev.Msg.Method == "notifications/progress" {
			c.progressLocked(ev.Pair)
		}
	case KindRequest:
		if HasCode(ev.Problems, CodeModernServerRequest) {
			c.emitLocked(ev)
			return
		}
		capOK := !HasCode(ev.Problems, CodeCapabilityNotAdvertised)
		seq := c.emitLocked(ev)
		c.awaitingUser++
		c.answering.Add(1)
		go c.answerServerRequest(ev.Msg, seq, capOK)
		return
	}
	c.emitLocked(ev)
}

// HasCode reports whether probs holds a problem with code: the one test the client, the UI
// and check use to ask what a frame was found to break.
func HasCode(probs []Problem, code ProblemCode) bool {
	for _, p := range probs {
		if p.Code == code {
			return true
		}
	}
	return false
}

// checkStrictLocked stops a --strict session at the first server frame with a Warning problem.
func (c *Client) checkStrictLocked(ev Event) {
	if c.violation != nil {
		return
	}
	for _, p := range ev.Problems {
		if p.Severity != Warning {
			continue
		}
		v := &ViolationError{Seq: ev.Seq, Problem: p}
		c.violation = v
		c.emitLocked(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, PID: c.pid, Err: v, Text: v.Error()}})
		for _, pr := range c.pending {
			pr.ch <- reqOutcome{err: v}
			c.dropLocked(pr)
		}
		go c.Close()
		return
	}
}

// routeOversizeLocked pairs an oversize frame with its request when the kept head still shows
// the id, and fails that request at once with an *OversizeError (case B03: never a silent
// stall until the timeout).
func (c *Client) routeOversizeLocked(ev *Event) {
	p, ok := c.bySeqLocked(ev.Pair)
	c.emitLocked(*ev)
	if ev.Pair == 0 || !ok {
		return
	}
	c.dropLocked(p)
	p.ch <- reqOutcome{err: &OversizeError{Request: p.label(), Size: ev.Size, Limit: c.cfg.MaxMessage}}
}

// bySeqLocked is the pending request whose request event is seq. It looks through
// pending, which holds the requests in flight (a few; as many as bench's callers): a map by
// seq too cost every call an insert and a delete for the rare progress notification or
// oversize answer that needs it.
func (c *Client) bySeqLocked(seq uint64) (*pendingReq, bool) {
	if seq == 0 {
		return nil, false
	}
	for _, p := range c.pending {
		if p.seq == seq {
			return p, true
		}
	}
	return nil, false
}

// progressLocked resets the timeout of the request with Seq pair (0: none) on a progress
// notification (MCP 2025-11-25 basic/utilities/progress).
func (c *Client) progressLocked(pair uint64) {
	if pair == 0 {
		return
	}
	if p, ok := c.bySeqLocked(pair); ok {
		select {
		case p.progress <- struct{}{}:
		default:
		}
	}
}

// routeBatchLocked emits a JSON-RPC batch frame (JSON-RPC 2.0 §6; MCP 2025-03-26 only) and
// hands each response element the Pairer matched to its waiting request, so a request
// answered inside a batch completes instead of timing out; the Response's Seq is the
// batch's. Progress notifications inside reset their request's timeout. Server requests
// inside a batch are shown, not answered (the Pairer notes them as unanswered).
func (c *Client) routeBatchLocked(ev *Event) {
	seq := c.emitLocked(*ev)
	if ev.Batch == nil {
		return
	}
	for i := range ev.Batch.Elems {
		el := &ev.Batch.Elems[i]
		switch el.Kind {
		case KindNotification:
			if el.Msg.Method == "notifications/progress" {
				c.progressLocked(el.Pair)
			}
		case KindRequest:
			// Answered as one alone would be, one response frame each: JSON-RPC 2.0 §6
			// would gather them into an array, but a server waits on each id, and MCP SDKs
			// take a lone response to a batched request.
			if HasCode(el.Problems, CodeModernServerRequest) {
				continue
			}
			c.awaitingUser++
			c.answering.Add(1)
			go c.answerServerRequest(el.Msg, seq, !HasCode(el.Problems, CodeCapabilityNotAdvertised))
		case KindResponse, KindErrorResponse:
			p, ok := c.pending[idKey(el.Msg.ID)]
			if !ok || el.Pair != p.seq {
				c.noteStrayLocked(el.Msg, el.Problems, ev.Time, seq)
				c.failMismatchLocked(el.Msg, el.Problems, seq)
				continue // unknown, duplicate or late: the element's problems say so
			}
			c.dropLocked(p)
			r := &Response{Msg: el.Msg, Seq: seq, RequestSeq: p.seq, Elapsed: ev.Time.Sub(p.sent)}
			if el.Msg.Error != nil {
				p.ch <- reqOutcome{resp: r, err: el.Msg.Error}
				continue
			}
			p.ch <- reqOutcome{resp: r}
		}
	}
}

// routeResponseLocked hands a response the Pairer matched to its waiting request.
func (c *Client) routeResponseLocked(ev *Event) {
	p, ok := c.pendingByID(ev.Msg.ID)
	if !ok || ev.Pair != p.seq {
		// Unknown, duplicate or late: the Pairer has said so in the event's problems.
		seq := c.emitLocked(*ev)
		c.noteStrayLocked(ev.Msg, ev.Problems, ev.Time, seq)
		c.failMismatchLocked(ev.Msg, ev.Problems, seq)
		return
	}
	now := ev.Time
	seq := c.emitLocked(*ev)
	c.dropLocked(p)
	c.burstLocked(now, p.sent, seq)
	r := &Response{Msg: ev.Msg, Seq: seq, RequestSeq: p.seq, Elapsed: now.Sub(p.sent)}
	if ev.Msg.Error != nil {
		p.ch <- reqOutcome{resp: r, err: ev.Msg.Error}
		return
	}
	p.ch <- reqOutcome{resp: r}
}

// capabilityFor names the client capability a server→client request needs (MCP 2025-11-25
// basic/lifecycle §Capability Negotiation), "" when none.
func capabilityFor(method string) string {
	switch method {
	case "sampling/createMessage":
		return "sampling"
	case "elicitation/create":
		return "elicitation"
	case "roots/list":
		return "roots"
	case "tasks/get", "tasks/result", "tasks/list", "tasks/cancel":
		return "tasks"
	}
	return ""
}
