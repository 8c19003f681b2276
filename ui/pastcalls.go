package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// argsHead is how much of a past call's arguments its row draws.
const argsHead = 160

// pastCalls is the Call pane's browser of a recorded session's calls (an opened trace, or
// a tap): the list (of one tool after enter on it in Tools) above, the selected call below,
// drawn by resultLines like a live call. The calls and their outcomes are the session's;
// this holds only what the pane shows of them.
type pastCalls struct {
	c   *common
	tl  *timeline
	rec *session.Recorded
	// tool is the tool the list is narrowed to ("" = all); narrow lists the indexes of its
	// calls among the first narrowed calls of the session.
	tool     string
	narrow   []int
	narrowed int
	// sel is the selected row, top the list's first row, off the detail's scroll offset.
	sel, top, off int
	// heads caches the arguments drawn in the rows, by request Seq (read back from the
	// trace for the rows on screen by sync).
	heads map[uint64]string
	// find is the Call pane's search (set by the pane): its line replaces the title.
	find *listSearch
}

func newPastCalls(rec *session.Recorded, c *common, tl *timeline) *pastCalls {
	return &pastCalls{c: c, tl: tl, rec: rec, heads: map[uint64]string{}}
}

// shownLen is how many past calls the list shows: all, or the narrowed tool's.
func (p *pastCalls) shownLen() int {
	if p.tool == "" {
		return p.rec.Calls()
	}
	return len(p.narrow)
}

// shownAt is the index in the session's calls of the k-th listed call.
func (p *pastCalls) shownAt(k int) int {
	if p.tool == "" {
		return k
	}
	return p.narrow[k]
}

// showTool narrows the list to one tool and selects its latest call.
func (p *pastCalls) showTool(name string) {
	p.tool = name
	p.narrow, p.narrowed = p.rec.CallsOf(name), p.rec.Calls()
	p.sel = max(p.shownLen()-1, 0)
	p.top, p.off = 0, 0
}

// handleKey handles the list's keys: rows up and down, the detail scrolled, esc back to
// every tool's calls; h is the pane's height.
func (p *pastCalls) handleKey(msg tea.KeyPressMsg, h int) bool {
	k := p.c.keys
	n := p.shownLen()
	page := max(h/2, 1)
	switch {
	case key.Matches(msg, k.Call.PrevCall):
		// ←/→ choose the older/newer call and ↑/↓ scroll the result, as they do live
		// (issue 27: one meaning per key); the list is oldest first.
		p.sel, p.off = max(p.sel-1, 0), 0
	case key.Matches(msg, k.Call.NextCall):
		p.sel, p.off = min(p.sel+1, max(n-1, 0)), 0
	case key.Matches(msg, k.List.Up):
		p.off = max(p.off-1, 0)
	case key.Matches(msg, k.List.Down):
		p.off++
	case key.Matches(msg, k.List.Top):
		p.sel, p.off = 0, 0
	case key.Matches(msg, k.List.Bottom):
		p.sel, p.off = max(n-1, 0), 0
	case key.Matches(msg, k.List.PageDown), key.Matches(msg, k.Detail.DetailDown):
		p.off += page
	case key.Matches(msg, k.List.PageUp), key.Matches(msg, k.Detail.DetailUp):
		p.off = max(p.off-page, 0)
	case key.Matches(msg, k.Dialog.Dismiss) && p.tool != "":
		sel, ok := p.selected()
		p.tool, p.narrow = "", nil
		p.sel, p.off = 0, 0
		if ok {
			p.sel = sel
		}
	default:
		return false
	}
	return true
}

// selected is the index in the session's calls of the selected row; false when the list
// is empty.
func (p *pastCalls) selected() (int, bool) {
	n := p.shownLen()
	if n == 0 {
		return 0, false
	}
	return p.shownAt(min(max(p.sel, 0), n-1)), true
}

// listRows is how many rows the list takes in a pane h lines high.
func (p *pastCalls) listRows(h int) int { return min(p.shownLen(), max(h/3, 3)) }

// topFor is the list's first row that keeps row sel among listH rows.
func (p *pastCalls) topFor(sel, listH int) int {
	top := p.top
	if sel < top {
		top = sel
	}
	if sel >= top+listH {
		top = sel - listH + 1
	}
	return clampScroll(top, p.shownLen(), listH)
}

// sync brings the list in line with the session after every Update (the view only reads):
// the narrowed list takes the tool's new calls, the selection and the list's scroll stay
// in range, and, while the pane is drawn (shown; w×h), the detail's offset too.
func (p *pastCalls) sync(shown bool, w, h int) {
	if p.tool != "" {
		for k := p.narrowed; k < p.rec.Calls(); k++ {
			if p.rec.Call(k).Tool == p.tool {
				p.narrow = append(p.narrow, k)
			}
		}
		p.narrowed = p.rec.Calls()
	}
	if !shown {
		return
	}
	if n := p.shownLen(); n > 0 {
		p.sel = min(max(p.sel, 0), n-1)
		p.top = p.topFor(p.sel, p.listRows(h))
	}
	p.warm(h)
	if p.off == 0 {
		return // in range: the detail need not be laid out
	}
	if head, det, ok := p.layout(w, h); ok {
		p.off = clampScroll(p.off, len(det), max(h-len(head), 1))
	}
}

// needShown asks the timeline for the selected call's request and response and for the
// requests of the rows on screen (the pane is h lines high), as the view will draw them.
func (p *pastCalls) needShown(tl *timeline, h int) {
	k, ok := p.selected()
	if !ok {
		return
	}
	if p.rec.Detail(k, noEvents{}) == nil {
		// Not built yet: its events are needed (once built, the session keeps it).
		c := p.rec.Call(k)
		late, _ := p.rec.Late(k)
		for _, s := range append([]uint64{c.ReqSeq, c.RespSeq, late}, p.rec.RoundAnswers(k)...) {
			if i, ok := tl.index(s); ok && s != 0 {
				tl.need(i)
			}
		}
	}
	// The requests of the rows on screen, for their arguments.
	listH := p.listRows(h)
	top := p.topFor(min(max(p.sel, 0), p.shownLen()-1), listH)
	for r := top; r < min(top+listH, p.shownLen()); r++ {
		seq := p.rec.Call(p.shownAt(r)).ReqSeq
		if _, ok := p.heads[seq]; !ok {
			if i, ok := tl.index(seq); ok {
				tl.need(i)
			}
		}
	}
}

// noEvents has no event yet: Detail through it answers only a detail already built.
type noEvents struct{}

func (noEvents) Event(uint64) (mcpclient.Event, bool, error) { return mcpclient.Event{}, false, nil }

// elapsedOf is the time between a past call's request and its response (0 without one).
func elapsedOf(tl *timeline, c session.PastCall) time.Duration {
	i, ok1 := tl.index(c.ReqSeq)
	j, ok2 := tl.index(c.RespSeq)
	if !ok1 || !ok2 || c.RespSeq == 0 {
		return 0
	}
	return tl.time(j).Sub(tl.time(i))
}

// argsOf is the head of a past call's arguments for its row, "…" until its request is
// read back; keep says it is read (sync caches it in heads; the view only reads).
func (p *pastCalls) argsOf(c session.PastCall) (a string, keep bool) {
	if a, ok := p.heads[c.ReqSeq]; ok {
		return a, false
	}
	i, ok := p.tl.index(c.ReqSeq)
	if !ok {
		return "", false
	}
	req, ok := p.tl.full(i)
	if !ok {
		return "…", false
	}
	a = "{}"
	if req.Msg != nil {
		var args struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		if json.Unmarshal(req.Msg.Params, &args) == nil && len(args.Arguments) > 0 {
			a = string(args.Arguments[:runeCut(args.Arguments, argsHead)])
		}
	}
	return a, true
}

// warm reads what the pane h lines high will draw, once: the arguments of the rows on
// screen (into heads) and the selected call's detail (the session keeps it).
func (p *pastCalls) warm(h int) {
	n := p.shownLen()
	for i := p.top; i < n && i < p.top+p.listRows(h); i++ {
		c := p.rec.Call(p.shownAt(i))
		if a, keep := p.argsOf(c); keep {
			if len(p.heads) >= 512 {
				clear(p.heads)
			}
			p.heads[c.ReqSeq] = a
		}
	}
	if sel, ok := p.selected(); ok {
		p.rec.Detail(sel, timelineEvents{p.tl})
	}
}

// row is the list row of past call k.
func (p *pastCalls) row(k int) string {
	c := p.rec.Call(k)
	a, _ := p.argsOf(c)
	args := clean(a)
	if n := c.Rounds; len(p.rec.RoundAnswers(k)) > 0 {
		args = fmt.Sprintf("(%d round%s) %s", n, map[bool]string{true: "s"}[n > 1], args)
	}
	return fmt.Sprintf(" #%-5d %s %s %8s  %s", c.ReqSeq, fit(clean(c.Tool), 24), fit(c.Outcome.Words(p.tl.codes[c.RespSeq]), 14), elapsedOf(p.tl, c).Round(time.Millisecond), args)
}

// view draws the list above the selected call, w×h.
func (p *pastCalls) view(w, h int) string {
	head, det, ok := p.layout(w, h)
	if !ok {
		return strings.Join(window(head, 0, h, w), "\n")
	}
	rest := max(h-len(head), 1)
	lines := append(head, window(det, clampScroll(p.off, len(det), rest), rest, w)...)
	return strings.Join(window(lines, 0, h, w), "\n")
}

// layout is the pane's head (the title, the rows on screen and a rule) and the selected
// call's detail, from what sync read (warm); ok is false when there is no call to detail (the head then ends with why:
// none recorded, or still loading).
func (p *pastCalls) layout(w, h int) (head, det []string, ok bool) {
	st := p.c.st
	n := p.shownLen()
	calls, where, none := "recorded calls", "offline: recorded session", "no tools/call in the recording"
	if p.c.attached() {
		calls, where, none = "calls seen", "attached to the tap (read-only)", "no tools/call seen yet"
	}
	if lost := p.rec.LostLines(); lost > 0 {
		// A lost line may have held a call: say so rather than claim there was none.
		s := map[bool]string{true: "s"}[lost > 1]
		where = fmt.Sprintf("%d unreadable trace line%s", lost, s)
		none = fmt.Sprintf("no tools/call among the events read; %d trace line%s could not be read (a call may have been on one): 4 Server says where", lost, s)
	}
	title := fmt.Sprintf("%s (%d) · %s", calls, n, where)
	if p.tool != "" {
		title = fmt.Sprintf("%s of %s (%d) · esc: every tool's", calls, clean(p.tool), n)
	}
	head = []string{st.Title.Render(fit(title, w))}
	if p.find != nil && p.find.shown() {
		head[0] = p.find.line(p.c, w)
	}
	if n == 0 {
		return append(head, wrapStyled(st.Muted, none, w)...), nil, false
	}
	sel, _ := p.selected()
	listH := p.listRows(h)
	top := p.topFor(min(max(p.sel, 0), n-1), listH)
	for i := top; i < n && i < top+listH; i++ {
		k := p.shownAt(i)
		c := p.rec.Call(k)
		if row := p.row(k); k == sel {
			head = append(head, selectRow(st, row, w))
		} else if p.find != nil && p.find.matches(c.Tool+" "+p.heads[c.ReqSeq]) {
			head = append(head, fit(markMatches(st, row, p.find.query()), w))
		} else {
			head = append(head, fit(row, w))
		}
	}
	head = append(head, st.Border.Render(strings.Repeat("─", max(w, 1))))
	d := p.rec.Detail(sel, timelineEvents{p.tl})
	if d == nil {
		return append(head, st.Muted.Render("loading the call from the trace…")), nil, false
	}
	r := recordedRun(d)
	r.screen = p.c
	det = resultLines(st, r, max(w, 10))
	if r.task != nil {
		status := clean(r.task.Status)
		if p.rec.DeadTask(sel) {
			status = "last known status: " + status
		}
		det = append(det, "", st.Muted.Render(fmt.Sprintf("ran as task %s (%s)", clean(r.task.TaskID), status)))
	}
	return head, append(det, p.callNotes(sel, max(w, 10))...), true
}

// recordedRun is a recorded call as the Call pane draws a finished live one.
func recordedRun(d *session.CallDetail) *callRun {
	return &callRun{id: d.ID, tool: d.Tool, args: d.Args, started: d.Started, reqSeq: d.ReqSeq, done: true,
		res: d.Res, resp: d.Resp, err: d.Err, elapsed: d.Elapsed, rounds: d.Rounds, firstSeq: d.FirstSeq,
		viaTask: d.ViaTask, task: d.Task, respProblems: d.RespProblems, respSeen: d.RespSeen}
}

// callNotes are what the detail of past call k adds below the result: its input rounds
// (each input_required answer and what it asked) and a response that came after the call
// had ended.
func (p *pastCalls) callNotes(k int, w int) []string {
	st, tl := p.c.st, p.tl
	var out []string
	c := p.rec.Call(k)
	asked := c.Outcome == session.OutcomeInputAsked
	if rs := p.rec.RoundAnswers(k); len(rs) > 1 || len(rs) == 1 && !asked {
		n := c.Rounds
		what := "%d rounds (the server asked for input; the client answered and sent the call again)"
		if asked {
			what = "%d rounds recorded (the server asked for input each time; the last one was not answered)"
		}
		out = append(out, "", st.Title.Render(fmt.Sprintf(what, n)))
		for i, seq := range rs {
			what := "…"
			if j, ok := tl.index(seq); ok {
				if e, ok := tl.full(j); ok {
					what = session.AskedOf(&e)
				} else if tl.loadErr(seq) != nil {
					what = "(could not be read back)"
				}
			}
			out = append(out, wrapStyled(st.Muted, fmt.Sprintf("round %d: response #%d asked for input: %s", i+1, seq, clean(what)), w)...)
		}
		if !asked {
			out = append(out, st.Muted.Render(fmt.Sprintf("round %d: response #%d is the result above", n, c.RespSeq)))
		}
	}
	if seq, ok := p.rec.Late(k); ok {
		out = append(out, p.lateNote(c, seq, w)...)
	}
	return out
}

// lateNote says that a response (seq) came after past call c had ended, and shows it.
func (p *pastCalls) lateNote(c session.PastCall, seq uint64, w int) []string {
	st, tl := p.c.st, p.tl
	after := "the call had ended"
	switch c.Outcome &^ session.OutcomeViaTask {
	case session.OutcomeCancelled:
		after = "the cancel"
	case session.OutcomeTimedOut:
		after = "the timeout"
	case session.OutcomeServerExited:
		after = "the server exited"
	}
	out := []string{""}
	out = append(out, wrapStyled(st.Warning, fmt.Sprintf("a response came after %s (#%d); it is not used as the result:", after, seq), w)...)
	if j, ok := tl.index(seq); ok {
		if e, ok := tl.full(j); ok {
			raw := e.Raw[:runeCut(e.Raw, 4*argsHead)]
			out = append(out, wrap(clean(strings.TrimSpace(string(raw))), w)...)
		}
	}
	return out
}
