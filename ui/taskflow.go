package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// The model's side of task following: session.Tasks decides (tasks.go in session/), and
// these handlers turn its Steps into notes, dialogs and Cmds.

// taskPoll polls a followed task again unless it ended or following it stopped.
func (m *model) taskPoll(msg taskPollMsg) tea.Cmd {
	if !m.tasks.all.PollDue(msg.id) {
		return nil
	}
	return getTask(m.ctx, m.sender(), msg.id, true)
}

// taskGot takes tasks/get's answer.
func (m *model) taskGot(msg taskGotMsg) tea.Cmd {
	if msg.err != nil {
		m.say(m.tasks.all.GetFailed(msg.id, msg.err, msg.poll))
		m.tasks.rebuild()
		return nil
	}
	return m.taskStatus(*msg.task, msg.poll)
}

// taskCancelled takes tasks/cancel's answer.
func (m *model) taskCancelled(msg taskCancelledMsg) tea.Cmd {
	st := m.tasks.all.CancelAnswered(msg.id, msg.task, msg.err, m.now())
	if t := msg.task; msg.err == nil && t != nil && t.TaskID != "" {
		m.showTask(*t)
	}
	return m.taskStep(st, false)
}

// tasksListed takes tasks/list.
func (m *model) tasksListed(msg tasksListedMsg) {
	m.tasks.warns = msg.warns
	if msg.err != nil {
		m.tasks.note = "tasks/list failed: " + msg.err.Error()
		return
	}
	m.tasks.note = "tasks/list: " + jsontext.Count(len(msg.tasks), "task", "tasks")
	for _, t := range msg.tasks {
		m.tasks.all.Upsert(t, m.now())
	}
	m.tasks.rebuild()
}

// taskAction runs what the Tasks pane asked for.
func (m *model) taskAction(a *taskAction) tea.Cmd {
	if a == nil || m.sender() == nil {
		return nil
	}
	switch {
	case a.list && m.state().Era() == mcpclient.EraModern:
		m.tasks.note = "the modern tasks extension (io.modelcontextprotocol/tasks) has no tasks/list: this pane shows the tasks your tool calls created"
	case a.list:
		m.tasks.note = "listing tasks…"
		return listTasks(m.ctx, m.sender())
	case a.get != "":
		return getTask(m.ctx, m.sender(), a.get, false)
	case a.result != "":
		m.tasks.all.StartResult(a.result)
		return fetchTaskResult(m.ctx, m.sender(), a.result)
	case a.cancel != "":
		return cancelTask(m.ctx, m.sender(), a.cancel)
	}
	return nil
}

// taskRequired reports whether a tool must be called as a task
// (execution.taskSupport "required", MCP 2025-11-25 server/tools).
func (m *model) taskRequired(name string) bool { return session.TaskRequired(m.toolNamed(name)) }

// taskCreated follows a tools/call sent as a task: the task is shown and polled, and the
// call waits for its result.
func (m *model) taskCreated(msg taskCreatedMsg) tea.Cmd {
	if msg.err != nil {
		m.call.finish(callDoneMsg{id: msg.callID, resp: msg.resp, err: msg.err}, m.now())
		return nil
	}
	_, st := m.tasks.all.Created(msg.callID, msg.tool, *msg.task, msg.resp, m.now())
	m.tasks.rebuild()
	m.call.setTask(msg.callID, msg.task)
	return m.taskStep(st, false)
}

// taskStatus records a task's status from tasks/get (poll: a scheduled one) and follows it.
func (m *model) taskStatus(t mcpclient.Task, poll bool) tea.Cmd {
	_, st := m.tasks.all.Status(t, poll, m.now())
	m.showTask(t)
	return m.taskStep(st, false)
}

// showTask gives a task's latest state to the call it runs for.
func (m *model) showTask(t mcpclient.Task) {
	if e := m.tasks.all.Get(t.TaskID); e != nil {
		m.call.setTask(e.CallID, &t)
	}
}

// taskResult stores tasks/result and, for a task of our tools/call, finishes the call.
func (m *model) taskResult(msg taskResultMsg) tea.Cmd {
	e, st := m.tasks.all.ResultArrived(msg.id, msg.resp, msg.err)
	if e == nil {
		return nil
	}
	return m.taskStep(st, true)
}

// taskStep carries out what the session asks after a task event (session.Step), in its
// order: notes; closing the dialogs of the inputs of a task that ended; ending the call
// the task ran for; dialogs for new input requests; then the requests. asAnswer ends the
// call as tasks/result or a cancel does (the call pane only); otherwise as the end of its
// task (callDone: notes when the call is not in view).
func (m *model) taskStep(st session.Step, asAnswer bool) tea.Cmd {
	m.sayAll(st.Notes)
	e := m.tasks.all.Get(st.TaskID)
	if len(st.Closed) > 0 && e != nil {
		m.closeTaskInputs(e, st.Closed)
	}
	if f := st.Finish; f != nil {
		done := callDoneMsg{id: f.CallID, res: f.Res, resp: f.Resp, err: f.Err}
		if asAnswer {
			m.call.finish(done, m.now())
		} else {
			m.callDone(done)
		}
		if e != nil {
			m.taskCallEnded(e)
		}
	}
	var cmds []tea.Cmd
	if len(st.Ask) > 0 {
		cmds = append(cmds, m.serverRequests(st.Ask))
	}
	m.tasks.rebuild()
	if m.sender() == nil || st.TaskID == "" {
		return tea.Batch(cmds...)
	}
	id := st.TaskID
	if st.FetchResult {
		cmds = append(cmds, fetchTaskResult(m.ctx, m.sender(), id))
	}
	if st.Get {
		cmds = append(cmds, getTask(m.ctx, m.sender(), id, false))
	}
	if st.Cancel {
		cmds = append(cmds, cancelTask(m.ctx, m.sender(), id))
	}
	if ctx := st.ListenCtx; ctx != nil {
		s := m.sender()
		cmds = append(cmds, func() tea.Msg {
			_, err := s.Listen(ctx, session.ListenFor(id))
			return taskListenEndedMsg{id: id, err: err}
		})
	}
	if st.PollAfter > 0 {
		cmds = append(cmds, m.c.tick(st.PollAfter, func(time.Time) tea.Msg { return taskPollMsg{id: id} }))
	}
	return tea.Batch(cmds...)
}

// closeTaskInputs closes the dialogs of the input requests (closed) of task e, which ended.
func (m *model) closeTaskInputs(e *session.Task, closed []*session.Inbound) {
	open := map[*session.Inbound]bool{}
	for _, r := range closed {
		open[r] = true
	}
	keep := m.overlay.requests[:0]
	dropped := 0
	front := len(m.overlay.requests) > 0 && open[m.overlay.requests[0].base().req]
	for _, d := range m.overlay.requests {
		if open[d.base().req] {
			dropped++
			continue
		}
		keep = append(keep, d)
	}
	m.overlay.requests = keep
	if dropped > 0 {
		m.say(session.TaskInputsClosedNote(e, dropped))
		if front && len(m.overlay.requests) > 0 {
			m.pending = append(m.pending, m.overlay.requests[0].focus())
		}
	}
}

// taskCallEnded replaces the "runs as task" note of a task's call once the call has ended,
// so the status bar does not keep saying it is working.
func (m *model) taskCallEnded(e *session.Task) {
	if !strings.HasPrefix(m.flash.text, strings.TrimSuffix(session.TaskRunsNote(e.Tool, e.Task.TaskID, ""), "()")) {
		return
	}
	run := m.call.byID(e.CallID)
	if run == nil || run.running() {
		return
	}
	level := "info"
	if run.err != nil || (run.res != nil && run.res.IsError) {
		level = "warning"
	}
	m.note(level, fmt.Sprintf("tools/call %s (task %s) finished: %s", e.Tool, e.Task.TaskID, m.call.callState(run, m.now())))
}

// tasksServerGone stops following every task when the server exits or closes its stdout
// (l): a call still running as a task ends at once with the death as its error
// (session.Tasks.ServerGone).
func (m *model) tasksServerGone(l *mcpclient.LifeInfo) {
	steps, changed := m.tasks.all.ServerGone(l, m.tl.stderrTail(session.StderrTailErr), func(callID int) bool {
		run := m.call.byID(callID)
		return run != nil && run.running()
	})
	for _, st := range steps {
		m.taskStep(st, false)
	}
	if changed {
		m.tasks.rebuild()
	}
}
