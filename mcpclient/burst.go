package mcpclient

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Answers that come in bursts (issue 24). A server whose stdout is block-buffered on a pipe
// (Python without -u, C stdio, some Node loggers) holds its answers until the buffer fills:
// they then come together, in one read, to requests sent over seconds. burstWatch notices
// it on stdio: burstMin responses within burstGap of each other, to requests sent over at
// least burstSpread, one of them having waited burstWait or more for its answer (a fast
// client's prompt answers come within burstGap of each other too, but none waited).

const (
	burstGap    = 10 * time.Millisecond
	burstMin    = 3
	burstSpread = 500 * time.Millisecond
	burstWait   = time.Second
)

// burstWatch follows the responses to pending requests as they are read.
type burstWatch struct {
	last           time.Time     // when the latest response was read
	n              int           // responses in the current burst
	oldest, newest time.Time     // the send times of the burst's requests
	wait           time.Duration // the longest a request of the burst waited for its answer
	lastSeq        uint64        // the event of the latest response
	said           bool
}

// response takes a response read at now to a request sent at sent and reports whether it
// completes a burst worth saying (once per client).
func (b *burstWatch) response(now, sent time.Time, seq uint64) bool {
	b.lastSeq = seq
	if b.n == 0 || now.Sub(b.last) > burstGap {
		b.n, b.oldest, b.newest, b.wait = 0, sent, sent, 0
	}
	b.wait = max(b.wait, now.Sub(sent))
	b.last = now
	b.n++
	if sent.Before(b.oldest) {
		b.oldest = sent
	}
	if sent.After(b.newest) {
		b.newest = sent
	}
	if b.said || b.n < burstMin || b.newest.Sub(b.oldest) < burstSpread || b.wait < burstWait {
		return false
	}
	b.said = true
	return true
}

// burstLocked says, once, that answers came together to requests that had waited. The note
// goes out just after the burst (burstGap later), with all of its answers counted.
func (c *Client) burstLocked(now, sent time.Time, seq uint64) {
	if c.tr != nil || !c.burst.response(now, sent, seq) || c.flushSaid {
		return
	}
	c.flushSaid = true // one note about the buffer is enough
	time.AfterFunc(2*burstGap, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		b := &c.burst
		c.noteLocked(fmt.Sprintf(BufferedNote+"%d answers came together (the last is event #%d), to requests sent over %s, one after waiting %s: the server's stdout is likely block-buffered on a pipe and flushed only when its buffer fills; flush after each message (%s)",
			b.n, b.lastSeq, b.newest.Sub(b.oldest).Round(10*time.Millisecond), b.wait.Round(10*time.Millisecond), flushFixes))
	})
}

// A Python server that flushes its handshake and nothing after (a print without flush)
// holds every later answer: the request just waits. When the server is Python run without
// -u or PYTHONUNBUFFERED and a request after the handshake has had no answer, and nothing
// came on stdout, for the silence interval, a note says the answer may be in its buffer.

// watchHeldLocked starts that watch for request p, once per client.
func (c *Client) watchHeldLocked(p *pendingReq) {
	if c.tr != nil || c.heldWatched || c.flushSaid || c.cfg.Silence < 0 || !c.heard.Load() {
		return
	}
	if c.pyBuffered == 0 {
		// Asked once: the command and its environment are the spawned server's, fixed.
		c.pyBuffered = 1
		if pythonBuffered(c.cfg.Command, c.cfg.Args, c.cfg.Env) {
			c.pyBuffered = 2
		}
	}
	if c.pyBuffered != 2 {
		return
	}
	c.heldWatched = true
	frames := c.pairer.fromServer
	// Copies: p is reused once answered (Client.recycle).
	id, method, seq := p.id, p.method, p.seq
	time.AfterFunc(c.silenceAfter(), func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if q, waiting := c.pending[id]; !waiting || q.seq != seq || c.pairer.fromServer != frames || c.flushSaid || c.dead != nil || c.state == StateClosed {
			c.heldWatched = false // watch the next request instead
			return
		}
		c.flushSaid = true
		c.noteLocked(fmt.Sprintf(BufferedNote+"%s (event #%d) has had no answer for %s and nothing came on stdout, from a Python server run without -u or PYTHONUNBUFFERED: unless it is just slow, its stdout is block-buffered on a pipe and holds the answer; flush after each message (%s)",
			method, seq, c.silenceAfter(), flushFixes))
	})
}

// pythonBuffered reports whether a command runs Python with its stdout block-buffered on a
// pipe: python, python3, python3.12 … (or uv, uvx) without -u, and PYTHONUNBUFFERED not set
// in env (the last value wins, as in the child's environment) or inherited.
func pythonBuffered(command string, args, env []string) bool {
	python := false
	for i, w := range append([]string{command}, args...) {
		base := strings.TrimSuffix(strings.ToLower(filepath.Base(w)), ".exe")
		switch {
		case w == "-u" && python:
			return false
		case pythonName(base) || i == 0 && (base == "uv" || base == "uvx"):
			python = true
		}
	}
	if !python {
		return false
	}
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "PYTHONUNBUFFERED="); ok {
			return v == ""
		}
	}
	return os.Getenv("PYTHONUNBUFFERED") == ""
}

// pythonName reports whether base names a Python interpreter: py, python, python3,
// python3.12.
func pythonName(base string) bool {
	if base == "py" {
		return true
	}
	v, ok := strings.CutPrefix(base, "python")
	return ok && strings.Trim(v, "0123456789.") == ""
}
