package tap

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
	mcpsession "github.com/mcp-inspect/mcp-inspect/session"
)

// DefaultHoldTimeout is how long a message is held at a breakpoint when the attach that set
// it says nothing else; then it goes on unchanged.
const DefaultHoldTimeout = 2 * time.Minute

// Conditions of the breakpoint notes (mcpclient.LifeInfo.Cond); the decisions' notes use
// NoteEdited, NoteDropped and NoteInjected as --inject's do.
const (
	// NoteHeld: a frame is held at a breakpoint (it was recorded as it came, before the note).
	NoteHeld mcpclient.NoteCond = "held"
	// NoteReleased: a held frame went on unchanged (decided, timed out, the attach detached,
	// or the session ended).
	NoteReleased mcpclient.NoteCond = "released"
	// NoteBreakpoints: an attach set or cleared the breakpoints.
	NoteBreakpoints mcpclient.NoteCond = "breakpoints"
)

// holder holds the frames the breakpoints match until the attach that set them decides
// (session.Breakpoints, the tap's side). One attach at a time owns the breakpoints; a hold
// blocks its direction of the stdio forward path (later frames wait behind it, so order is
// kept) or its HTTP exchange. Nothing held is lost: a hold times out, and one whose attach
// detaches, or whose session ends, goes on unchanged.
type holder struct {
	// note records a lifecycle note at once (the held frame is already in the trace).
	note func(mcpclient.LifeInfo)
	// on is set while there are breakpoints: the forward path's only cost without them.
	on atomic.Bool

	mu      sync.Mutex
	owner   *viewer // the attach that set the breakpoints; nil: none
	limit   int     // the owner's queue bound (hub.limit)
	set     []breakpoint
	timeout time.Duration
	next    int64
	held    map[int64]*held
	ended   bool
}

type breakpoint struct {
	src string
	f   wirefilter.Filter
}

// held is one frame waiting for its decision.
type held struct {
	hold mcpsession.Hold
	at   time.Time
	done chan verdict // receives the one verdict
}

// verdict is how a hold ends: the decision, and the word for it (mcpsession.HoldEnd.How).
type verdict struct {
	d   mcpsession.HoldDecision
	how string
}

func newHolder() *holder { return &holder{held: map[int64]*held{}, timeout: DefaultHoldTimeout} }

// hold holds ev if a breakpoint matches it, until its verdict, and returns what becomes of
// it; ok is false when no breakpoint matches.
func (h *holder) hold(ev *frameEv, eol []byte) (out outcome, ok bool) {
	h.mu.Lock()
	i := slices.IndexFunc(h.set, func(b breakpoint) bool { return b.f.Match(ev) })
	if h.ended || i < 0 || h.owner == nil {
		h.mu.Unlock()
		return outcome{}, false
	}
	h.next++
	now := time.Now()
	hd := &held{at: now, done: make(chan verdict, 1), hold: mcpsession.Hold{
		ID: h.next, Dir: ev.dir, Raw: clone(ev.raw), What: ev.describe(), Breakpoint: h.set[i].src,
		Request: ev.kind == mcpclient.KindRequest, Deadline: now.Add(h.timeout),
	}}
	h.held[hd.hold.ID] = hd
	h.owner.push(heldLine(&hd.hold), h.limit)
	timeout := h.timeout
	h.mu.Unlock()
	h.note(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Cond: NoteHeld, Text: fmt.Sprintf(
		"breakpoint (%s): holding %s #%d until the attach decides (it goes on unchanged after %s)",
		hd.hold.Breakpoint, hd.hold.What, hd.hold.ID, timeout)})
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case v := <-hd.done:
		return hd.outcome(v, eol), true
	case <-t.C:
		h.settle(hd.hold.ID, verdict{mcpsession.HoldDecision{Kind: mcpsession.HoldForward}, "timeout"})
		return hd.outcome(<-hd.done, eol), true
	}
}

// outcome makes the verdict v on the held frame into what the forward path does.
func (hd *held) outcome(v verdict, eol []byte) outcome {
	line := func(b []byte) []byte { return append(append(make([]byte, 0, len(b)+len(eol)), b...), eol...) }
	who := fmt.Sprintf("breakpoint (%s)", hd.hold.Breakpoint)
	what := fmt.Sprintf("%s #%d", hd.hold.What, hd.hold.ID)
	after := time.Since(hd.at).Round(time.Millisecond)
	switch v.d.Kind {
	case mcpsession.HoldSend:
		return outcome{fwd: line(v.d.Message), cond: NoteEdited,
			note: fmt.Sprintf("%s: sent an edited message in place of %s (the attach's, after %s)", who, what, after)}
	case mcpsession.HoldDrop:
		return outcome{cond: NoteDropped, note: fmt.Sprintf("%s: dropped %s (the attach's decision, after %s)", who, what, after)}
	case mcpsession.HoldAnswer:
		return outcome{back: line(v.d.Message), cond: NoteInjected,
			note: fmt.Sprintf("%s: answered %s with the attach's message in the receiver's place (after %s); not forwarded", who, what, after)}
	}
	why := "the attach's decision"
	switch v.how {
	case "timeout":
		why = "no decision within the hold's timeout"
	case "detached":
		why = "the attach that held it detached"
	case "ended":
		why = "the session is ending"
	}
	return outcome{fwd: line(hd.hold.Raw), same: true, cond: NoteReleased,
		note: fmt.Sprintf("%s: forwarded %s unchanged after %s: %s", who, what, after, why)}
}

// settle ends hold id with v, telling the owner; false when it had already ended.
func (h *holder) settle(id int64, v verdict) bool {
	h.mu.Lock()
	hd := h.held[id]
	if hd == nil {
		h.mu.Unlock()
		return false
	}
	delete(h.held, id)
	if h.owner != nil {
		h.owner.push(controlLine(struct {
			Tap  string `json:"tap"`
			Hold int64  `json:"hold"`
			How  string `json:"how"`
		}{"released", id, v.how}), h.limit)
	}
	if len(h.set) == 0 && len(h.held) == 0 {
		h.owner = nil
	}
	h.mu.Unlock()
	hd.done <- v
	return true
}

// setBreakpoints replaces v's breakpoints; the error is the refusal v is told.
func (h *holder) setBreakpoints(v *viewer, limit int, filters []string, timeout time.Duration) error {
	set := make([]breakpoint, 0, len(filters))
	for _, src := range filters {
		if strings.TrimSpace(src) == "" {
			continue
		}
		f, err := wirefilter.Parse(src)
		if err != nil {
			return fmt.Errorf("breakpoint %q: %w", src, err)
		}
		set = append(set, breakpoint{src: src, f: f})
	}
	if timeout < 0 {
		return fmt.Errorf("hold timeout %s: it must be positive", timeout)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.ended:
		return errors.New("the tap's session is ending: nothing more is held")
	case h.owner != nil && h.owner != v:
		return errors.New("another attach has set breakpoints on this tap: only one attach holds messages at a time; detach it (or clear its breakpoints) first")
	}
	if timeout == 0 {
		timeout = DefaultHoldTimeout
	}
	had := len(h.set) > 0
	h.set, h.timeout, h.limit = set, timeout, limit
	h.owner = v
	if len(set) == 0 && len(h.held) == 0 {
		h.owner = nil
	}
	h.on.Store(len(set) > 0)
	srcs := make([]string, len(set))
	for i, b := range set {
		srcs[i] = b.src
	}
	v.push(controlLine(struct {
		Tap     string   `json:"tap"`
		Filters []string `json:"filters"`
		Timeout string   `json:"timeout"`
	}{"breakpoints", srcs, timeout.String()}), limit)
	switch {
	case len(set) > 0:
		h.note(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Cond: NoteBreakpoints, Text: fmt.Sprintf(
			"the attach set breakpoints: %s; a message they match is held until it decides, or %s", strings.Join(srcs, "; "), timeout)})
	case had:
		h.note(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Cond: NoteBreakpoints, Text: "the attach cleared its breakpoints"})
	}
	return nil
}

// decide settles hold id with v's decision d; the error is the refusal v is told.
func (h *holder) decide(v *viewer, id int64, d mcpsession.HoldDecision) error {
	h.mu.Lock()
	hd := h.held[id]
	owner := h.owner
	h.mu.Unlock()
	switch {
	case owner != v:
		return errors.New("this attach did not set the breakpoints: it cannot decide what they hold")
	case hd == nil:
		return fmt.Errorf("hold #%d is no longer held (decided, timed out, or the session ended)", id)
	}
	how := "forwarded"
	switch d.Kind {
	case mcpsession.HoldForward:
	case mcpsession.HoldDrop:
		how = "dropped"
	case mcpsession.HoldSend, mcpsession.HoldAnswer:
		var b bytes.Buffer
		if err := json.Compact(&b, d.Message); err != nil {
			return fmt.Errorf("hold #%d: the message is not JSON: %v", id, err)
		}
		d.Message = b.Bytes()
		how = "edited"
		if d.Kind == mcpsession.HoldAnswer {
			if !hd.hold.Request {
				return fmt.Errorf("hold #%d is %s, not a request: only a request can be answered; send an edited message instead", id, hd.hold.What)
			}
			how = "answered"
		}
	default:
		return fmt.Errorf("hold #%d: unknown decision %d", id, d.Kind)
	}
	if !h.settle(id, verdict{d, how}) {
		return fmt.Errorf("hold #%d is no longer held (decided, timed out, or the session ended)", id)
	}
	return nil
}

// detach releases v's holds unchanged and clears its breakpoints (the attach went away).
func (h *holder) detach(v *viewer) {
	h.mu.Lock()
	if h.owner != v {
		h.mu.Unlock()
		return
	}
	h.set = nil
	h.on.Store(false)
	ids := slices.Sorted(maps.Keys(h.held))
	h.mu.Unlock()
	h.note(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Cond: NoteBreakpoints, Text: "the attach that set breakpoints detached: they are cleared"})
	for _, id := range ids {
		h.settle(id, verdict{mcpsession.HoldDecision{Kind: mcpsession.HoldForward}, "detached"})
	}
	h.mu.Lock()
	if h.owner == v {
		h.owner = nil
	}
	h.mu.Unlock()
}

// end releases every hold unchanged and holds nothing more: the session is ending.
func (h *holder) end() {
	h.mu.Lock()
	h.ended = true
	h.on.Store(false)
	ids := slices.Sorted(maps.Keys(h.held))
	h.mu.Unlock()
	for _, id := range ids {
		h.settle(id, verdict{mcpsession.HoldDecision{Kind: mcpsession.HoldForward}, "ended"})
	}
}

// heldLine is the control line that tells the owner of a hold.
func heldLine(hd *mcpsession.Hold) []byte {
	return controlLine(holdWire{Tap: "held", Hold: hd.ID, Dir: hd.Dir.String(), What: hd.What, Breakpoint: hd.Breakpoint,
		Request: hd.Request, Deadline: hd.Deadline, Message: string(hd.Raw)})
}

// holdWire is a "held" control line (see hub.go's protocol).
type holdWire struct {
	Tap        string    `json:"tap"`
	Hold       int64     `json:"hold"`
	Dir        string    `json:"dir"` // "c2s" (the host sent it) or "s2c"
	What       string    `json:"what"`
	Breakpoint string    `json:"breakpoint"`
	Request    bool      `json:"request"`
	Deadline   time.Time `json:"deadline"`
	Message    string    `json:"message"` // the frame's bytes
}

func controlLine(v any) []byte {
	b, _ := json.Marshal(v)
	return append(b, '\n')
}
