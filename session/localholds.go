package session

import (
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// LocalHolds are breakpoints on what the server sends to this mcp-inspect's own client
// (the TUI's session): it is the client's mcpclient.Config.Intercept, and the
// session.Breakpoints the TUI drives. A held message blocks the client's reading (what the
// server sends after it waits). Nothing held is lost: a hold times out, and End releases
// every hold unchanged.
type LocalHolds struct {
	start   time.Time
	updates chan HoldUpdate
	table   *HoldTable
	ended   atomic.Bool
}

// localUpdates bounds the updates waiting for the TUI; a hold waits for room (never lost).
const localUpdates = 256

// NewLocalHolds makes a holder with no breakpoints; timeout is how long a message is held
// without a decision (0: DefaultHoldTimeout).
func NewLocalHolds(timeout time.Duration) *LocalHolds {
	l := &LocalHolds{start: time.Now(), updates: make(chan HoldUpdate, localUpdates), table: NewHoldTable(timeout)}
	l.table.OnEnd = func(e HoldEnd) { l.say(HoldUpdate{Ended: &e}) }
	return l
}

// Updates implements Breakpoints.
func (l *LocalHolds) Updates() <-chan HoldUpdate { return l.updates }

// Set implements Breakpoints: the filters replace the breakpoints (none clears them); the
// answer (Set, or Refused) comes on Updates.
func (l *LocalHolds) Set(b BreakpointSet) error {
	now, _, err := l.table.Set(b.Filters, b.Timeout)
	if err != nil {
		l.say(HoldUpdate{Refused: err.Error()})
		return nil
	}
	l.say(HoldUpdate{Set: &now})
	return nil
}

// Decide implements Breakpoints; a refusal comes on Updates.
func (l *LocalHolds) Decide(id int64, d HoldDecision) error {
	if err := l.table.Decide(id, d); err != nil {
		l.say(HoldUpdate{Refused: err.Error()})
	}
	return nil
}

// End releases every hold unchanged and holds nothing more (the session is over).
func (l *LocalHolds) End() {
	l.ended.Store(true)
	l.table.Release("ended", true, nil)
}

// say passes u to the TUI; once the holder has ended, an update with no room is let go
// (the TUI is gone) rather than waited for.
func (l *LocalHolds) say(u HoldUpdate) {
	if !l.ended.Load() {
		l.updates <- u
		return
	}
	select {
	case l.updates <- u:
	default:
	}
}

var _ mcpclient.Interceptor = (*LocalHolds)(nil)

// Active implements mcpclient.Interceptor: breakpoints are set.
func (l *LocalHolds) Active() bool { return l.table.Active() }

// Intercept implements mcpclient.Interceptor: it holds what a breakpoint matches until
// Decide, the timeout or End, and says what becomes of it.
func (l *LocalHolds) Intercept(in *mcpclient.Intercepted) mcpclient.Verdict {
	ev := interceptEv{in: in, at: time.Since(l.start)}
	describe := func() string { return DescribeHeld(in.Kind, ev.ID(), in.Method, ev.Tool(), "the server") }
	held, ok := l.table.Hold(ev, mcpclient.ServerToClient, in.Raw, describe, in.Kind == mcpclient.KindRequest)
	if !ok {
		return mcpclient.Verdict{}
	}
	hold := held.Hold
	what := hold.What
	who := fmt.Sprintf("breakpoint (%s)", hold.Breakpoint)
	what = fmt.Sprintf("%s #%d", what, hold.ID)
	in.Note(HoldCondHeld, fmt.Sprintf("%s: holding %s until you decide (it goes on unchanged after %s)", who, what, time.Until(hold.Deadline).Round(100*time.Millisecond)))
	l.say(HoldUpdate{Held: &hold})
	v := l.table.Wait(held)
	text, cond := HoldNote(v, who, what, "your")
	out := mcpclient.Verdict{Note: text, Cond: cond}
	switch v.Decision.Kind {
	case HoldSend:
		out.Kind, out.Raw = mcpclient.InterceptReplace, v.Decision.Message
	case HoldDrop:
		out.Kind = mcpclient.InterceptDrop
	case HoldAnswer:
		out.Kind, out.Raw = mcpclient.InterceptAnswer, v.Decision.Message
	}
	return out
}

// interceptEv is an intercepted message as the wire filter reads it.
type interceptEv struct {
	in *mcpclient.Intercepted
	at time.Duration
}

var _ wirefilter.Event = interceptEv{}

func (e interceptEv) Dir() string { return "in" }
func (e interceptEv) Kind() string {
	if e.in.Kind == mcpclient.KindErrorResponse {
		return "error"
	}
	return e.in.Kind.String()
}
func (e interceptEv) Method() string { return e.in.Method }
func (e interceptEv) ID() string {
	if e.in.Msg == nil || len(e.in.Msg.ID) == 0 {
		return ""
	}
	return mcpclient.IDKey(e.in.Msg.ID)
}
func (e interceptEv) Elapsed() time.Duration { return e.at }
func (e interceptEv) HasProblem() bool       { return false }
func (e interceptEv) Tool() string {
	if e.in.Kind == mcpclient.KindResponse || e.in.Kind == mcpclient.KindErrorResponse {
		return e.in.Tool
	}
	if e.in.Kind != mcpclient.KindRequest || e.in.Method != "tools/call" || e.in.Msg == nil {
		return ""
	}
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(e.in.Msg.Params, &p)
	return p.Name
}
func (e interceptEv) ToolError() bool {
	if e.in.Kind != mcpclient.KindResponse || e.in.Method != "tools/call" || e.in.Msg == nil {
		return false
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(e.in.Msg.Result, &r) == nil && r.IsError
}
func (e interceptEv) Raw() ([]byte, bool) { return e.in.Raw, true }
func (e interceptEv) Exchange() uint64    { return 0 }
