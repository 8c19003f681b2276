package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// maxCalls bounds the call history of the Call tab (the oldest finished calls go first;
// every call stays on the wire and in the recording).
const maxCalls = 100

// callPane is the Call tab: the open form, or the calls of this session. Calls run side by
// side: each in flight keeps its spinner, progress and cancel; each finished one keeps its
// result. One call is shown; ←/→ choose among them.
type callPane struct {
	c *common
	// tl is the timeline: a call finds its request and response events there.
	tl *timeline
	// forms keeps one form per tool name so values survive closing and reopening.
	forms map[string]*formPane
	form  *formPane // open form, nil when closed
	// calls are this session's tool calls, oldest first; run is the one shown.
	calls []*callRun
	run   *callRun
	runs  int // call ids
	// resend is a call a dropped session failed: sent again once after the new handshake
	// (sessionexpired.go).
	resend *callRun

	spin spinner.Model
	bar  progress.Model

	lines []string // the shown call's result, rendered once per change
	off   int
	r     rect

	// canRead is set for a live session: the ReadLink key reads the targeted
	// resource_link of the shown result (the root does it; links.go).
	canRead bool
	// past browses a recorded session's calls (nil on a live session): without an open
	// form the pane lists them and shows the selected one as it shows a live call.
	past *pastCalls
	// find is the "/" search among the calls (callfind.go).
	find listSearch
}

func newCallPane(c *common, tl *timeline) *callPane {
	return &callPane{c: c, tl: tl, forms: map[string]*formPane{}, spin: newSpinner(c.st), bar: newBar(c.st), find: newListSearch(c)}
}

func (p *callPane) setSize(r rect) {
	p.r = r
	if p.form != nil {
		p.form.setSize(r.w, r.h)
	}
	p.bar.SetWidth(min(max(r.w-20, 10), 50))
	p.render()
}

// open shows the form for tool, reusing its earlier values. A form prefilled from history
// opens with the cursor at the start of its first field, where a person reads from.
func (p *callPane) open(t mcpclient.Tool) tea.Cmd {
	f, ok := p.forms[t.Name]
	prefilled := false
	if !ok {
		f = newFormPane(p.c, t)
		prefilled = f.prefill()
		p.forms[t.Name] = f
	}
	p.form = f
	f.setSize(p.r.w, p.r.h)
	if prefilled {
		cmd := f.focus(0)
		f.input.CursorStart()
		return cmd
	}
	return f.focus(f.cur)
}

// openTool opens a tool's form; on a recorded session, which cannot send, the tool's
// recorded calls instead.
func (p *callPane) openTool(t mcpclient.Tool) tea.Cmd {
	if p.past != nil {
		p.past.showTool(t.Name)
		return nil
	}
	return p.open(t)
}

// inputFocused reports whether the form owns the keyboard.
func (p *callPane) inputFocused() bool { return p.form != nil || p.find.typing }

// start begins a call beside those already running and shows it; the returned Cmd runs
// it. The request's Seq comes back through OnSent (callSentMsg), so the call knows its own
// request on the wire whatever else is in flight. asTask sends it as a task (the tool
// requires it).
func (p *callPane) start(ctx context.Context, s session.Sender, tool string, args []byte, now time.Time, asTask bool) tea.Cmd {
	p.runs++
	cctx, cancel := context.WithCancel(ctx)
	r := &callRun{id: p.runs, tool: tool, args: args, started: now, cancel: cancel}
	p.add(r)
	p.run = r
	p.form = nil
	p.off = 0
	p.render()
	if asTask {
		r.viaTask = true
		return tea.Batch(callToolAsTask(cctx, s, r.id, tool, args), p.spin.Tick)
	}
	sent := make(chan uint64, mcpclient.MaxInputRounds+2)
	return tea.Batch(callTool(cctx, s, r.id, tool, args, sent), waitSent(r.id, sent), p.spin.Tick)
}

// add appends a call, dropping the oldest finished one past maxCalls.
func (p *callPane) add(r *callRun) {
	if len(p.calls) >= maxCalls {
		for i, old := range p.calls {
			if old.done && old != p.run {
				p.calls = append(p.calls[:i:i], p.calls[i+1:]...)
				break
			}
		}
	}
	p.calls = append(p.calls, r)
}

// byID finds a call by id.
func (p *callPane) byID(id int) *callRun {
	for i := len(p.calls) - 1; i >= 0; i-- {
		if p.calls[i].id == id {
			return p.calls[i]
		}
	}
	return nil
}

// index is the position of the shown call in calls, -1 when none.
func (p *callPane) index() int {
	for i, r := range p.calls {
		if r == p.run {
			return i
		}
	}
	return -1
}

// runningCount is how many calls wait for their answer.
func (p *callPane) runningCount() int {
	n := 0
	for _, r := range p.calls {
		if r.running() {
			n++
		}
	}
	return n
}

// anyRunning reports whether a call waits for its answer.
func (p *callPane) anyRunning() bool { return p.runningCount() > 0 }

// running lists the calls in flight, oldest first.
func (p *callPane) running() []*callRun {
	var out []*callRun
	for _, r := range p.calls {
		if r.running() {
			out = append(out, r)
		}
	}
	return out
}

// sent records the Seq of a call's request (a modern retry sends a new request: the
// latest counts) and picks up progress that arrived before the Seq was known.
func (p *callPane) sent(msg callSentMsg) {
	r := p.byID(msg.id)
	if r == nil {
		return
	}
	r.reqSeq = msg.seq
	i, ok := p.tl.index(msg.seq)
	if !ok || r.done {
		return
	}
	for j := i + 1; j < p.tl.len() && j <= i+100_000; j++ {
		// Only notifications paired to the request (progress) matter to a sent call: the
		// others are not parsed again.
		if e := p.tl.evs.at(j); e.kind != mcpclient.KindNotification || p.tl.pairOf(e) != msg.seq {
			continue
		}
		if ev, ok := p.tl.full(j); ok {
			r.observe(&ev)
		}
	}
}

// observe follows one timeline event for every call: progress for those in flight, and
// the problems of a finished call's response when its event comes after the answer.
func (p *callPane) observe(ev *mcpclient.Event) {
	if ev.Dir == mcpclient.Stderr || ev.Dir == mcpclient.Lifecycle {
		return
	}
	for _, r := range p.calls {
		if r.running() {
			r.observe(ev)
			continue
		}
		if r.resp != nil && r.resp.Seq == ev.Seq && !r.respSeen {
			r.respSeen, r.respProblems = true, ev.Problems
			if r == p.run {
				p.render()
			}
		}
	}
}

// setTask records the status of the task call id runs as.
func (p *callPane) setTask(id int, t *mcpclient.Task) {
	r := p.byID(id)
	if r == nil || t == nil {
		return
	}
	cp := *t
	r.task = &cp
	if r == p.run {
		p.render()
	}
}

// lateResponse shows a response that arrived after its call was cancelled or timed out
// (case B12b): it is not the result of anything, but it is not lost either.
func (p *callPane) lateResponse(ev *mcpclient.Event) {
	for _, r := range p.calls {
		if r.done && r.reqSeq != 0 && ev.Pair == r.reqSeq {
			e := *ev
			r.late = &e
			if r == p.run {
				p.render()
			}
			return
		}
	}
}

// afterExit shows the response to a call that had failed because the server died: a child
// of the server that kept its stdout open answered anyway. Like a response after cancel it
// is shown, not used: the call stays failed. It reports whether a call took it.
func (p *callPane) afterExit(ev *mcpclient.Event) bool {
	for _, r := range p.calls {
		if !r.done || r.late != nil || r.reqSeq == 0 || ev.Pair != r.reqSeq || !diedPending(r.err) {
			continue
		}
		e := *ev
		r.late = &e
		if r == p.run {
			p.render()
		}
		return true
	}
	return false
}

// diedPending reports whether err failed a request that was written and pending when the
// server died (not one refused before it was written).
func diedPending(err error) bool {
	var exit *mcpclient.ExitError
	return errors.As(err, &exit) && !exit.NotSent
}

// finish records a call's answer; an answer for a call that already ended is ignored.
func (p *callPane) finish(msg callDoneMsg, now time.Time) bool {
	r := p.byID(msg.id)
	if r == nil || r.done {
		return false
	}
	r.done = true
	r.res, r.resp, r.resOfResp, r.err = msg.res, msg.resp, msg.resOfResp, msg.err
	r.elapsed = now.Sub(r.started)
	if msg.resp != nil && msg.resp.Elapsed > 0 {
		r.elapsed = msg.resp.Elapsed
	}
	r.rounds, r.firstSeq = msg.rounds, msg.firstSeq
	if msg.rounds > 1 && msg.total > 0 {
		// A multi-round call (input_required answered): the time is the whole call's,
		// as the opened trace counts it, not the last round's.
		r.elapsed = msg.total
	}
	if msg.resp != nil {
		if r.reqSeq == 0 {
			r.reqSeq = msg.resp.RequestSeq
		}
		if i, ok := p.tl.index(msg.resp.Seq); ok {
			r.respSeen, r.respProblems = true, p.tl.problemsAt(i)
		}
	}
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	if r == p.run {
		p.render()
	}
	return true
}

// cancelTarget is the call ctrl+x cancels: the shown one when it runs, else the most
// recent call in flight; nil when none runs.
func (p *callPane) cancelTarget() *callRun {
	if p.run.running() {
		return p.run
	}
	for i := len(p.calls) - 1; i >= 0; i-- {
		if p.calls[i].running() {
			return p.calls[i]
		}
	}
	return nil
}

// cancelCall cancels a call in flight (mcpclient then sends notifications/cancelled).
func (p *callPane) cancelCall(r *callRun) bool {
	if r.running() && r.cancel != nil {
		r.cancel()
		return true
	}
	return false
}

// cancelFunc cancels every call still in flight, for Run's cleanup; nil when none runs.
func (p *callPane) cancelFunc() context.CancelFunc {
	runs := p.running()
	if len(runs) == 0 {
		return nil
	}
	return func() {
		for _, r := range runs {
			if r.cancel != nil {
				r.cancel()
			}
		}
	}
}

// show selects the call at position i of the history.
func (p *callPane) show(i int) {
	if i < 0 || i >= len(p.calls) || p.calls[i] == p.run {
		return
	}
	p.run = p.calls[i]
	p.off = 0
	p.render()
}

func (p *callPane) render() {
	r := p.run
	if r == nil || !r.done {
		p.lines = nil
		return
	}
	st := p.c.st
	w := max(p.r.w, 10)
	k := p.c.keys
	r.keysHint = fmt.Sprintf("large result: %s shows all (up to %s) · %s saves the response frame to %s",
		k.Detail.ShowAll.Help().Key, humanSize(showAllBytes), k.Detail.Save.Help().Key, saveDir(p.c.hist.dir))
	if r.full {
		r.keysHint = fmt.Sprintf("large result, shown in full up to %s: %s shows the preview again · %s saves the response frame to %s",
			humanSize(showAllBytes), k.Detail.ShowAll.Help().Key, k.Detail.Save.Help().Key, saveDir(p.c.hist.dir))
	}
	r.linkKey = ""
	if p.canRead {
		r.linkKey = k.Call.ReadLink.Help().Key
	}
	p.setPics(r)
	r.screen = p.c
	p.lines = resultLines(st, r, w)
	if notSent(r.err) && k.Global.Restart.Enabled() {
		p.lines = append(p.lines, "", st.Accent.Render(k.Global.Restart.Help().Key)+st.Muted.Render(" edits the command and restarts the server (E then enter restarts it as it is)"))
	}
	if r.task != nil {
		text := fmt.Sprintf("ran as task %s (%s); 8 Tasks follows it", clean(r.task.TaskID), clean(r.task.Status))
		if died := (*session.TaskDiedError)(nil); errors.As(r.err, &died) {
			text = fmt.Sprintf("ran as task %s (last known status: %s); 8 Tasks shows it", clean(r.task.TaskID), clean(r.task.Status))
		}
		p.lines = append(p.lines, "", st.Muted.Render(text))
	}
	if r.late != nil {
		p.lines = append(p.lines, "")
		text := fmt.Sprintf("response after cancel (#%d): the server answered anyway; it is not used", r.late.Seq)
		switch {
		case diedPending(r.err):
			// The call stays failed: the server that owned the request was gone.
			text = fmt.Sprintf("response after the server's exit (#%d, not used): a process that kept the server's stdout open answered; the call failed when the server died. 3 Wire shows the frame", r.late.Seq)
		case !errors.Is(r.err, context.Canceled):
			text = fmt.Sprintf("late response (after the timeout) (#%d): the server answered anyway; it is not used", r.late.Seq)
		}
		p.lines = append(p.lines, wrapStyled(st.Warning, text, w)...)
		raw := r.late.Raw[:runeCut(r.late.Raw, previewBytes)]
		p.lines = append(p.lines, wrap(clean(strings.TrimSpace(string(raw))), w)...)
	}
}

func (p *callPane) title() string { return "Call" }

// handleKey gives the keys to the open form, else to the call view: ctrl+x cancels, e
// edits the shown call's arguments, the read key reads a resource_link of its result.
func (p *callPane) handleKey(msg tea.KeyPressMsg) (bool, tea.Msg, tea.Cmd) {
	k := &p.c.keys
	if p.form != nil {
		act, cmd := p.formKey(msg)
		return true, act, cmd
	}
	switch {
	case cancelKey(p.c, msg):
		return true, cancelAct{}, nil
	case p.find.typing:
		_, cmd := p.findKey(msg) // typed keys are the query's
		return true, nil, cmd
	case key.Matches(msg, k.Call.Edit) && p.run != nil:
		return true, editAct{p.run.tool}, nil
	case p.canRead && readLinkKey(msg, k):
		// Also when the key is off (no link in the shown result): the read says why.
		return true, readLinkAct{}, nil
	}
	handled, cmd := p.runKey(msg)
	return handled, nil, cmd
}

// formKey handles a key of the open form: a form row that is not a text input leaves q and
// ? to the app; a submit asks the root to start the call.
func (p *callPane) formKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	k := &p.c.keys
	f := p.form
	if f.keysFree() {
		switch {
		case key.Matches(msg, k.Global.Help):
			return helpAct{}, nil
		case key.Matches(msg, k.Global.Quit):
			if f.quitKey() {
				return quitAct{}, nil
			}
			return nil, nil
		}
	}
	sub, closed, cmd := f.handleKey(msg)
	switch {
	case sub != nil:
		return submitAct{tool: f, sub: sub}, cmd
	case closed:
		p.form = nil
		if p.run == nil {
			return focusAct{paneTools}, cmd
		}
	}
	return nil, cmd
}

func (p *callPane) sync() {
	if p.form != nil {
		p.form.sync()
	}
}

func (p *callPane) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	f := p.form
	if f == nil {
		return nil, false
	}
	var c1, c2 tea.Cmd
	f.input, c1 = f.input.Update(msg)
	f.raw, c2 = f.raw.Update(msg)
	return tea.Batch(c1, c2), true
}

func (p *callPane) bindings() []key.Binding {
	k := &p.c.keys
	if p.form != nil {
		return k.offered("callform")
	}
	if p.pathRows() > 0 {
		return append(k.offered("json"), k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown, k.List.Top, k.List.Bottom)
	}
	return k.offered("call")
}

// runKey handles the call view's keys (the form handles its own); the Cmd saves a
// response frame.
func (p *callPane) runKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := p.c.keys
	if ok, cmd := p.findKey(msg); ok {
		return true, cmd
	}
	if p.past != nil && p.form == nil && p.past.handleKey(msg, p.r.h) {
		return true, nil
	}
	page := max(p.r.h-2, 1)
	if ok, cmd := p.jsonKey(msg); ok {
		return true, cmd
	}
	switch {
	case key.Matches(msg, k.Global.CancelCall):
		p.cancelCall(p.cancelTarget())
	case key.Matches(msg, k.Call.PrevCall):
		p.show(p.index() - 1)
		return true, nil
	case key.Matches(msg, k.Call.NextCall):
		p.show(p.index() + 1)
		return true, nil
	case key.Matches(msg, k.Detail.ShowAll):
		if r := p.run; r != nil && r.done && largeResult(r.res) {
			r.full = !r.full
			p.render()
		}
		return true, nil
	case key.Matches(msg, k.Detail.Save), key.Matches(msg, k.Detail.SaveRaw):
		if r := p.run; r != nil && r.done && key.Matches(msg, k.Detail.Save) {
			// Images and audio are saved decoded, as files a viewer opens (.png, .wav …).
			if infos, nums := mediaOf(r.res); len(infos) > 0 {
				return true, saveMedia(saveDir(p.c.hist.dir), p.shownRespSeq(), infos, nums, p.c.gfx.files)
			}
		}
		if seq := p.shownRespSeq(); seq != 0 {
			if i, ok := p.tl.index(seq); ok {
				if raw, ok := p.tl.rawAt(i); ok {
					return true, p.c.saveFrameAt(p.tl, i, seq, raw, key.Matches(msg, k.Detail.SaveRaw))
				}
			}
		}
		return true, nil
	case key.Matches(msg, k.Detail.Copy, k.Detail.CopyParsed, k.Detail.CopyExact, k.Detail.CopyCommand):
		return true, p.copy(msg)
	default:
		d, ok := k.List.scrollStep(msg, page, len(p.lines))
		if !ok {
			return false, nil
		}
		p.off += d
	}
	p.off = clampScroll(p.off, len(p.lines), p.bodyHeight())
	return true, nil
}

// historyRows is how many calls the history strip lists at most.
const historyRows = 4

// historyLines is the strip above the shown call: the calls around it, oldest first (as a
// recorded session lists them, and the wire and the logs), with their state. Empty with a
// single call.
func (p *callPane) historyLines(now time.Time, w int) []string {
	if len(p.calls) < 2 {
		return nil
	}
	st := p.c.st
	k := p.c.keys
	title := fmt.Sprintf(" calls (%d", len(p.calls))
	if n := p.runningCount(); n > 0 {
		title += fmt.Sprintf(" · %d running", n)
	}
	title += fmt.Sprintf(") · %s/%s choose", k.Call.PrevCall.Help().Key, k.Call.NextCall.Help().Key)
	if p.run.running() || p.cancelTarget() != nil {
		title += " · " + k.Global.CancelCall.Help().Key + " cancels the shown call, else the latest running"
	}
	out := []string{p.findTitle(st.Title.Render(fit(title, w)), w)}
	sel := p.index()
	// A window of historyRows around the shown call, oldest at the top.
	hi := min(len(p.calls)-1, max(sel+historyRows/2, historyRows-1))
	lo := max(hi-historyRows+1, 0)
	for i := lo; i <= hi; i++ {
		r := p.calls[i]
		line := fmt.Sprintf(" #%d %s  %s", r.id, clean(r.tool), p.callState(r, now))
		switch {
		case r == p.run:
			out = append(out, selectRow(st, line, w))
		case p.find.matches(r.tool + " " + string(r.args)):
			out = append(out, fit(markMatches(st, line, p.find.query()), w))
		default:
			out = append(out, fit(line, w))
		}
	}
	if lo > 0 || hi < len(p.calls)-1 {
		out = append(out, st.Muted.Render(fit(fmt.Sprintf(" … %d more", len(p.calls)-(hi-lo+1)), w)))
	}
	return append(out, st.Border.Render(strings.Repeat("─", max(w, 0))))
}

// callState says in a few cells how a call stands.
func (p *callPane) callState(r *callRun, now time.Time) string {
	switch {
	case r.running():
		s := p.spin.View() + " " + now.Sub(r.started).Round(100*time.Millisecond).String()
		if r.total > 0 {
			s += fmt.Sprintf(" · %g/%g", r.progress, r.total)
		} else if r.progress > 0 {
			s += fmt.Sprintf(" · %g", r.progress)
		}
		return s
	case errors.Is(r.err, context.Canceled):
		return "✗ cancelled"
	case taskCancelled(r.err):
		return "✗ task cancelled"
	case notSent(r.err):
		return "✗ not sent (server gone)"
	}
	took := r.elapsed.Round(time.Millisecond).String()
	if r.rounds > 1 {
		took += fmt.Sprintf(" (%d rounds)", r.rounds)
	}
	switch {
	case r.err != nil:
		return "✗ failed · " + took
	case r.res != nil && r.res.IsError:
		return "✗ isError · " + took
	}
	return "✓ " + took
}

// bodyHeight is the height left for the shown call under the history strip.
// clampOff keeps the shown result's offset in range (after every Update: the view draws
// it in range and the read key targets the links on screen by it).
func (p *callPane) clampOff() {
	if r := p.run; r != nil && p.form == nil && !r.running() {
		p.off = clampScroll(p.off, len(p.lines), p.bodyHeight())
	}
}

func (p *callPane) bodyHeight() int {
	n := 0
	if len(p.calls) >= 2 {
		n = min(len(p.calls), historyRows) + 2
		if len(p.calls) > historyRows {
			n++
		}
	}
	return max(p.r.h-n-p.pathRows(), 1)
}

func (p *callPane) view(now time.Time) string {
	st := p.c.st
	w, h := p.r.w, p.r.h
	if p.form != nil {
		return p.form.view()
	}
	if p.past != nil {
		return p.past.view(w, h)
	}
	r := p.run
	if r == nil {
		lines := []string{st.Muted.Render("no call yet: choose a tool in 1 Tools and press enter")}
		return strings.Join(window(lines, 0, h, w), "\n")
	}
	head := p.historyLines(now, w)
	bh := max(h-len(head), 1)
	if r.running() {
		lines := append(head, p.runningLines(r, now, w)...)
		return strings.Join(window(lines, 0, h, w), "\n")
	}
	bh = max(bh-p.pathRows(), 1)
	off := clampScroll(p.off, len(p.lines), bh)
	body := window(p.lines, off, bh, w)
	p.linkHints(body, off, w)
	if p.pathRows() > 0 {
		body = append(body, r.js.view.pathLine(st, &p.c.keys, w))
	}
	return strings.Join(append(head, body...), "\n")
}

// runningLines draws a call in flight: tool, arguments, spinner and elapsed, progress,
// task status, and how to cancel.
func (p *callPane) runningLines(r *callRun, now time.Time, w int) []string {
	st := p.c.st
	lines := []string{
		st.Title.Render(fmt.Sprintf("tools/call %s", clean(r.tool))) + st.Muted.Render(fmt.Sprintf("  (call #%d)", r.id)),
		st.Muted.Render("arguments: " + clean(string(r.args))),
	}
	lines = append(lines, invalidLines(st, r.invalid, w)...)
	lines = append(lines,
		"",
		fmt.Sprintf("%s waiting for the answer… %s", p.spin.View(), now.Sub(r.started).Round(100*time.Millisecond)),
	)
	if r.reqSeq != 0 {
		lines = append(lines, st.Muted.Render(fmt.Sprintf("request #%d on the wire", r.reqSeq)))
	}
	if r.total > 0 {
		lines = append(lines, p.bar.ViewAs(min(r.progress/r.total, 1))+fmt.Sprintf("  %g/%g", r.progress, r.total))
	} else if r.progress > 0 {
		lines = append(lines, fmt.Sprintf("progress: %g", r.progress))
	}
	if r.progMsg != "" {
		lines = append(lines, wrapStyled(st.Muted, clean(r.progMsg), w)...)
	}
	cancelKey := p.c.keys.Global.CancelCall.Help().Key
	if t := r.task; t != nil {
		line := fmt.Sprintf("running as task %s: %s %s", clean(t.TaskID), statusMark(t.Status), clean(t.Status))
		if t.StatusMessage != "" {
			line += " · " + clean(t.StatusMessage)
		}
		lines = append(lines, wrapStyled(st.Accent, line, w)...)
		return append(lines, "", st.Muted.Render(cancelKey+" sends tasks/cancel"))
	}
	return append(lines, "", st.Muted.Render(cancelKey+" cancels the call"))
}

// shownRespSeq is the Seq of the response shown: the call run's, or a recorded session's
// selected past call's (0 without one).
func (p *callPane) shownRespSeq() uint64 {
	if r := p.run; r != nil && r.resp != nil {
		return r.resp.Seq
	}
	if p.past != nil && p.form == nil {
		if k, ok := p.past.selected(); ok {
			return p.past.rec.Call(k).RespSeq
		}
	}
	return 0
}
