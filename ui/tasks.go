package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// taskEntry is one task the UI knows: created by a tool call, listed, or reported.
type taskEntry struct {
	task mcpclient.Task
	// tool and callID are set for tasks our tools/call created.
	tool   string
	callID int
	// seen is when the status was last learned.
	seen time.Time
	// polling is set while a tasks/get poll is scheduled.
	polling bool
	// pollErr is why polling stopped: the error of the last scheduled tasks/get (nil while
	// polling goes on, or after a tasks/get succeeded again).
	pollErr error
	// fetching is set while tasks/result is in flight; result holds its answer.
	fetching bool
	result   *mcpclient.Response
	err      error

	// The modern tasks extension (tasksext.go): modern is set for a task of
	// io.modelcontextprotocol/tasks (no tasks/result or tasks/list; the result is inline).
	modern bool
	// created is the tools/call response that created the task (its input dialogs name it).
	created *mcpclient.Response
	// asked are the inputRequests keys already shown to the user (asked once per task).
	asked map[string]bool
	// inputs are the open input requests of the task, closed when it ends.
	inputs []*inbound
	// listening is set once subscriptions/listen was opened for the task; stopListen ends it.
	listening  bool
	stopListen context.CancelFunc
	// finished is set when the call the task ran for was given the task's outcome.
	finished bool
}

// tasksPane lists tasks with their status (MCP 2025-11-25 basic/utilities/tasks): get,
// result, cancel, list.
type tasksPane struct {
	c     *common
	list  *itemList
	tasks map[string]*taskEntry
	order []string
	warns []string
	note  string

	detailOff int
	lr, det   rect
	stacked   bool
}

func newTasksPane(c *common) *tasksPane {
	return &tasksPane{c: c, list: newItemList(c, "tasks", "no tasks yet: tools with taskSupport \"required\" run as tasks, and a modern server may answer a tools/call with one; r lists the server's (2025-11-25 tasks/list)"), tasks: map[string]*taskEntry{}}
}

// upsert records a task's latest state and returns its entry.
func (p *tasksPane) upsert(t mcpclient.Task, now time.Time) *taskEntry {
	e := p.tasks[t.TaskID]
	if e == nil {
		e = &taskEntry{}
		p.tasks[t.TaskID] = e
		p.order = append(p.order, t.TaskID)
	}
	e.task = t
	e.seen = now
	p.rebuild()
	return e
}

func (p *tasksPane) rebuild() {
	items := make([]listItem, 0, len(p.order))
	for _, id := range p.order {
		e := p.tasks[id]
		label := id
		if e.tool != "" {
			label = e.tool + " " + id
		}
		tag, mark := e.task.Status, statusMark(e.task.Status)
		if e.stalled() {
			tag, mark = e.task.Status+" · polling stopped", "!"
		}
		items = append(items, listItem{key: id, label: label, tag: tag, mark: mark})
	}
	p.list.title = fmt.Sprintf("tasks (%d)", len(items))
	p.list.setItems(items)
}

// stalled reports whether the task's last known status is not terminal but nothing follows
// it any more: a scheduled tasks/get failed and polling stopped.
func (e *taskEntry) stalled() bool { return e.pollErr != nil && !e.task.Terminal() }

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
	p.lr, p.det, p.stacked = splitView(r, len(p.order))
	p.list.setSize(p.lr)
}

func (p *tasksPane) selected() *taskEntry {
	if it := p.list.selected(); it != nil {
		return p.tasks[it.key]
	}
	return nil
}

func (p *tasksPane) inputFocused() bool { return p.list.filtering }

// taskAction asks the root to send a tasks/* request.
type taskAction struct {
	get, result, cancel string
	list                bool
}

func (p *tasksPane) handleKey(msg tea.KeyPressMsg) (bool, *taskAction, tea.Cmd) {
	k := p.c.keys
	if h, moved, c := p.list.handleKey(msg); h {
		if moved {
			p.detailOff = 0
		}
		return true, nil, c
	}
	e := p.selected()
	switch {
	case key.Matches(msg, k.List.Refresh):
		return true, &taskAction{list: true}, nil
	case key.Matches(msg, k.List.Open):
		if e != nil {
			return true, &taskAction{get: e.task.TaskID}, nil
		}
	case key.Matches(msg, k.Tasks.TaskResult) && e != nil && e.modern:
		p.note = "the tasks extension has no tasks/result: the result comes inline with tasks/get (or notifications/tasks) and is shown below when the task ends"
	case key.Matches(msg, k.Tasks.TaskResult):
		if e != nil && !e.fetching {
			return true, &taskAction{result: e.task.TaskID}, nil
		}
	case key.Matches(msg, k.Tasks.TaskCancel):
		if e != nil && !e.task.Terminal() {
			return true, &taskAction{cancel: e.task.TaskID}, nil
		}
	case key.Matches(msg, k.Detail.DetailUp):
		p.detailOff = max(p.detailOff-max(p.det.h/2, 1), 0)
	case key.Matches(msg, k.Detail.DetailDown):
		p.detailOff += max(p.det.h/2, 1)
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

func getTask(ctx context.Context, s Session, id string, poll bool) tea.Cmd {
	return func() tea.Msg {
		t, err := s.GetTask(ctx, id)
		return taskGotMsg{id: id, task: t, err: err, poll: poll}
	}
}

func fetchTaskResult(ctx context.Context, s Session, id string) tea.Cmd {
	return func() tea.Msg {
		resp, err := s.TaskResult(ctx, id)
		return taskResultMsg{id: id, resp: resp, err: err}
	}
}

func cancelTask(ctx context.Context, s Session, id string) tea.Cmd {
	return func() tea.Msg {
		t, err := s.CancelTask(ctx, id)
		return taskCancelledMsg{id: id, task: t, err: err}
	}
}

func listTasks(ctx context.Context, s Session) tea.Cmd {
	return func() tea.Msg {
		ts, w, err := s.ListTasks(ctx)
		return tasksListedMsg{tasks: ts, warns: w, err: err}
	}
}

// callToolAsTask sends tools/call with params.task (MCP 2025-11-25 tasks).
func callToolAsTask(ctx context.Context, s Session, id int, name string, args json.RawMessage) tea.Cmd {
	return func() tea.Msg {
		t, resp, err := s.CallToolAsTask(ctx, name, args, 0)
		return taskCreatedMsg{callID: id, tool: name, task: t, resp: resp, err: err}
	}
}

// pollEvery is how often a task is polled: its pollIntervalMs (modern) or pollInterval
// (2025-11-25), at least mcpclient.MinTaskPoll, default mcpclient.DefaultTaskPoll.
func pollEvery(t mcpclient.Task) time.Duration { return t.PollEvery() }

// schedulePoll arms the next tasks/get of a task.
func schedulePoll(e *taskEntry) tea.Cmd {
	e.polling = true
	id := e.task.TaskID
	return tea.Tick(pollEvery(e.task), func(time.Time) tea.Msg { return taskPollMsg{id: id} })
}

// taskStatusParams is notifications/tasks/status params: the task's fields.
func taskFromNotification(params json.RawMessage) (mcpclient.Task, bool) {
	var t mcpclient.Task
	if json.Unmarshal(params, &t) != nil || t.TaskID == "" {
		return t, false
	}
	return t, true
}

func (p *tasksPane) view(now time.Time) string {
	return listDetailView(p.c, p.list, p.lr, p.det, p.stacked, nil, p.detailOff, func() []string { return p.detailLines(now) })
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
	t := e.task
	add(wrapStyled(st.Title, "task "+clean(t.TaskID), w)...)
	if e.tool != "" {
		add("tool:     " + clean(e.tool))
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
	if e.stalled() {
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
	if e.stalled() {
		add("")
		why := "polling stopped: the last tasks/get failed (enter tries tasks/get again)"
		if exit := (*mcpclient.ExitError)(nil); errors.As(e.pollErr, &exit) && !exit.NotSent {
			why = "polling stopped: the server is gone; above is the task's last known status"
		}
		add(wrapStyled(st.Error, why, w)...)
		add(errorLines(st, e.pollErr, w)...)
		add("")
	}
	if e.modern {
		add(modernTaskLines(st, e, w)...)
		add(st.Muted.Render(fmt.Sprintf("status learned %s ago", now.Sub(e.seen).Round(100*time.Millisecond))))
		if e.polling && !t.Terminal() {
			add(st.Muted.Render(fmt.Sprintf("polling tasks/get every %s…", pollEvery(t))))
		}
		add("", st.Muted.Render("enter tasks/get · x tasks/cancel (cooperative) · io.modelcontextprotocol/tasks: no tasks/list or tasks/result"))
		add(modernOutcomeLines(st, t, w)...)
		return out
	}
	add(st.Muted.Render(fmt.Sprintf("status learned %s ago", now.Sub(e.seen).Round(100*time.Millisecond))))
	if e.polling && !t.Terminal() {
		add(st.Muted.Render("polling tasks/get…"))
	}
	add("", st.Muted.Render("enter tasks/get · t tasks/result · x tasks/cancel · r tasks/list"))
	switch {
	case e.fetching:
		add("", st.Accent.Render("⟳ tasks/result: waiting until the task finishes…"))
	case e.err != nil:
		add("")
		add(errorLines(st, e.err, w)...)
	case e.result != nil:
		add("", st.Title.Render("result"))
		if pretty, ok := prettyJSON(e.result.Msg.Result); ok {
			add(wrap(block(pretty), w)...)
		}
	}
	return out
}
