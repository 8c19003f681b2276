package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The modern tasks extension io.modelcontextprotocol/tasks in the UI (ext-tasks
// specification/draft/tasks.md). A modern tools/call answered with a CreateTaskResult does
// not finish the call: the call shows the task, the Tasks pane follows it (tasks/get every
// pollIntervalMs, and notifications/tasks on a subscriptions/listen with its taskIds), an
// input_required task asks the user through the same dialogs as a multi round-trip request
// and sends each answer with tasks/update, and when the task ends its inline result (or
// error) becomes the call's result.

// taskListenEndedMsg says the subscriptions/listen stream of one task ended.
type taskListenEndedMsg struct {
	id  string
	err error
}

// updateTasksExt handles the extension's own messages; ok is false for others.
func (m *Model) updateTasksExt(msg tea.Msg) (tea.Cmd, bool) {
	msg2, ok := msg.(taskListenEndedMsg)
	if !ok {
		return nil, false
	}
	if e := m.tasks.tasks[msg2.id]; e != nil {
		e.listening, e.stopListen = e.listening && msg2.err == nil, nil
	}
	var exit *mcpclient.ExitError
	switch {
	case msg2.err == nil, errors.Is(msg2.err, context.Canceled):
	case errors.As(msg2.err, &exit):
		// The server is gone: the dead-server panel and the task's call say so.
	default:
		m.note("warning", fmt.Sprintf("subscriptions/listen for task %s ended: %s (tasks/get polling goes on)", msg2.id, msg2.err))
	}
	return nil, true
}

// taskNotified follows notifications/tasks: the params are the whole DetailedTask.
func (m *Model) taskNotified(t mcpclient.Task) tea.Cmd {
	if e := m.tasks.tasks[t.TaskID]; e != nil {
		e.modern = true
	} else {
		m.tasks.upsert(t, m.now()).modern = true
	}
	return m.taskStatus(t, false)
}

// followModern is followTask for a modern task: keep polling until it ends, ask the user
// for new input requests, listen for its notifications, and give the outcome to its call.
func (m *Model) followModern(e *taskEntry) tea.Cmd {
	e.modern = true
	t := e.task
	var cmds []tea.Cmd
	if m.features.NoTasks && e.callID != 0 && !e.finished {
		// We did not declare the extension, so the answer is invalid (ext-tasks §Capability
		// Negotiation); the call ends with that, and the Tasks pane still follows the task.
		m.finishTaskCall(e, fmt.Errorf("the server answered tools/call with a task (resultType \"task\", task %s) although mcp-inspect did not declare %s (--no-tasks): an invalid response; 8 Tasks follows the task anyway", t.TaskID, mcpclient.TasksExtension))
	}
	if t.Terminal() {
		if e.stopListen != nil {
			e.stopListen()
			e.stopListen = nil
		}
		m.closeTaskInputs(e)
		m.finishTaskCall(e, nil)
		return nil
	}
	if !m.c.canSend() {
		return nil
	}
	if !e.listening {
		e.listening = true
		ctx, cancel := context.WithCancel(m.ctx)
		e.stopListen = cancel
		s, id := m.sess, t.TaskID
		cmds = append(cmds, func() tea.Msg {
			_, err := s.Listen(ctx, mcpclient.ListenFilter{TaskIDs: []string{id}})
			return taskListenEndedMsg{id: id, err: err}
		})
	}
	if t.Status == "input_required" {
		cmds = append(cmds, m.askTaskInputs(e))
	}
	if !e.polling {
		cmds = append(cmds, schedulePoll(e))
	}
	return tea.Batch(cmds...)
}

// askTaskInputs opens a dialog for each input request the user was not asked yet (keys are
// unique over a task's life, and the server repeats outstanding ones on every poll:
// ext-tasks §Task Update Requests). Each answer goes back at once in its own tasks/update.
func (m *Model) askTaskInputs(e *taskEntry) tea.Cmd {
	if e.asked == nil {
		e.asked = map[string]bool{}
	}
	keys := make([]string, 0, len(e.task.InputRequests))
	for k := range e.task.InputRequests {
		if !e.asked[k] {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	sort.Strings(keys)
	var seq uint64
	if e.created != nil {
		seq = e.created.Seq
	}
	ctx, s, id := m.ctx, m.sess, e.task.TaskID
	reqs := make([]*inbound, 0, len(keys))
	for _, k := range keys {
		e.asked[k] = true
		ir := e.task.InputRequests[k]
		key := k
		r := &inbound{method: ir.Method, params: ir.Params, key: key, seq: seq, arrived: m.now(),
			respond: func(result json.RawMessage, rerr *mcpclient.RPCError) error {
				if rerr != nil {
					return fmt.Errorf("input %q of task %s was refused (%s): no tasks/update sent; the task stays input_required", key, id, rerr.Message)
				}
				_, err := s.Request(ctx, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]json.RawMessage{key: result}},
					&mcpclient.RequestOptions{NoProgressToken: true})
				if err != nil {
					return fmt.Errorf("tasks/update of task %s: %w", id, err)
				}
				return nil
			}}
		reqs = append(reqs, r)
	}
	e.inputs = append(e.inputs, reqs...)
	m.note("info", fmt.Sprintf("task %s needs input (%s): answer in the dialog; the answer goes back with tasks/update", id, strings.Join(keys, ", ")))
	return m.serverRequests(reqs)
}

// closeTaskInputs closes the dialogs of a task that ended.
func (m *Model) closeTaskInputs(e *taskEntry) {
	if len(e.inputs) == 0 {
		return
	}
	open := map[*inbound]bool{}
	for _, r := range e.inputs {
		open[r] = true
	}
	e.inputs = nil
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
		m.note("info", fmt.Sprintf("task %s ended (%s): %d input request(s) closed unanswered", e.task.TaskID, e.task.Status, dropped))
		if front && len(m.overlay.requests) > 0 {
			m.pending = append(m.pending, m.overlay.requests[0].focus())
		}
	}
}

// finishTaskCall gives a terminal task's outcome to the tools/call it ran for: the inline
// CallToolResult, the inline JSON-RPC error, or the cancellation; a non-nil fail ends the
// call with that error instead.
func (m *Model) finishTaskCall(e *taskEntry, fail error) {
	if e.callID == 0 || e.finished {
		return
	}
	e.finished = true
	done := callDoneMsg{id: e.callID}
	if e.created != nil {
		// The call's response is the CreateTaskResult (its problems, w saves it); the time
		// taken is the task's, not that response's round trip.
		cp := *e.created
		cp.Elapsed = 0
		done.resp = &cp
	}
	res, err := e.task.Outcome()
	switch {
	case fail != nil:
		done.err = fail
	case err != nil:
		done.err = err
	default:
		var ctr mcpclient.CallToolResult
		if err := json.Unmarshal(res, &ctr); err != nil {
			done.err = fmt.Errorf("task %s: the inline result is not a CallToolResult: %w", e.task.TaskID, err)
		} else {
			done.res = &ctr
		}
	}
	m.callDone(done)
	m.taskCallEnded(e)
}

// taskRunsNote is the status note of a tools/call that became a task (taskCreated).
func taskRunsNote(tool, taskID, status string) string {
	return fmt.Sprintf("tools/call %s runs as task %s (%s)", tool, taskID, status)
}

// taskCallEnded replaces the "runs as task" note of a task's call once the call has ended,
// so the status bar does not keep saying it is working.
func (m *Model) taskCallEnded(e *taskEntry) {
	if !strings.HasPrefix(m.flash, strings.TrimSuffix(taskRunsNote(e.tool, e.task.TaskID, ""), "()")) {
		return
	}
	run := m.call.byID(e.callID)
	if run == nil || run.running() {
		return
	}
	level := "info"
	if run.err != nil || (run.res != nil && run.res.IsError) {
		level = "warning"
	}
	m.note(level, fmt.Sprintf("tools/call %s (task %s) finished: %s", e.tool, e.task.TaskID, m.call.callState(run, m.now())))
}

// modernTaskLines are the extension's fields in the Tasks pane's detail.
func modernTaskLines(st *stylesT, e *taskEntry, w int) []string {
	t := e.task
	var out []string
	switch {
	case t.TTLMs != nil:
		out = append(out, fmt.Sprintf("ttl:      %d ms", *t.TTLMs))
	default:
		out = append(out, "ttl:      unlimited (ttlMs null or absent)")
	}
	if t.PollIntervalMs != nil {
		out = append(out, fmt.Sprintf("poll:     every %d ms (pollIntervalMs)", *t.PollIntervalMs))
	}
	if len(t.InputRequests) > 0 {
		keys := make([]string, 0, len(t.InputRequests))
		for k := range t.InputRequests {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out = append(out, "", st.Title.Render("input requests"))
		for _, k := range keys {
			state := "not asked yet"
			if e.asked[k] {
				state = "asked: answer in the dialog (sent with tasks/update)"
			}
			out = append(out, wrap(fmt.Sprintf("  %s: %s — %s", clean(k), clean(t.InputRequests[k].Method), state), w)...)
		}
	}
	return out
}

// modernOutcomeLines show a terminal task's inline result or error.
func modernOutcomeLines(st *stylesT, t mcpclient.Task, w int) []string {
	if !t.Terminal() {
		return nil
	}
	res, err := t.Outcome()
	if err != nil {
		return append([]string{""}, errorLines(st, err, w)...)
	}
	out := []string{"", st.Title.Render("result (inline)")}
	if pretty, ok := prettyJSON(res); ok {
		out = append(out, wrap(block(pretty), w)...)
	}
	return out
}

// taskCancelled reports whether err is the end of a task that reached the cancelled status.
func taskCancelled(err error) bool {
	var ce *mcpclient.TaskCancelledError
	return errors.As(err, &ce)
}

// taskDiedError ends a call running as a task when the server dies. Such a call has no
// request pending (the tools/call was answered with the task), so the client's failing of
// pending requests does not reach it. It unwraps to the ExitError, whose Pending names the
// task and its call.
type taskDiedError struct{ exit *mcpclient.ExitError }

func (e *taskDiedError) Error() string {
	s := "server " + e.exit.How() + " while " + e.exit.Pending + " was running"
	if n := len(e.exit.Stderr); n > 0 {
		s += "; last stderr: " + e.exit.Stderr[n-1]
	}
	return s
}

func (e *taskDiedError) Unwrap() error { return e.exit }

// stderrTailErr is how many last stderr lines a taskDiedError carries, as the client's
// ExitError does by default (mcpclient.Config.StderrTail).
const stderrTailErr = 20

// tasksServerGone stops following every task when the server exits or closes its stdout
// (l): no poll or listen is tried again, the Tasks pane keeps each task's last known status,
// and a call still running as a task ends at once with the death as its error, as a call
// with a request pending does.
func (m *Model) tasksServerGone(l *mcpclient.LifeInfo) {
	base := mcpclient.ExitError{PID: l.PID, ExitCode: l.ExitCode, Signal: l.Signal, StdoutClosed: l.Kind == mcpclient.LifeStdoutClosed,
		Stderr: m.tl.stderrTail(stderrTailErr)}
	if base.StdoutClosed {
		base.ExitCode = -1
	}
	changed := false
	for _, id := range m.tasks.order {
		e := m.tasks.tasks[id]
		if e.stopListen != nil {
			e.stopListen()
			e.stopListen = nil
		}
		e.listening, e.polling = false, false
		if e.task.Terminal() {
			continue
		}
		if e.pollErr == nil {
			cp := base
			e.pollErr, changed = &cp, true
		}
		// A legacy task whose tasks/result is pending ends with that request's own error.
		if e.callID == 0 || e.finished || e.fetching {
			continue
		}
		if run := m.call.byID(e.callID); run == nil || !run.running() {
			continue
		}
		m.closeTaskInputs(e)
		cp := base
		cp.Pending = fmt.Sprintf("task %s of tools/call %s", e.task.TaskID, e.tool)
		m.finishTaskCall(e, &taskDiedError{exit: &cp})
	}
	if changed {
		m.tasks.rebuild()
	}
}
