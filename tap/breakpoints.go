package tap

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	mcpsession "github.com/mcp-inspect/mcp-inspect/session"
)

// DefaultHoldTimeout is how long a message is held at a breakpoint when the attach that set
// it says nothing else; then it goes on unchanged.
const DefaultHoldTimeout = mcpsession.DefaultHoldTimeout

// Conditions of the breakpoint notes (mcpclient.LifeInfo.Cond); the decisions' notes use
// NoteEdited, NoteDropped and NoteInjected as --inject's do.
const (
	// NoteHeld: a frame is held at a breakpoint (it was recorded as it came, before the note).
	NoteHeld = mcpsession.HoldCondHeld
	// NoteReleased: a held frame went on unchanged (decided, timed out, the attach detached,
	// or the session ended).
	NoteReleased = mcpsession.HoldCondReleased
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
	note  func(mcpclient.LifeInfo)
	table *mcpsession.HoldTable
	// noAnswerIn: the server's requests cannot be answered in its place (an HTTP tap has no
	// way to send the server an answer), so they are not offered as requests to answer.
	noAnswerIn bool
	// notesAtEnd: the session's end records each released hold's note itself, at once (a
	// stdio tap closes its recording without waiting for the host's forward loop).
	notesAtEnd bool

	mu    sync.Mutex
	owner *viewer // the attach that set the breakpoints; nil: none
	limit int     // the owner's queue bound (hub.limit)
}

func newHolder() *holder {
	h := &holder{table: mcpsession.NewHoldTable(DefaultHoldTimeout)}
	h.table.OnEnd = h.ended
	return h
}

// on reports whether breakpoints are set: the forward path's only cost without them.
func (h *holder) on() bool { return h.table.Active() }

// hold holds ev if a breakpoint matches it, until its verdict, and returns what becomes of
// it; ok is false when no breakpoint matches.
func (h *holder) hold(ev *frameEv, eol []byte) (out outcome, ok bool) {
	h.mu.Lock()
	owner, limit := h.owner, h.limit
	var held *mcpsession.Holding
	if owner != nil {
		request := ev.kind == mcpclient.KindRequest && !(h.noAnswerIn && ev.dir == mcpclient.ServerToClient)
		held, ok = h.table.Hold(ev, ev.dir, ev.raw, ev.describe, request)
	}
	if ok {
		owner.push(heldLine(&held.Hold), limit)
	}
	h.mu.Unlock()
	if !ok {
		return outcome{}, false
	}
	hd := held.Hold
	who := fmt.Sprintf("breakpoint (%s)", hd.Breakpoint)
	what := fmt.Sprintf("%s #%d", hd.What, hd.ID)
	h.note(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Cond: NoteHeld, Text: fmt.Sprintf(
		"%s: holding %s until the attach decides (it goes on unchanged after %s)", who, what, time.Until(hd.Deadline).Round(100*time.Millisecond))})
	v := h.table.Wait(held)
	text, cond := mcpsession.HoldNote(v, who, what, "the attach's")
	if v.How == "ended" && h.notesAtEnd {
		text = "" // end recorded it
	}
	line := func(b []byte) []byte { return append(append(make([]byte, 0, len(b)+len(eol)), b...), eol...) }
	out = outcome{note: text, cond: cond}
	switch v.Decision.Kind {
	case mcpsession.HoldSend:
		out.fwd = line(v.Decision.Message)
	case mcpsession.HoldDrop:
	case mcpsession.HoldAnswer:
		out.back = line(v.Decision.Message)
	default:
		out.fwd, out.same = line(hd.Raw), true
	}
	return out, true
}

// ended tells the owner that a hold ended (the table's OnEnd).
func (h *holder) ended(e mcpsession.HoldEnd) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.owner != nil {
		h.owner.push(controlLine(struct {
			Tap  string `json:"tap"`
			Hold int64  `json:"hold"`
			How  string `json:"how"`
		}{"released", e.ID, e.How}), h.limit)
	}
}

// setBreakpoints replaces v's breakpoints; the error is the refusal v is told.
func (h *holder) setBreakpoints(v *viewer, limit int, filters []string, timeout time.Duration) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.owner != nil && h.owner != v && !h.table.Idle() {
		return errors.New("another attach has set breakpoints on this tap: only one attach holds messages at a time; detach it (or clear its breakpoints) first")
	}
	now, had, err := h.table.Set(filters, timeout)
	if err != nil {
		return err
	}
	h.owner, h.limit = v, limit
	v.push(controlLine(struct {
		Tap     string   `json:"tap"`
		Filters []string `json:"filters"`
		Timeout string   `json:"timeout"`
	}{"breakpoints", now.Filters, now.Timeout.String()}), limit)
	switch {
	case len(now.Filters) > 0:
		h.note(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Cond: NoteBreakpoints, Text: fmt.Sprintf(
			"the attach set breakpoints: %s; a message they match is held until it decides, or %s", strings.Join(now.Filters, "; "), now.Timeout)})
	case had:
		h.note(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Cond: NoteBreakpoints, Text: "the attach cleared its breakpoints"})
	}
	return nil
}

// decide settles hold id with v's decision d; the error is the refusal v is told.
func (h *holder) decide(v *viewer, id int64, d mcpsession.HoldDecision) error {
	h.mu.Lock()
	owner := h.owner
	h.mu.Unlock()
	if owner != v {
		return errors.New("this attach did not set the breakpoints: it cannot decide what they hold")
	}
	return h.table.Decide(id, d)
}

// detach releases v's holds unchanged and clears its breakpoints (the attach went away).
func (h *holder) detach(v *viewer) {
	h.mu.Lock()
	if h.owner != v {
		h.mu.Unlock()
		return
	}
	h.table.Clear()
	h.mu.Unlock()
	h.note(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Cond: NoteBreakpoints, Text: "the attach that set breakpoints detached: they are cleared"})
	h.table.Release("detached", false, nil)
	h.mu.Lock()
	if h.owner == v {
		h.owner = nil
	}
	h.mu.Unlock()
}

// end releases every hold unchanged and holds nothing more: the session is ending.
func (h *holder) end() {
	h.table.Release("ended", true, func(hd mcpsession.Hold, v mcpsession.HoldVerdict) {
		if h.notesAtEnd {
			text, cond := mcpsession.HoldNote(v, fmt.Sprintf("breakpoint (%s)", hd.Breakpoint), fmt.Sprintf("%s #%d", hd.What, hd.ID), "the attach's")
			h.note(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Cond: cond, Text: text})
		}
	})
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
