package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// tasksPane lists tasks with their status (MCP 2025-11-25 basic/utilities/tasks): get,
// result, cancel, list.
type tasksPane struct {
	c    *common
	list *itemList
	// all are the session's tasks (session.Tasks: Live.Tasks, or a table that cannot send
	// for a viewer).
	all   *session.Tasks
	warns []string
	note  string

	detailOff int
	lr, det   rect
	stacked   bool
}

func newTasksPane(c *common, all *session.Tasks) *tasksPane {
	return &tasksPane{c: c, list: newItemList(c, "tasks", "no tasks yet: tools with taskSupport \"required\" run as tasks, and a modern server may answer a tools/call with one; r lists the server's (2025-11-25 tasks/list)"), all: all}
}

func (p *tasksPane) rebuild() {
	items := make([]listItem, 0, len(p.all.Order()))
	for _, id := range p.all.Order() {
		e := p.all.Get(id)
		label := id
		if e.Tool != "" {
			label = e.Tool + " " + id
		}
		tag, mark := e.Task.Status, statusMark(e.Task.Status)
		if e.Stalled() {
			tag, mark = e.Task.Status+" · polling stopped", "!"
		}
		items = append(items, listItem{key: id, label: label, tag: tag, mark: mark})
	}
	p.list.title = fmt.Sprintf("tasks (%d)", len(items))
	p.list.setItems(items)
}

// statusMark is a one-cell sign for a task status.
func statusMark(s string) string {
	switch s {
	case "working":
		return "⟳"
	case "input_required":
		return "?"
	case "completed":
		return "✓"
	case "failed":
		return "✗"
	case "cancelled":
		return "⊘"
	}
	return " "
}

func (p *tasksPane) setSize(r rect) {
	p.lr, p.det, p.stacked = p.c.splitView(r, len(p.all.Order()))
	p.list.setSize(p.lr)
}

func (p *tasksPane) selected() *session.Task {
	if it := p.list.selected(); it != nil {
		return p.all.Get(it.key)
	}
	return nil
}

func (p *tasksPane) inputFocused() bool { return p.list.typing() }

// taskAction asks the root to send a tasks/* request.
type taskAction struct {
	get, result, cancel string
	list                bool
}

func (p *tasksPane) title() string                       { return "Tasks" }
func (p *tasksPane) updateInput(tea.Msg) (tea.Cmd, bool) { return nil, false }
func (p *tasksPane) bindings() []key.Binding             { return p.c.keys.offered("tasks") }

// handleKey handles the pane's keys: ctrl+x cancels; act is a taskAction when the root
// must send something.
func (p *tasksPane) handleKey(msg tea.KeyPressMsg) (bool, tea.Msg, tea.Cmd) {
	if cancelKey(p.c, msg) {
		return true, cancelAct{}, nil
	}
	clampDetail(&p.detailOff, len(p.detailLines(p.c.now())), p.det.h)
	handled, act, cmd := p.listKey(msg)
	if handled && act != nil {
		return true, *act, cmd
	}
	return handled, nil, cmd
}

// listKey handles the list's keys. act is set when the root must send something.
func (p *tasksPane) listKey(msg tea.KeyPressMsg) (bool, *taskAction, tea.Cmd) {
	k := p.c.keys
	if h, c := p.list.paneKey(msg, &p.detailOff); h {
		return true, nil, c
	}
	e := p.selected()
	switch {
	case key.Matches(msg, k.List.Refresh):
		return true, &taskAction{list: true}, nil
	case key.Matches(msg, k.List.OpenTask):
		if e != nil {
			return true, &taskAction{get: e.Task.TaskID}, nil
		}
	case key.Matches(msg, k.Tasks.TaskResult) && e != nil && e.Modern:
		p.note = "the tasks extension has no tasks/result: the result comes inline with tasks/get (or notifications/tasks) and is shown below when the task ends"
	case key.Matches(msg, k.Tasks.TaskResult):
		if e != nil && !e.Fetching {
			return true, &taskAction{result: e.Task.TaskID}, nil
		}
	case key.Matches(msg, k.Tasks.TaskCancel):
		if e != nil && !e.Task.Terminal() {
			return true, &taskAction{cancel: e.Task.TaskID}, nil
		}
	case k.Detail.pageDetail(msg, &p.detailOff, p.det.h):
	default:
		return false, nil, nil
	}
	return true, nil, nil
}

// Messages of the task requests.
type (
	// taskGotMsg answers tasks/get (poll is set for a scheduled poll).
	taskGotMsg struct {
		id   string
		task *mcpclient.Task
		err  error
		poll bool
	}
	// taskPollMsg is a poll tick for a task.
	taskPollMsg struct{ id string }
	// taskResultMsg answers tasks/result.
	taskResultMsg struct {
		id   string
		resp *mcpclient.Response
		err  error
	}
	// taskCancelledMsg answers tasks/cancel.
	taskCancelledMsg struct {
		id   string
		task *mcpclient.Task
		err  error
	}
	// tasksListedMsg answers tasks/list.
	tasksListedMsg struct {
		tasks []mcpclient.Task
		warns []string
		err   error
	}
	// taskCreatedMsg answers a tools/call sent as a task: the created task, or why not.
	taskCreatedMsg struct {
		callID int
		tool   string
		task   *mcpclient.Task
		resp   *mcpclient.Response
		err    error
	}
)

func getTask(ctx context.Context, s session.Conn, id string, poll bool) tea.Cmd {
	return func() tea.Msg {
		t, err := s.GetTask(ctx, id)
		return taskGotMsg{id: id, task: t, err: err, poll: poll}
	}
}

func fetchTaskResult(ctx context.Context, s session.Conn, id string) tea.Cmd {
	return func() tea.Msg {
		resp, err := s.TaskResult(ctx, id)
		return taskResultMsg{id: id, resp: resp, err: err}
	}
}

func cancelTask(ctx context.Context, s session.Conn, id string) tea.Cmd {
	return func() tea.Msg {
		t, err := s.CancelTask(ctx, id)
		return taskCancelledMsg{id: id, task: t, err: err}
	}
}

func listTasks(ctx context.Context, s session.Conn) tea.Cmd {
	return func() tea.Msg {
		ts, w, err := s.ListTasks(ctx)
		return tasksListedMsg{tasks: ts, warns: w, err: err}
	}
}

// callToolAsTask sends tools/call with params.task (MCP 2025-11-25 tasks).
func callToolAsTask(ctx context.Context, s session.Conn, id int, name string, args json.RawMessage) tea.Cmd {
	return func() tea.Msg {
		t, resp, err := s.CallToolAsTask(ctx, name, args, 0)
		return taskCreatedMsg{callID: id, tool: name, task: t, resp: resp, err: err}
	}
}

func (p *tasksPane) view(now time.Time) string {
	return listDetailView(p.c, p.list, p.det, p.stacked, nil, p.detailOff, func() []string { return p.detailLines(now) })
}

func (p *tasksPane) detailLines(now time.Time) []string {
	st := p.c.st
	w := max(p.det.w, 10)
	var out []string
	add := func(l ...string) { out = append(out, l...) }
	for _, wn := range p.warns {
		add(wrapStyled(st.Warning, "⚠ "+clean(wn), w)...)
	}
	if p.note != "" {
		add(wrapStyled(st.Muted, clean(p.note), w)...)
	}
	e := p.selected()
	if e == nil {
		return out
	}
	t := e.Task
	add(wrapStyled(st.Title, "task "+clean(t.TaskID), w)...)
	if e.Tool != "" {
		add("tool:     " + clean(e.Tool))
	}
	status := clean(t.Status)
	switch t.Status {
	case "completed":
		status = st.Success.Render(status)
	case "failed", "cancelled":
		status = st.Error.Render(status)
	case "input_required":
		status = st.Warning.Render(status)
	}
	if e.Stalled() {
		add(wrapStyled(st.Warning, "status:   ! "+clean(t.Status)+" (last known: polling stopped)", w)...)
	} else {
		add("status:   " + statusMark(t.Status) + " " + status)
	}
	if t.StatusMessage != "" {
		add(wrap("message:  "+clean(t.StatusMessage), w)...)
	}
	if t.CreatedAt != "" {
		add("created:  " + clean(t.CreatedAt))
	}
	if t.LastUpdatedAt != "" {
		add("updated:  " + clean(t.LastUpdatedAt))
	}
	if t.TTL != nil {
		add(fmt.Sprintf("ttl:      %d ms", *t.TTL))
	}
	if t.PollInterval != nil {
		add(fmt.Sprintf("poll:     every %d ms", *t.PollInterval))
	}
	if e.Stalled() {
		add("")
		why := "polling stopped: the last tasks/get failed (enter tries tasks/get again)"
		if exit := (*mcpclient.ExitError)(nil); errors.As(e.PollErr, &exit) && !exit.NotSent {
			why = "polling stopped: the server is gone; above is the task's last known status"
		}
		add(wrapStyled(st.Error, why, w)...)
		add(errorLines(st, e.PollErr, w)...)
		add("")
	}
	if e.Modern {
		add(modernTaskLines(st, e, w)...)
		add(p.seenLine(e, now))
		if !p.c.canSend() {
			add(modernOutcomeLines(st, t, w)...)
			return out
		}
		if e.Polling && !t.Terminal() {
			add(st.Muted.Render(fmt.Sprintf("polling tasks/get every %s…", t.PollEvery())))
		}
		add("", st.Muted.Render("enter tasks/get · x tasks/cancel (cooperative) · io.modelcontextprotocol/tasks: no tasks/list or tasks/result"))
		add(modernOutcomeLines(st, t, w)...)
		return out
	}
	add(p.seenLine(e, now))
	if e.Polling && !t.Terminal() {
		add(st.Muted.Render("polling tasks/get…"))
	}
	if p.c.canSend() {
		add("", st.Muted.Render("enter tasks/get · t tasks/result · x tasks/cancel · r tasks/list"))
	}
	switch {
	case e.Fetching:
		add("", st.Accent.Render("⟳ tasks/result: waiting until the task finishes…"))
	case e.Err != nil:
		add("")
		add(errorLines(st, e.Err, w)...)
	case e.Result != nil:
		add("", st.Title.Render("result"))
		if pretty, ok := jsontext.Indent(e.Result.Msg.Result); ok {
			add(wrap(block(pretty), w)...)
		}
	}
	return out
}

// seenLine says when the task's status was learned: how long ago on a session that can
// send, the recorded time of the event that told it on a recording.
func (p *tasksPane) seenLine(e *session.Task, now time.Time) string {
	if !p.c.canSend() {
		return p.c.st.Muted.Render("status recorded at " + e.Seen.Format("15:04:05.000"))
	}
	return p.c.st.Muted.Render(fmt.Sprintf("status learned %s ago", now.Sub(e.Seen).Round(100*time.Millisecond)))
}

// listShare is the list's share of the pane in percent (the split keys step from it).
func (p *tasksPane) listShare() int { return share(p.lr, p.det, p.stacked) }
