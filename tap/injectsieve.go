package tap

import (
	"bytes"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// sieveMax is the largest frame (in bytes, without its line ending) the sieve reads before
// it is parsed; a larger one is parsed, as its copying costs more than its match.
const sieveMax = 512

// recentSlots is how many of the requests the sieve let by unread are kept per side to name
// their responses (recentFrames).
const recentSlots = 16

// sieved reports whether no rule and no breakpoint can match the frame msg going dir, told
// by a few substring searches (wirefilter.Sieve): then it goes on unparsed and is not
// remembered, and a response to it is matched as one to an unknown request, which the
// filters match the same. A frame parsed every time cost a stdio round trip with rules that
// match nothing 5 to 10 % of a tap's latency, from a scan of its members and a lock and a
// map both forwarding goroutines share.
func (in *injector) sieved(dir mcpclient.Direction, msg []byte) bool {
	if len(msg) > sieveMax {
		return false
	}
	_, ok := in.ruledOutBy(dir, msg)
	return ok
}

// keepRequests keeps, to name their responses (recentFrames), the requests among the whole
// lines b sent dir, when a filter may match a response to them. The gate calls it once they
// are forwarded: the keeping is off the round trip's path. A request the sieve did not rule
// out is remembered besides; keeping it too is harmless. rc, when set, is the recorder's
// copy of b: the requests kept refer to it (a copy into the ring, cold on a busy machine,
// cost a tap with rules up to 4 % of its added latency).
func (in *injector) keepRequests(dir mcpclient.Direction, b []byte, rc readCopy) {
	if !in.keeps(dir, b) {
		return
	}
	r := &in.recent[sideOf(dir)]
	one := bytes.IndexByte(b, '\n') >= len(b)-2 // one line: keeps saw it may be a request
	for off := 0; off < len(b); {
		line := b[off:]
		next := len(b)
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, next = line[:i], off+i+1
		}
		if line, _ = splitEOL(line); len(line) > 0 && len(line) <= sieveMax && (one || mayBeRequest(line)) {
			if rc.data != nil {
				r.keepRef(rc.data[off:off+len(line)], rc.buf)
			} else {
				r.keep(line)
			}
		}
		off = next
	}
}

// keepRequest is keepRequests for one message.
func (in *injector) keepRequest(dir mcpclient.Direction, msg []byte) {
	if len(msg) > 0 && len(msg) <= sieveMax && in.keeps(dir, msg) {
		in.recent[sideOf(dir)].keep(msg)
	}
}

// keeps reports whether b, sent dir, may hold requests to keep.
func (in *injector) keeps(dir mcpclient.Direction, b []byte) bool {
	if !in.active() {
		return false
	}
	p := in.plan.Load()
	return p != nil && p.keep[sideOf(dir)] && mayBeRequest(b)
}

// ruledOut reports whether no rule and no breakpoint can match any message in b, bytes of
// whole frames going dir (an event stream's), and none of them need be kept to name a
// response: b may go on as it came.
func (in *injector) ruledOut(dir mcpclient.Direction, b []byte) bool {
	p, ok := in.ruledOutBy(dir, b)
	return ok && !(p.keep[sideOf(dir)] && mayBeRequest(b))
}

// ruledOutBy is the sieve's verdict on b going dir, and the plan that gave it.
func (in *injector) ruledOutBy(dir mcpclient.Direction, b []byte) (*sievePlan, bool) {
	side := sideOf(dir)
	// What may answer a remembered request is parsed: its match may depend on it. So is a
	// request while the same side has one remembered: it may reuse that one's id (a host
	// breaking the spec), and then replaces it, as the one the answer is matched with.
	if in.pendN[1-side].Load() > 0 || (in.pendN[side].Load() > 0 && mayBeRequest(b)) {
		return nil, false
	}
	p := in.sievePlan()
	return p, p.sieve[side].RulesOut(b)
}

// mayHold reports whether a breakpoint may hold the message b going dir (then what went
// before it is recorded first, a write the path waits for).
func (in *injector) mayHold(dir mcpclient.Direction, b []byte) bool {
	if !in.holding() {
		return false
	}
	_, ruled := in.ruledOutBy(dir, b)
	return !ruled
}

// mayBeRequest reports whether b may hold a request (a member "method"; a quote first would
// make the search slow: JSON is full of them).
func mayBeRequest(b []byte) bool { return bytes.Contains(b, []byte(`method"`)) }

// sievePlan is the sieves of the rules and the breakpoints in force, for frames each way.
type sievePlan struct {
	// bp and nbp say which breakpoints it was made with (HoldTable.Filters is replaced
	// whole when they change).
	bp  *wirefilter.Filter
	nbp int
	// sieve is per side that sends the frame: [0] the host, [1] the server.
	sieve [2]wirefilter.Sieve
	// keep says a side's requests that go by are kept (recentFrames): some filter may
	// match a response to them.
	keep [2]bool
}

// sievePlan returns the plan for the breakpoints in force, made anew when they changed.
func (in *injector) sievePlan() *sievePlan {
	var bps []wirefilter.Filter
	if in.holds != nil {
		bps = in.holds.table.Filters()
	}
	var bp *wirefilter.Filter
	if len(bps) > 0 {
		bp = &bps[0]
	}
	if p := in.plan.Load(); p != nil && p.bp == bp && p.nbp == len(bps) {
		return p
	}
	fs := make([]wirefilter.Filter, 0, len(in.rules)+len(bps))
	for i := range in.rules {
		fs = append(fs, in.rules[i].Filter)
	}
	fs = append(fs, bps...)
	p := &sievePlan{bp: bp, nbp: len(bps)}
	for side, d := range []mcpclient.Direction{mcpclient.ClientToServer, mcpclient.ServerToClient} {
		p.sieve[side] = wirefilter.NewSieve(dirOnly(d).Dir(), fs)
		// A response from the other side, to an unknown request, may match.
		for _, f := range fs {
			p.keep[side] = p.keep[side] || f.MayMatch(dirOnly(opposite(d)), knowsDirMethodTool)
		}
	}
	in.plan.Store(p)
	return p
}

// knowsDirMethodTool: what a dirOnly tells of a response to an unknown request, whose
// method and tool are "".
func knowsDirMethodTool(key string) bool { return key == "dir" || key == "method" || key == "tool" }

// sideOf is the index of dir's sender in per-side tables: 0 the host, 1 the server.
func sideOf(dir mcpclient.Direction) int {
	if dir == mcpclient.ServerToClient {
		return 1
	}
	return 0
}

// recentFrames keeps copies of the last requests (and notifications) one side sent that the
// sieve let by unread, so that a note on a response matched later names what it answers
// ("response id 3 (tools/list)"). The side's forwarding goroutine writes; the other side's
// reads only when it describes a frame.
type recentFrames struct {
	// busy is set while the side's forwarding goroutine is between reading and keeping
	// (lineGate.write): a response to what it forwards can be described before the copy.
	busy atomic.Bool

	mu   sync.Mutex
	next int
	msg  [recentSlots][]byte    // a kept request: in own, or in buf
	buf  [recentSlots]*chunkBuf // the recorder's buffer msg is in, referenced; nil: in own
	own  [recentSlots][sieveMax]byte
}

// setBusy sets busy (r may be nil: nothing kept).
func (r *recentFrames) setBusy(b bool) {
	if r != nil {
		r.busy.Store(b)
	}
}

// keep copies msg, which may be a request.
func (r *recentFrames) keep(msg []byte) {
	r.mu.Lock()
	old := r.buf[r.next]
	n := copy(r.own[r.next][:], msg)
	r.msg[r.next], r.buf[r.next] = r.own[r.next][:n], nil
	r.next = (r.next + 1) % recentSlots
	r.mu.Unlock()
	old.release()
}

// keepRef keeps msg, which may be a request, where it is: in buf, which it holds a
// reference to until the slot is reused.
func (r *recentFrames) keepRef(msg []byte, buf *chunkBuf) {
	buf.refs.Add(1)
	r.mu.Lock()
	old := r.buf[r.next]
	r.msg[r.next], r.buf[r.next] = msg, buf
	r.next = (r.next + 1) % recentSlots
	r.mu.Unlock()
	old.release()
}

// recall finds the latest kept request with the JSON-RPC id id (as written) and returns its
// method and tool; ok is false when none is kept.
func (r *recentFrames) recall(id string) (method, tool string, ok bool) {
	// What is being forwarded is kept in a moment; a response can come first. Waiting
	// happens only for a frame a rule or breakpoint acts on.
	for deadline := time.Now().Add(recallWait); r.busy.Load() && time.Now().Before(deadline); {
		time.Sleep(20 * time.Microsecond)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for k := 1; k <= recentSlots; k++ {
		i := (r.next - k + recentSlots) % recentSlots
		if len(r.msg[i]) == 0 {
			continue
		}
		ev := frameEv{raw: r.msg[i]}
		ev.parse()
		if ev.kind == mcpclient.KindRequest && ev.id == id {
			return ev.method, ev.tool, true
		}
	}
	return "", "", false
}

// recallWait bounds how long recall waits for a forwarding goroutine to keep what it just
// forwarded (it may itself be blocked writing to a peer that does not read).
const recallWait = 20 * time.Millisecond
