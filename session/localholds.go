package session

import (
	"bytes"
	"encoding/json"
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

// LocalHolds are breakpoints on what the server sends to this mcp-inspect's own client
// (the TUI's session): its Intercept is the client's mcpclient.Config.Intercept, and it is
// the session.Breakpoints the TUI drives. A held message blocks the client's reading (what
// the server sends after it waits). Nothing held is lost: a hold times out, and End
// releases every hold unchanged.
type LocalHolds struct {
	start   time.Time
	updates chan HoldUpdate
	on      atomic.Bool // breakpoints are set

	mu      sync.Mutex
	set     []localBreakpoint
	timeout time.Duration
	next    int64
	held    map[int64]localHold
	ended   bool
}

// localHold is one held message's decision channel.
type localHold struct {
	ch      chan HoldDecision
	request bool
}

type localBreakpoint struct {
	src string
	f   wirefilter.Filter
}

// localUpdates bounds the updates waiting for the TUI; a hold waits for room (never lost).
const localUpdates = 256

// NewLocalHolds makes a holder with no breakpoints; timeout is how long a message is held
// without a decision (0: two minutes).
func NewLocalHolds(timeout time.Duration) *LocalHolds {
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	return &LocalHolds{start: time.Now(), updates: make(chan HoldUpdate, localUpdates), timeout: timeout, held: map[int64]localHold{}}
}

// Updates implements Breakpoints.
func (l *LocalHolds) Updates() <-chan HoldUpdate { return l.updates }

// Set implements Breakpoints: the filters replace the breakpoints (none clears them).
func (l *LocalHolds) Set(b BreakpointSet) error {
	var set []localBreakpoint
	for _, src := range b.Filters {
		if strings.TrimSpace(src) == "" {
			continue
		}
		f, err := wirefilter.Parse(src)
		if err != nil {
			l.say(HoldUpdate{Refused: fmt.Sprintf("breakpoint %q: %v", src, err)})
			return nil
		}
		set = append(set, localBreakpoint{src, f})
	}
	l.mu.Lock()
	if l.ended {
		l.mu.Unlock()
		l.say(HoldUpdate{Refused: "the session has ended: nothing more is held"})
		return nil
	}
	l.set = set
	l.on.Store(len(set) > 0)
	if b.Timeout > 0 {
		l.timeout = b.Timeout
	}
	srcs := make([]string, len(set))
	for i, s := range set {
		srcs[i] = s.src
	}
	u := HoldUpdate{Set: &BreakpointSet{Filters: srcs, Timeout: l.timeout}}
	l.mu.Unlock()
	l.say(u)
	return nil
}

// Decide implements Breakpoints.
func (l *LocalHolds) Decide(id int64, d HoldDecision) error {
	if d.Kind == HoldSend || d.Kind == HoldAnswer {
		var b bytes.Buffer
		if err := json.Compact(&b, d.Message); err != nil {
			l.say(HoldUpdate{Refused: fmt.Sprintf("hold #%d: the message is not JSON: %v", id, err)})
			return nil
		}
		d.Message = b.Bytes()
	}
	l.mu.Lock()
	h, ok := l.held[id]
	refused := ""
	switch {
	case !ok:
		refused = fmt.Sprintf("hold #%d is no longer held (decided, timed out, or the session ended)", id)
	case d.Kind == HoldAnswer && !h.request:
		refused = fmt.Sprintf("hold #%d is not a request: only a request can be answered; send an edited message instead", id)
	default:
		delete(l.held, id)
	}
	l.mu.Unlock()
	if refused != "" {
		l.say(HoldUpdate{Refused: refused})
		return nil
	}
	h.ch <- d
	return nil
}

// End releases every hold unchanged and holds nothing more; Updates is closed.
func (l *LocalHolds) End() {
	l.mu.Lock()
	if l.ended {
		l.mu.Unlock()
		return
	}
	l.ended = true
	l.on.Store(false)
	held := l.held
	l.held = map[int64]localHold{}
	l.mu.Unlock()
	for _, id := range slices.Sorted(maps.Keys(held)) {
		held[id].ch <- HoldDecision{Kind: HoldForward}
	}
}

// say passes u to the TUI; once the holder has ended, an update with no room is let go
// (the TUI is gone) rather than waited for.
func (l *LocalHolds) say(u HoldUpdate) {
	l.mu.Lock()
	ended := l.ended
	l.mu.Unlock()
	if !ended {
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
func (l *LocalHolds) Active() bool { return l.on.Load() }

// Intercept implements mcpclient.Interceptor: it holds what a breakpoint matches until
// Decide, the timeout or End.
func (l *LocalHolds) Intercept(in *mcpclient.Intercepted) mcpclient.Verdict {
	ev := interceptEv{in: in, at: time.Since(l.start)}
	l.mu.Lock()
	i := slices.IndexFunc(l.set, func(b localBreakpoint) bool { return b.f.Match(ev) })
	if i < 0 || l.ended {
		l.mu.Unlock()
		return mcpclient.Verdict{}
	}
	l.next++
	id, src, timeout := l.next, l.set[i].src, l.timeout
	ch := make(chan HoldDecision, 1)
	l.held[id] = localHold{ch: ch, request: in.Kind == mcpclient.KindRequest}
	l.mu.Unlock()
	what := ev.describe()
	hold := &Hold{ID: id, Dir: mcpclient.ServerToClient, Raw: bytes.Clone(in.Raw), What: what, Breakpoint: src,
		Request: in.Kind == mcpclient.KindRequest, Deadline: time.Now().Add(timeout)}
	in.Note(HoldCondHeld, fmt.Sprintf("breakpoint (%s): holding %s #%d until you decide (it goes on unchanged after %s)", src, what, id, timeout))
	l.say(HoldUpdate{Held: hold})
	t := time.NewTimer(timeout)
	defer t.Stop()
	held := time.Now()
	var d HoldDecision
	how := "forwarded"
	select {
	case d = <-ch:
	case <-t.C:
		l.mu.Lock()
		_, still := l.held[id]
		delete(l.held, id)
		l.mu.Unlock()
		if still {
			d, how = HoldDecision{Kind: HoldForward}, "timeout"
		} else {
			d = <-ch // decided as it timed out
		}
	}
	who := fmt.Sprintf("breakpoint (%s)", src)
	after := time.Since(held).Round(time.Millisecond)
	v := mcpclient.Verdict{}
	switch d.Kind {
	case HoldSend:
		how = "edited"
		v = mcpclient.Verdict{Kind: mcpclient.InterceptReplace, Raw: d.Message, Cond: HoldCondEdited,
			Note: fmt.Sprintf("%s: handling your edit in place of %s #%d (after %s)", who, what, id, after)}
	case HoldDrop:
		how = "dropped"
		v = mcpclient.Verdict{Kind: mcpclient.InterceptDrop, Cond: HoldCondDropped, Note: fmt.Sprintf("%s: dropped %s #%d (after %s)", who, what, id, after)}
	case HoldAnswer:
		how = "answered"
		v = mcpclient.Verdict{Kind: mcpclient.InterceptAnswer, Raw: d.Message, Cond: HoldCondInjected,
			Note: fmt.Sprintf("%s: answered %s #%d with your message (after %s)", who, what, id, after)}
	default:
		why := "your decision"
		if how == "timeout" {
			why = "no decision within the hold's timeout"
		}
		l.mu.Lock()
		if l.ended {
			why, how = "the session is ending", "ended"
		}
		l.mu.Unlock()
		v = mcpclient.Verdict{Cond: HoldCondReleased, Note: fmt.Sprintf("%s: handling %s #%d unchanged after %s: %s", who, what, id, after, why)}
	}
	l.say(HoldUpdate{Ended: &HoldEnd{ID: id, How: how}})
	return v
}

// The conditions of the hold notes, as the tap's (tap.NoteHeld, …).
const (
	HoldCondHeld     mcpclient.NoteCond = "held"
	HoldCondReleased mcpclient.NoteCond = "released"
	HoldCondEdited   mcpclient.NoteCond = "edited"
	HoldCondDropped  mcpclient.NoteCond = "dropped"
	HoldCondInjected mcpclient.NoteCond = "injected"
)

// interceptEv is an intercepted message as the wire filter reads it.
type interceptEv struct {
	in *mcpclient.Intercepted
	at time.Duration
}

var _ wirefilter.Event = interceptEv{}

func (e interceptEv) Dir() string { return "in" }
func (e interceptEv) Kind() string {
	switch k := e.in.Kind; k {
	case mcpclient.KindErrorResponse:
		return "error"
	default:
		return k.String()
	}
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

// describe names the message for a note: `request id 5 (elicitation/create) from the server`.
func (e interceptEv) describe() string {
	var b strings.Builder
	switch e.in.Kind {
	case mcpclient.KindErrorResponse:
		b.WriteString("error response")
	default:
		b.WriteString(e.in.Kind.String())
	}
	if id := e.ID(); id != "" {
		b.WriteString(" id " + id)
	}
	if e.in.Method != "" {
		b.WriteString(" (" + e.in.Method)
		if t := e.Tool(); t != "" {
			b.WriteString(" " + t)
		}
		b.WriteString(")")
	}
	b.WriteString(" from the server")
	return b.String()
}
