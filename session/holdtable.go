package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// DefaultHoldTimeout is how long a message is held when nobody says otherwise; then it goes
// on unchanged.
const DefaultHoldTimeout = 2 * time.Minute

// HoldTable is what every holder of messages keeps (a tap's, for its attach; LocalHolds,
// for the TUI's own client): the breakpoints, the hold timeout, and the messages held, each
// waiting for exactly one verdict. The holder waits in Wait on the goroutine that carries
// the message (so what comes after it waits too), and says what it holds and how holds end
// in its own way (OnEnd).
type HoldTable struct {
	// OnEnd, when set, is told of every hold's end (decided, timed out, released), outside
	// the table's lock.
	OnEnd func(HoldEnd)

	on atomic.Bool // breakpoints are set: the one thing asked of every message
	// filters is the breakpoints' filters, swapped whole by Set and Clear, so a forwarding
	// path reads them without the lock (Filters, MayMatch).
	filters atomic.Pointer[[]wirefilter.Filter]

	mu      sync.Mutex
	set     []holdBreakpoint
	timeout time.Duration
	next    int64
	held    map[int64]*heldMsg
	ended   bool
}

type holdBreakpoint struct {
	src string
	f   wirefilter.Filter
}

// heldMsg is one held message and the channel its verdict comes on.
type heldMsg struct {
	hold Hold
	at   time.Time
	done chan HoldVerdict
}

// HoldVerdict is how a hold ended: the decision and its word (HoldEnd.How).
type HoldVerdict struct {
	Decision HoldDecision
	How      string
	// After is how long the message was held.
	After time.Duration
}

// NewHoldTable makes a table with no breakpoints; timeout 0 is DefaultHoldTimeout.
func NewHoldTable(timeout time.Duration) *HoldTable {
	if timeout <= 0 {
		timeout = DefaultHoldTimeout
	}
	return &HoldTable{timeout: timeout, held: map[int64]*heldMsg{}}
}

// Active reports whether breakpoints are set (cheap: an atomic load).
func (t *HoldTable) Active() bool { return t.on.Load() }

// Set replaces the breakpoints (wire filters; blank ones are skipped, none clears them) and,
// when timeout > 0, the hold timeout. It returns what is now in force and whether there
// were breakpoints before; an error names the filter that does not parse (its column), or
// says the table has ended. Held messages stay held.
func (t *HoldTable) Set(filters []string, timeout time.Duration) (now BreakpointSet, had bool, err error) {
	set := make([]holdBreakpoint, 0, len(filters))
	for _, src := range filters {
		if strings.TrimSpace(src) == "" {
			continue
		}
		f, err := wirefilter.Parse(src)
		if err != nil {
			return BreakpointSet{}, false, fmt.Errorf("breakpoint %q: %w", src, err)
		}
		set = append(set, holdBreakpoint{src, f})
	}
	if timeout < 0 {
		return BreakpointSet{}, false, fmt.Errorf("hold timeout %s: it must be positive", timeout)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return BreakpointSet{}, false, errors.New("the session is ending: nothing more is held")
	}
	had = len(t.set) > 0
	t.set = set
	if timeout > 0 {
		t.timeout = timeout
	}
	fs := make([]wirefilter.Filter, len(set))
	for i, b := range set {
		fs[i] = b.f
	}
	t.filters.Store(&fs)
	t.on.Store(len(set) > 0)
	now = BreakpointSet{Filters: make([]string, len(set)), Timeout: t.timeout}
	for i, b := range set {
		now.Filters[i] = b.src
	}
	return now, had, nil
}

// MayMatch reports whether some breakpoint could match an event of which known says what
// can be read yet (wirefilter.Filter.MayMatch): false only when none can, so a forwarding
// path may pass such messages on unread.
func (t *HoldTable) MayMatch(ev wirefilter.Event, known func(key string) bool) bool {
	for _, f := range t.Filters() {
		if f.MayMatch(ev, known) {
			return true
		}
	}
	return false
}

// Filters is the breakpoints' filters in force (none when there are no breakpoints), read
// without the table's lock: a forwarding path asks it of every message. The slice is
// shared: not to be changed.
func (t *HoldTable) Filters() []wirefilter.Filter {
	if !t.on.Load() {
		return nil
	}
	if fs := t.filters.Load(); fs != nil {
		return *fs
	}
	return nil
}

// Clear drops the breakpoints (held messages stay held).
func (t *HoldTable) Clear() {
	t.mu.Lock()
	t.set = nil
	t.filters.Store(nil)
	t.on.Store(false)
	t.mu.Unlock()
}

// Holding is a message Hold took: what it is, and its verdict to Wait for.
type Holding struct {
	Hold
	msg *heldMsg
}

// Hold holds ev if a breakpoint matches it: the Hold made of it (ID, Breakpoint and
// Deadline filled in; raw cloned; what names it, asked only then), to be waited for with
// Wait. ok is false when no breakpoint matches, or the table has ended.
func (t *HoldTable) Hold(ev wirefilter.Event, dir mcpclient.Direction, raw []byte, what func() string, request bool) (held *Holding, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := slices.IndexFunc(t.set, func(b holdBreakpoint) bool { return b.f.Match(ev) })
	if t.ended || i < 0 {
		return nil, false
	}
	t.next++
	now := time.Now()
	h := &heldMsg{at: now, done: make(chan HoldVerdict, 1), hold: Hold{ID: t.next, Dir: dir, Raw: bytes.Clone(raw),
		What: what(), Breakpoint: t.set[i].src, Request: request, Deadline: now.Add(t.timeout)}}
	t.held[h.hold.ID] = h
	return &Holding{Hold: h.hold, msg: h}, true
}

// Wait waits for the verdict on held (a decision may have come before Wait did); at its
// deadline it is forwarded unchanged ("timeout").
func (t *HoldTable) Wait(held *Holding) HoldVerdict {
	h := held.msg
	timer := time.NewTimer(time.Until(h.hold.Deadline))
	defer timer.Stop()
	select {
	case v := <-h.done:
		return v
	case <-timer.C:
		t.settle(h.hold.ID, HoldVerdict{Decision: HoldDecision{Kind: HoldForward}, How: "timeout"})
		return <-h.done // the timeout's, or a decision that came as it passed
	}
}

// Decide settles hold id with d: a message to send is compacted to one line; answering is
// for requests only. The error says why d was refused (the hold stays as it was).
func (t *HoldTable) Decide(id int64, d HoldDecision) error {
	t.mu.Lock()
	h := t.held[id]
	t.mu.Unlock()
	if h == nil {
		return fmt.Errorf("hold #%d is no longer held (decided, timed out, or the session ended)", id)
	}
	how := "forwarded"
	switch d.Kind {
	case HoldForward:
	case HoldDrop:
		how = "dropped"
	case HoldSend, HoldAnswer:
		var b bytes.Buffer
		if err := json.Compact(&b, d.Message); err != nil {
			return fmt.Errorf("hold #%d: the message is not JSON: %v", id, err)
		}
		d.Message = b.Bytes()
		how = "edited"
		if d.Kind == HoldAnswer {
			if !h.hold.Request {
				return fmt.Errorf("hold #%d (%s) cannot be answered in the receiver's place: only a request can be (and over HTTP not one the server sent); forward it, edit it or drop it", id, h.hold.What)
			}
			how = "answered"
		}
	default:
		return fmt.Errorf("hold #%d: unknown decision %d", id, d.Kind)
	}
	if !t.settle(id, HoldVerdict{Decision: d, How: how}) {
		return fmt.Errorf("hold #%d is no longer held (decided, timed out, or the session ended)", id)
	}
	return nil
}

// Release forwards every held message unchanged, saying how ("detached", "ended"); with
// end set, the table holds nothing more. each, when set, is called for every hold released,
// after its waiter has the verdict (a holder that must record the end at once, before the
// waiter gets to it).
func (t *HoldTable) Release(how string, end bool, each func(Hold, HoldVerdict)) {
	t.mu.Lock()
	if end {
		t.ended = true
		t.set = nil
		t.filters.Store(nil)
		t.on.Store(false)
	}
	ids := slices.Sorted(maps.Keys(t.held))
	holds := make(map[int64]Hold, len(ids))
	for _, id := range ids {
		holds[id] = t.held[id].hold
	}
	t.mu.Unlock()
	for _, id := range ids {
		v := HoldVerdict{Decision: HoldDecision{Kind: HoldForward}, How: how}
		if after, ok := t.settleAfter(id, v); ok && each != nil {
			v.After = after
			each(holds[id], v)
		}
	}
}

// Idle reports whether nothing is set and nothing is held.
func (t *HoldTable) Idle() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.set) == 0 && len(t.held) == 0
}

// settle ends hold id with v; false when it had already ended.
func (t *HoldTable) settle(id int64, v HoldVerdict) bool {
	_, ok := t.settleAfter(id, v)
	return ok
}

// settleAfter is settle, also saying how long the message was held.
func (t *HoldTable) settleAfter(id int64, v HoldVerdict) (time.Duration, bool) {
	t.mu.Lock()
	h := t.held[id]
	delete(t.held, id)
	t.mu.Unlock()
	if h == nil {
		return 0, false
	}
	v.After = time.Since(h.at)
	if t.OnEnd != nil {
		t.OnEnd(HoldEnd{ID: id, How: v.How})
	}
	h.done <- v
	return v.After, true
}

// HoldNote is the lifecycle note of a hold's end: who is the breakpoint's words
// ("breakpoint (method:tools/call)"), what the message's ("request id 3 (tools/call echo)
// from the host #1"), whose who decided ("the attach's", "your").
func HoldNote(v HoldVerdict, who, what, whose string) (text string, cond mcpclient.NoteCond) {
	after := v.After.Round(time.Millisecond)
	switch v.Decision.Kind {
	case HoldSend:
		return fmt.Sprintf("%s: sent an edited message in place of %s (%s edit, after %s)", who, what, whose, after), HoldCondEdited
	case HoldDrop:
		return fmt.Sprintf("%s: dropped %s (%s decision, after %s)", who, what, whose, after), HoldCondDropped
	case HoldAnswer:
		return fmt.Sprintf("%s: answered %s with %s message in the receiver's place (after %s); not forwarded", who, what, whose, after), HoldCondInjected
	}
	why := whose + " decision"
	switch v.How {
	case "timeout":
		why = "no decision within the hold's timeout"
	case "detached":
		why = "the attach that held it detached"
	case "ended":
		why = "the session is ending"
	}
	return fmt.Sprintf("%s: forwarded %s unchanged after %s: %s", who, what, after, why), HoldCondReleased
}

// DescribeHeld names a message for the notes and the hold dialog: `request id 3
// (tools/call echo) from the host`. from is who sent it ("the host", "the server").
func DescribeHeld(kind mcpclient.Kind, id, method, tool, from string) string {
	var b strings.Builder
	switch kind {
	case mcpclient.KindRequest, mcpclient.KindNotification, mcpclient.KindResponse:
		b.WriteString(kind.String())
	case mcpclient.KindErrorResponse:
		b.WriteString("error response")
	default:
		b.WriteString("frame (" + kind.String() + ")")
	}
	if id != "" {
		b.WriteString(" id " + id)
	}
	if method != "" {
		b.WriteString(" (" + method)
		if tool != "" {
			b.WriteString(" " + tool)
		}
		b.WriteString(")")
	}
	b.WriteString(" from " + from)
	return b.String()
}

// The conditions of the hold notes (mcpclient.LifeInfo.Cond), the same in a tap's trace
// and in the TUI's own session: held, then released (went on unchanged), edited, dropped or
// injected (an answer in the receiver's place), as --inject's notes say.
const (
	HoldCondHeld     mcpclient.NoteCond = "held"
	HoldCondReleased mcpclient.NoteCond = "released"
	HoldCondEdited                      = mcpclient.NoteEdited
	HoldCondDropped  mcpclient.NoteCond = "dropped"
	HoldCondInjected                    = mcpclient.NoteInjected
)
