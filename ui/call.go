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
)

// callPane is the Call tab: the open form, or the last call (in flight or its result).
type callPane struct {
	c *common
	// forms keeps one form per tool name so values survive closing and reopening.
	forms map[string]*formPane
	form  *formPane // open form, nil when closed
	run   *callRun
	runs  int // call ids

	spin spinner.Model
	bar  progress.Model

	lines []string // rendered result, cached
	off   int
	r     rect

	// taskRequired says whether a tool must be called as a task (set by the root).
	taskRequired func(name string) bool
	// task is the task the current call runs as (nil for a plain call).
	task *mcpclient.Task
	// late is a response that came after the current call was cancelled.
	late *mcpclient.Event
}

func newCallPane(c *common) *callPane {
	return &callPane{c: c, forms: map[string]*formPane{}, spin: newSpinner(c.st), bar: newBar(c.st)}
}

func (p *callPane) setSize(r rect) {
	p.r = r
	if p.form != nil {
		p.form.setSize(r.w, r.h)
	}
	p.bar.SetWidth(min(max(r.w-20, 10), 50))
	p.render()
}

// open shows the form for tool, reusing its earlier values.
func (p *callPane) open(t mcpclient.Tool) tea.Cmd {
	f, ok := p.forms[t.Name]
	if !ok {
		f = newFormPane(p.c, t)
		f.prefill()
		p.forms[t.Name] = f
	}
	p.form = f
	f.setSize(p.r.w, p.r.h)
	return f.focus(f.cur)
}

// inputFocused reports whether the form owns the keyboard.
func (p *callPane) inputFocused() bool { return p.form != nil }

// start begins a call; the returned Cmd runs it.
func (p *callPane) start(ctx context.Context, s Session, tool string, args []byte, now time.Time) tea.Cmd {
	p.runs++
	cctx, cancel := context.WithCancel(ctx)
	p.run = &callRun{id: p.runs, tool: tool, args: args, started: now, cancel: cancel}
	p.form = nil
	p.off = 0
	p.task, p.late = nil, nil
	p.render()
	if p.taskRequired != nil && p.taskRequired(tool) {
		return tea.Batch(callToolAsTask(cctx, s, p.run.id, tool, args), p.spin.Tick)
	}
	return tea.Batch(callTool(cctx, s, p.run.id, tool, args), p.spin.Tick)
}

// setTask records the status of the task call id runs as.
func (p *callPane) setTask(id int, t *mcpclient.Task) {
	if p.run == nil || p.run.id != id || t == nil {
		return
	}
	cp := *t
	p.task = &cp
	p.render()
}

// lateResponse shows a response that arrived after the current call was cancelled
// (case B12b): it is not the result of anything, but it is not lost either.
func (p *callPane) lateResponse(ev *mcpclient.Event) {
	r := p.run
	if r == nil || !r.done || r.reqSeq == 0 || ev.Pair != r.reqSeq {
		return
	}
	e := *ev
	p.late = &e
	p.render()
}

// finish records a call's answer; stale answers (an older id) are ignored.
func (p *callPane) finish(msg callDoneMsg, now time.Time) bool {
	r := p.run
	if r == nil || r.id != msg.id {
		return false
	}
	r.done = true
	r.res, r.resp, r.err = msg.res, msg.resp, msg.err
	r.elapsed = now.Sub(r.started)
	if msg.resp != nil && msg.resp.Elapsed > 0 {
		r.elapsed = msg.resp.Elapsed
	}
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	p.render()
	return true
}

// cancelCall cancels the call in flight (mcpclient then sends notifications/cancelled).
func (p *callPane) cancelCall() bool {
	if p.run.running() && p.run.cancel != nil {
		p.run.cancel()
		return true
	}
	return false
}

// cancel exposes the in-flight call's cancel func for Run's cleanup.
func (p *callPane) cancelFunc() context.CancelFunc {
	if p.run.running() {
		return p.run.cancel
	}
	return nil
}

func (p *callPane) render() {
	if p.run != nil && p.run.done {
		w := max(p.r.w, 10)
		p.lines = resultLines(p.c.st, p.run, w)
		if p.task != nil {
			p.lines = append(p.lines, "", p.c.st.Muted.Render(fmt.Sprintf("ran as task %s (%s); 8 Tasks follows it", clean(p.task.TaskID), clean(p.task.Status))))
		}
		if p.late != nil {
			st := p.c.st
			p.lines = append(p.lines, "")
			what := "response after cancel"
			if !errors.Is(p.run.err, context.Canceled) {
				what = "late response (after the timeout)"
			}
			p.lines = append(p.lines, wrapStyled(st.Warning, fmt.Sprintf("%s (#%d): the server answered anyway; it is not used", what, p.late.Seq), w)...)
			p.lines = append(p.lines, wrap(clean(strings.TrimSpace(string(p.late.Raw))), w)...)
		}
	} else {
		p.lines = nil
	}
}

// handleKey handles the result view's keys (the form handles its own).
func (p *callPane) handleKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := p.c.keys
	page := max(p.r.h-2, 1)
	switch {
	case key.Matches(msg, k.CancelCall):
		p.cancelCall()
	case key.Matches(msg, k.Up):
		p.off--
	case key.Matches(msg, k.Down):
		p.off++
	case key.Matches(msg, k.PageUp):
		p.off -= page
	case key.Matches(msg, k.PageDown):
		p.off += page
	case key.Matches(msg, k.Top):
		p.off = 0
	case key.Matches(msg, k.Bottom):
		p.off = len(p.lines)
	default:
		return false, nil
	}
	p.off = clampScroll(p.off, len(p.lines), p.r.h)
	return true, nil
}

func (p *callPane) view(now time.Time) string {
	st := p.c.st
	w, h := p.r.w, p.r.h
	if p.form != nil {
		return p.form.view()
	}
	r := p.run
	if r == nil {
		lines := []string{st.Muted.Render("no call yet: choose a tool in 1 Tools and press enter")}
		return strings.Join(window(lines, 0, h, w), "\n")
	}
	if r.running() {
		lines := []string{
			st.Title.Render("tools/call " + clean(r.tool)),
			st.Muted.Render("arguments: " + clean(string(r.args))),
		}
		lines = append(lines, invalidLines(st, r.invalid, w)...)
		lines = append(lines,
			"",
			fmt.Sprintf("%s waiting for the answer… %s", p.spin.View(), now.Sub(r.started).Round(100*time.Millisecond)),
		)
		if r.total > 0 {
			lines = append(lines, p.bar.ViewAs(min(r.progress/r.total, 1))+fmt.Sprintf("  %g/%g", r.progress, r.total))
		} else if r.progress > 0 {
			lines = append(lines, fmt.Sprintf("progress: %g", r.progress))
		}
		if r.progMsg != "" {
			lines = append(lines, wrapStyled(st.Muted, clean(r.progMsg), w)...)
		}
		if t := p.task; t != nil {
			line := fmt.Sprintf("task %s: %s %s", clean(t.TaskID), statusMark(t.Status), clean(t.Status))
			if t.StatusMessage != "" {
				line += " · " + clean(t.StatusMessage)
			}
			lines = append(lines, wrapStyled(st.Accent, line, w)...)
			lines = append(lines, "", st.Muted.Render("ctrl+x sends tasks/cancel"))
			return strings.Join(window(lines, 0, h, w), "\n")
		}
		lines = append(lines, "", st.Muted.Render("ctrl+x cancels the call"))
		return strings.Join(window(lines, 0, h, w), "\n")
	}
	p.off = clampScroll(p.off, len(p.lines), h)
	return strings.Join(window(p.lines, p.off, h, w), "\n")
}
