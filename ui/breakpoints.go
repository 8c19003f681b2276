package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// defaultHoldTimeout is the hold timeout the breakpoints dialog offers before the holder
// has said its own (attach --hold-timeout's default).
const defaultHoldTimeout = 2 * time.Minute

// holdBatch is how many updates of the holder one message carries at most.
const holdBatch = 64

// holdState is the attach's breakpoints: the holder (nil: no breakpoint UI at all), what it
// said (the queue of held messages, the breakpoints in force), and the viewer's own marks.
type holdState struct {
	bp session.Breakpoints
	q  session.HoldQueue
	// decided are the holds settled here whose end has not come back yet: the dialog does
	// not open on them again.
	decided map[int64]session.HoldDecisionKind
	// hidden is set by esc in the hold dialog: new holds do not open it until Held is pressed.
	hidden bool
	// gone is set once the holder's updates closed (detached): nothing more is held.
	gone bool
	// ticking is set while a redraw tick (the hold's countdown) is on its way.
	ticking bool
}

// holdUpdatesMsg carries the holder's updates in order; closed says it is gone.
type holdUpdatesMsg struct {
	ups    []session.HoldUpdate
	closed bool
}

// holdSetMsg is how Breakpoints.Set went; holdDecidedMsg how Breakpoints.Decide went.
type (
	holdSetMsg     struct{ err error }
	holdDecidedMsg struct {
		id   int64
		kind session.HoldDecisionKind
		err  error
	}
	// holdTickMsg redraws the held message's countdown.
	holdTickMsg struct{}
)

// waitHolds waits for the holder's next updates (the first blocks, the rest that are
// already there come along, up to holdBatch); nil when there is no holder.
func waitHolds(bp session.Breakpoints) tea.Cmd {
	if bp == nil {
		return nil
	}
	ch := bp.Updates()
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		u, ok := <-ch
		if !ok {
			return holdUpdatesMsg{closed: true}
		}
		ups := []session.HoldUpdate{u}
		for len(ups) < holdBatch {
			select {
			case u, ok := <-ch:
				if !ok {
					return holdUpdatesMsg{ups: ups, closed: true}
				}
				ups = append(ups, u)
			default:
				return holdUpdatesMsg{ups: ups}
			}
		}
		return holdUpdatesMsg{ups: ups}
	}
}

// setBreakpoints asks the holder for set (I/O: a Cmd); its answer comes on Updates.
func setBreakpoints(bp session.Breakpoints, set session.BreakpointSet) tea.Cmd {
	return func() tea.Msg { return holdSetMsg{err: bp.Set(set)} }
}

// decideHold settles hold id (I/O: a Cmd); its end comes on Updates.
func decideHold(bp session.Breakpoints, id int64, d session.HoldDecision) tea.Cmd {
	return func() tea.Msg { return holdDecidedMsg{id: id, kind: d.Kind, err: bp.Decide(id, d)} }
}

// routeHolds hands the breakpoint messages to their handlers; ok is false for others.
func (m *model) routeHolds(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case holdUpdatesMsg:
		return m.holdUpdates(msg), true
	case holdSetMsg:
		if msg.err != nil {
			m.note("error", "breakpoints not set: "+clean(msg.err.Error()))
		}
	case holdDecidedMsg:
		if msg.err != nil {
			delete(m.holds.decided, msg.id) // still held: the dialog may show it again
			m.note("error", fmt.Sprintf("held message %d: %s failed: %s", msg.id, decisionWord(msg.kind), clean(msg.err.Error())))
		}
	case holdTickMsg:
		m.holds.ticking = false
		return m.holdTick(), true
	default:
		return nil, false
	}
	return nil, true
}

// holdUpdates applies the holder's updates in order and waits for the next ones.
func (m *model) holdUpdates(msg holdUpdatesMsg) tea.Cmd {
	h := &m.holds
	for _, u := range msg.ups {
		switch {
		case u.Refused != "":
			m.note("warning", "the tap refused: "+clean(u.Refused))
			clear(h.decided) // a refused decision leaves its hold held
		case u.Set != nil:
			h.q.Apply(u) // the status bar shows them
		case u.Ended != nil:
			m.holdEnded(h.q.Apply(u), u.Ended.How, u.Ended.ID)
		default:
			h.q.Apply(u)
		}
	}
	if len(h.q.Holds) == 0 {
		h.hidden = false // hiding was for the messages held then: the next one shows
	}
	if msg.closed {
		h.gone = true
		if n := len(h.q.Holds); n > 0 {
			m.note("warning", fmt.Sprintf("detached from the tap's breakpoints: it forwards the %s held unchanged", jsontext.Count(n, "message", "messages")))
		}
		h.q.Holds = nil
		m.closeHoldDialogs(func(*holdDialog) bool { return true })
		return nil
	}
	return tea.Batch(waitHolds(h.bp), m.holdTick())
}

// holdEnded takes hold id out of the viewer: an open dialog on it closes, and a note says
// how it ended (hold is nil when the queue did not have it).
func (m *model) holdEnded(hold *session.Hold, how string, id int64) {
	_, mine := m.holds.decided[id]
	delete(m.holds.decided, id)
	what := fmt.Sprintf("held message %d", id)
	if hold != nil {
		what = "held " + clean(hold.What)
	}
	level := "info"
	if !mine {
		level = "warning"
	}
	if m.closeHoldDialogs(func(d *holdDialog) bool { return d.hold.ID == id }) {
		level = "warning"
	}
	m.note(level, what+": "+endWords(how))
}

// closeHoldDialogs closes the hold dialogs which says to close, and reports whether it
// closed any.
func (m *model) closeHoldDialogs(which func(*holdDialog) bool) bool {
	var shut []dialog
	for _, d := range m.overlay.stack {
		if hd, ok := d.(*holdDialog); ok && which(hd) {
			shut = append(shut, d)
		}
	}
	for _, d := range shut {
		m.overlay.remove(d)
	}
	return len(shut) > 0
}

// endWords says how a hold ended (session.HoldEnd.How) in words.
func endWords(how string) string {
	switch how {
	case "forwarded":
		return "forwarded unchanged"
	case "edited":
		return "forwarded as edited"
	case "dropped":
		return "dropped (nothing went on)"
	case "answered":
		return "answered in the receiver's place"
	case "timeout":
		return "timed out: forwarded unchanged"
	case "detached":
		return "forwarded unchanged (the attach that held it went away)"
	case "ended":
		return "the session ended while it was held"
	}
	return clean(how)
}

// decisionWord names a decision for a note.
func decisionWord(k session.HoldDecisionKind) string {
	return [...]string{"decision", "forward", "send as edited", "drop", "answer"}[min(int(k), 4)]
}

// openHoldIfDue opens the hold dialog on the first held message not settled here yet,
// when nothing else is in front (no dialog, no help page) and esc did not hide it.
func (m *model) openHoldIfDue() tea.Cmd {
	h := &m.holds
	if h.bp == nil || h.hidden || m.help.shown || m.overlay.front() != nil {
		return nil
	}
	for _, hold := range h.q.Holds {
		if _, done := h.decided[hold.ID]; !done {
			d := newHoldDialog(m.c, hold, m.now().Add(m.dialogGuard))
			d.setSize(m.lay.body.w, m.lay.body.h)
			m.overlay.push(d)
			return d.focus()
		}
	}
	return nil
}

// holdTick keeps a redraw tick on its way while messages are held (their countdown).
func (m *model) holdTick() tea.Cmd {
	if m.holds.ticking || len(m.holds.q.Holds) == 0 {
		return nil
	}
	m.holds.ticking = true
	return m.c.tick(time.Second, func(time.Time) tea.Msg { return holdTickMsg{} })
}

// holdActs carries out what the breakpoint dialogs ask (their handleKey's act); ok is
// false for other acts.
func (m *model) holdActs(d dialog, act tea.Msg) (tea.Cmd, bool) {
	h := &m.holds
	switch a := act.(type) {
	case holdDecideAct:
		m.overlay.remove(d)
		if h.decided == nil {
			h.decided = map[int64]session.HoldDecisionKind{}
		}
		h.decided[a.id] = a.d.Kind
		return decideHold(h.bp, a.id, a.d), true
	case holdHideAct:
		m.overlay.remove(d)
		h.hidden = true
		m.note("info", fmt.Sprintf("hidden: %s held (%s shows it)", jsontext.Count(len(h.q.Holds), "message stays", "messages stay"), m.c.keys.Global.Held.Help().Key))
		return nil, true
	case setBreakpointsAct:
		m.overlay.remove(d)
		return setBreakpoints(h.bp, a.set), true
	}
	return nil, false
}

// breakpointKey handles the global breakpoint keys: the breakpoints dialog, and the held
// message shown again.
func (m *model) breakpointKey(open bool) tea.Cmd {
	h := &m.holds
	if open {
		set := session.BreakpointSet{Timeout: defaultHoldTimeout}
		if h.q.Set != nil {
			set = *h.q.Set
		}
		d := newBreakpointsDialog(m.c, set)
		d.setSize(m.lay.body.w, m.lay.body.h)
		m.overlay.push(d)
		return nil
	}
	h.hidden = false
	clear(h.decided) // whatever was settled and has not ended shows again
	if len(h.q.Holds) == 0 {
		m.note("info", "no message is held")
	}
	return m.openHoldIfDue()
}

// holdBadge is the header's count of held messages ("" when none).
func (m *model) holdBadge() string {
	if n := len(m.holds.q.Holds); n > 0 {
		return m.c.st.Warning.Render(fmt.Sprintf("⏸ %d held", n)) + "  "
	}
	return ""
}

// breakpointsStatus is the status bar's word on the breakpoints in force ("" without a
// holder, and in the TUI's own session while none are set).
func (m *model) breakpointsStatus() string {
	h := &m.holds
	switch {
	case h.bp == nil:
		return ""
	case h.gone:
		return "breakpoints: detached"
	case (h.q.Set == nil || len(h.q.Set.Filters) == 0) && m.c.attached():
		return "no breakpoints"
	case h.q.Set == nil || len(h.q.Set.Filters) == 0:
		return "" // the TUI's own session: b is in the help, the status bar stays quiet
	}
	return "break " + breakpointsText(h.q.Set, 30)
}

// breakpointsText is a set of breakpoints on one line: the first filter (cut to width
// runes) and how many more; "none" for none.
func breakpointsText(set *session.BreakpointSet, width int) string {
	if set == nil || len(set.Filters) == 0 {
		return "none"
	}
	first := clean(set.Filters[0])
	if len([]rune(first)) > width {
		first = string([]rune(first)[:width-1]) + "…"
	}
	s := first
	if n := len(set.Filters) - 1; n > 0 {
		s += fmt.Sprintf(" +%d", n)
	}
	return s
}
