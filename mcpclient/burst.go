package mcpclient

import (
	"fmt"
	"time"
)

// Answers that come in bursts (issue 24). A server whose stdout is block-buffered on a pipe
// (Python without -u, C stdio, some Node loggers) holds its answers until the buffer fills:
// they then come together, in one read, to requests sent over seconds. burstWatch notices
// it on stdio: burstMin responses within burstGap of each other, to requests sent over at
// least burstSpread, the oldest of them waiting burstWait or more.

const (
	burstGap    = 10 * time.Millisecond
	burstMin    = 3
	burstSpread = 500 * time.Millisecond
	burstWait   = time.Second
)

// burstWatch follows the responses to pending requests as they are read.
type burstWatch struct {
	last           time.Time // when the latest response was read
	n              int       // responses in the current burst
	oldest, newest time.Time // the send times of the burst's requests
	lastSeq        uint64    // the event of the latest response
	said           bool
}

// response takes a response read at now to a request sent at sent and reports whether it
// completes a burst worth saying (once per client).
func (b *burstWatch) response(now, sent time.Time, seq uint64) bool {
	b.lastSeq = seq
	if b.n == 0 || now.Sub(b.last) > burstGap {
		b.n, b.oldest, b.newest = 0, sent, sent
	}
	b.last = now
	b.n++
	if sent.Before(b.oldest) {
		b.oldest = sent
	}
	if sent.After(b.newest) {
		b.newest = sent
	}
	if b.said || b.n < burstMin || b.newest.Sub(b.oldest) < burstSpread || now.Sub(b.oldest) < burstWait {
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
		c.noteLocked(fmt.Sprintf(BufferedNote+"%d answers came together (the last is event #%d), to requests sent over %s, the oldest after waiting %s: the server's stdout is likely block-buffered on a pipe and flushed only when its buffer fills; flush after each message (%s)",
			b.n, b.lastSeq, b.newest.Sub(b.oldest).Round(10*time.Millisecond), b.last.Sub(b.oldest).Round(10*time.Millisecond), flushFixes))
	})
}
