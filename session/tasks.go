package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Task following, for both eras: the 2025-11-25 tasks utility (a tools/call with
// params.task is polled with tasks/get and its result fetched with tasks/result) and the
// modern extension io.modelcontextprotocol/tasks (ext-tasks specification/draft/tasks.md:
// a tools/call answered with a CreateTaskResult is polled every pollIntervalMs and
// listened to with subscriptions/listen, an input_required task asks through the same
// requests as a multi round-trip call and gets each answer with tasks/update, and its
// inline result or error becomes the call's).
//
// Tasks decides and the caller acts: every event returns a Step saying what to send, what
// to schedule and which call ends. Nothing here waits or reads a clock.

// Requester sends a request and waits for its response (*mcpclient.Client does).
type Requester interface {
	Request(ctx context.Context, method string, params any, opt *mcpclient.RequestOptions) (*mcpclient.Response, error)
}

// Task is one task the session knows: created by a tool call, listed, or reported.
type Task struct {
	Task mcpclient.Task
	// Tool and CallID are set for tasks a tools/call of ours created.
	Tool   string
	CallID int
	// Seen is when the status was last learned.
	Seen time.Time
	// Polling is set while a tasks/get poll is scheduled.
	Polling bool
	// PollErr is why polling stopped: the error of the last scheduled tasks/get, or the
	// server's exit (nil while polling goes on, or after a tasks/get succeeded again).
	PollErr error
	// Fetching is set while tasks/result is in flight; Result and Err hold its answer.
	Fetching bool
	Result   *mcpclient.Response
	Err      error

	// Modern is set for a task of io.modelcontextprotocol/tasks (no tasks/result or
	// tasks/list; the result is inline).
	Modern bool
	// Created is the tools/call response that created the task.
	Created *mcpclient.Response
	// Asked are the inputRequests keys already put to the user (asked once per task).
	Asked map[string]bool
	// Inputs are the open input requests of the task, closed when it ends.
	Inputs []*Inbound
	// Listening is set once subscriptions/listen was opened for the task.
	Listening  bool
	stopListen context.CancelFunc
	// Finished is set when the call the task ran for was given the task's outcome.
	Finished bool
}

// Stalled reports whether the task's last known status is not terminal but nothing
// follows it any more: a scheduled tasks/get failed, or the server is gone.
func (e *Task) Stalled() bool { return e.PollErr != nil && !e.Task.Terminal() }

// CallEnd is the end of a tools/call that ran as a task: its result, or its error, and
// the response that stands for it (the CreateTaskResult, or tasks/result).
type CallEnd struct {
	CallID int
	Res    *mcpclient.CallToolResult
	Resp   *mcpclient.Response
	Err    error
}

// Step is what the caller does after a task event, in this order: show Notes; close the
// dialogs of Closed (TaskInputsClosedNote when some were open); end the call (Finish);
// put Ask to the user (through ClientFeatures.Decide); send tasks/result (FetchResult), tasks/get (Get) or tasks/cancel
// (Cancel) for TaskID; open subscriptions/listen for it with ListenCtx (ListenFor, then
// ListenEnded); and after PollAfter (when > 0) call PollDue.
type Step struct {
	TaskID      string
	Notes       []Note
	Finish      *CallEnd
	Closed      []*Inbound
	Ask         []*Inbound
	FetchResult bool
	Get         bool
	Cancel      bool
	ListenCtx   context.Context
	PollAfter   time.Duration
}

func (s *Step) note(level Level, text string) { s.Notes = append(s.Notes, Note{level, text}) }

// Tasks holds the session's tasks, in the order they became known.
type Tasks struct {
	ctx      context.Context
	send     Requester
	features ClientFeatures
	byID     map[string]*Task
	order    []string
	// ofCall maps a tools/call (call id) run as a task to its task id.
	ofCall map[int]string
}

// NewTasks makes an empty table. send sends the task requests of the caller (tasks/update
// goes through it); nil for a session that cannot send, where tasks are only shown. ctx
// bounds every request and stream it asks for.
func NewTasks(ctx context.Context, send Requester, f ClientFeatures) *Tasks {
	return &Tasks{ctx: ctx, send: send, features: f, byID: map[string]*Task{}, ofCall: map[int]string{}}
}

// Get is the task id (nil when unknown).
func (ts *Tasks) Get(id string) *Task { return ts.byID[id] }

// Order lists the task ids in the order they became known.
func (ts *Tasks) Order() []string { return ts.order }

// ForCall is the task tools/call callID runs as, nil for a plain call.
func (ts *Tasks) ForCall(callID int) *Task {
	if id, ok := ts.ofCall[callID]; ok {
		return ts.byID[id]
	}
	return nil
}

// Upsert records a task's latest state, learned at now, and returns its entry.
func (ts *Tasks) Upsert(t mcpclient.Task, now time.Time) *Task {
	e := ts.byID[t.TaskID]
	if e == nil {
		e = &Task{}
		ts.byID[t.TaskID] = e
		ts.order = append(ts.order, t.TaskID)
	}
	e.Task = t
	e.Seen = now
	return e
}

// TaskRunsNote is the note of a tools/call that became a task.
func TaskRunsNote(tool, taskID, status string) string {
	return fmt.Sprintf("tools/call %s runs as task %s (%s)", tool, taskID, status)
}

// Created follows a tools/call (callID, tool) that the server answered with task t in
// resp: the task is recorded, and followed until it ends.
func (ts *Tasks) Created(callID int, tool string, t mcpclient.Task, resp *mcpclient.Response, now time.Time) (*Task, Step) {
	e := ts.Upsert(t, now)
	e.Tool, e.CallID, e.Created = tool, callID, resp
	ts.ofCall[callID] = t.TaskID
	step := ts.Follow(e, now)
	step.Notes = append([]Note{{Info, TaskRunsNote(tool, t.TaskID, t.Status)}}, step.Notes...)
	return e, step
}

// Follow is the next step for a task of ours: poll it until it is terminal or needs
// input, then fetch its result (2025-11-25: tasks/result blocks until the end and carries
// the server's input requests); a modern task is followed by followModern.
func (ts *Tasks) Follow(e *Task, now time.Time) Step {
	if e.Modern || e.Task.Modern() {
		return ts.followModern(e, now)
	}
	step := Step{TaskID: e.Task.TaskID}
	if e.CallID == 0 || e.Fetching || e.Result != nil || ts.send == nil {
		return step
	}
	if e.Task.Terminal() || e.Task.Status == "input_required" {
		e.Fetching = true
		step.FetchResult = true
		return step
	}
	if !e.Polling {
		schedulePoll(e, &step)
	}
	return step
}

// schedulePoll arms the next tasks/get of a task: every pollIntervalMs (modern) or
// pollInterval (2025-11-25), at least mcpclient.MinTaskPoll.
func schedulePoll(e *Task, step *Step) {
	e.Polling = true
	step.PollAfter = e.Task.PollEvery()
}

// followModern keeps a modern task polled until it ends, asks the user for new input
// requests, listens for its notifications, and gives the outcome to its call.
func (ts *Tasks) followModern(e *Task, now time.Time) Step {
	e.Modern = true
	t := e.Task
	step := Step{TaskID: t.TaskID}
	if ts.features.NoTasks && e.CallID != 0 && !e.Finished {
		// We did not declare the extension, so the answer is invalid (ext-tasks §Capability
		// Negotiation); the call ends with that, and the task is still followed.
		step.Finish = ts.finishCall(e, fmt.Errorf("the server answered tools/call with a task (resultType \"task\", task %s) although mcp-inspect did not declare %s (--no-tasks): an invalid response; the task is followed anyway", t.TaskID, mcpclient.TasksExtension))
	}
	if t.Terminal() {
		if e.stopListen != nil {
			e.stopListen()
			e.stopListen = nil
		}
		step.Closed, e.Inputs = e.Inputs, nil
		if end := ts.finishCall(e, nil); end != nil {
			step.Finish = end
		}
		return step
	}
	if ts.send == nil {
		return step
	}
	if !e.Listening {
		e.Listening = true
		step.ListenCtx, e.stopListen = context.WithCancel(ts.ctx)
	}
	if t.Status == "input_required" {
		ts.askInputs(e, now, &step)
	}
	if !e.Polling {
		schedulePoll(e, &step)
	}
	return step
}

// ListenFor is the filter of a task's own subscriptions/listen stream.
func ListenFor(taskID string) mcpclient.ListenFilter {
	return mcpclient.ListenFilter{TaskIDs: []string{taskID}}
}

// askInputs makes a request for each input request the user was not asked yet (keys are
// unique over a task's life, and the server repeats outstanding ones on every poll:
// ext-tasks §Task Update Requests). Each answer goes back at once in its own tasks/update.
func (ts *Tasks) askInputs(e *Task, now time.Time, step *Step) {
	if e.Asked == nil {
		e.Asked = map[string]bool{}
	}
	keys := make([]string, 0, len(e.Task.InputRequests))
	for k := range e.Task.InputRequests {
		if !e.Asked[k] {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	sort.Strings(keys)
	var seq uint64
	if e.Created != nil {
		seq = e.Created.Seq
	}
	ctx, s, id := ts.ctx, ts.send, e.Task.TaskID
	for _, k := range keys {
		e.Asked[k] = true
		ir := e.Task.InputRequests[k]
		key := k
		r := NewInbound(ir.Method, ir.Params, key, seq, now, func(result json.RawMessage, rerr *mcpclient.RPCError) error {
			if rerr != nil {
				return fmt.Errorf("input %q of task %s was refused (%s): no tasks/update sent; the task stays input_required", key, id, rerr.Message)
			}
			_, err := s.Request(ctx, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]json.RawMessage{key: result}},
				&mcpclient.RequestOptions{NoProgressToken: true})
			if err != nil {
				return fmt.Errorf("tasks/update of task %s: %w", id, err)
			}
			return nil
		})
		step.Ask = append(step.Ask, r)
	}
	e.Inputs = append(e.Inputs, step.Ask...)
	step.note(Info, fmt.Sprintf("task %s needs input (%s): answer in the dialog; the answer goes back with tasks/update", id, strings.Join(keys, ", ")))
}

// TaskInputsClosedNote is the note when a task that ended closed n of its input requests
// (those still open) unanswered.
func TaskInputsClosedNote(e *Task, n int) Note {
	return Note{Info, fmt.Sprintf("task %s ended (%s): %d input request(s) closed unanswered", e.Task.TaskID, e.Task.Status, n)}
}

// finishCall gives a terminal task's outcome to the tools/call it ran for: the inline
// CallToolResult, the inline JSON-RPC error, or the cancellation; a non-nil fail ends the
// call with that error instead. nil when the task ran for no call, or it already ended.
func (ts *Tasks) finishCall(e *Task, fail error) *CallEnd {
	if e.CallID == 0 || e.Finished {
		return nil
	}
	e.Finished = true
	end := &CallEnd{CallID: e.CallID}
	if e.Created != nil {
		// The call's response is the CreateTaskResult; the time taken is the task's, not
		// that response's round trip.
		cp := *e.Created
		cp.Elapsed = 0
		end.Resp = &cp
	}
	res, err := e.Task.Outcome()
	switch {
	case fail != nil:
		end.Err = fail
	case err != nil:
		end.Err = err
	default:
		var ctr mcpclient.CallToolResult
		if err := json.Unmarshal(res, &ctr); err != nil {
			end.Err = fmt.Errorf("task %s: the inline result is not a CallToolResult: %w", e.Task.TaskID, err)
		} else {
			end.Res = &ctr
		}
	}
	return end
}

// Status records a task's status from tasks/get (poll is set for a scheduled poll),
// tasks/cancel or a notification, and follows it.
func (ts *Tasks) Status(t mcpclient.Task, poll bool, now time.Time) (*Task, Step) {
	if e := ts.byID[t.TaskID]; e != nil {
		e.PollErr = nil // the task is followed again
	}
	e := ts.Upsert(t, now)
	if poll {
		e.Polling = false
	}
	return e, ts.Follow(e, now)
}

// Notified follows notifications/tasks: the params are the whole DetailedTask.
func (ts *Tasks) Notified(t mcpclient.Task, now time.Time) (*Task, Step) {
	if e := ts.byID[t.TaskID]; e != nil {
		e.Modern = true
	} else {
		ts.Upsert(t, now).Modern = true
	}
	return ts.Status(t, false, now)
}

// PollDue is a scheduled poll's time: whether to send tasks/get (as a poll) for task id
// now. Not for a task that ended, or whose following stopped.
func (ts *Tasks) PollDue(id string) bool {
	e := ts.byID[id]
	if e == nil || ts.send == nil {
		return false
	}
	e.Polling = false
	return !e.Task.Terminal() && e.PollErr == nil
}

// GetFailed records a failed tasks/get of task id (poll: a scheduled one, which stops
// polling) and returns its note.
func (ts *Tasks) GetFailed(id string, err error, poll bool) Note {
	text := fmt.Sprintf("tasks/get %s failed: %s", id, err)
	if e := ts.byID[id]; e != nil {
		e.Polling = false
		if poll && !e.Task.Terminal() {
			e.PollErr = err
			text += " · polling stopped (a tasks/get of the task starts it again)"
		}
	}
	return Note{Error, text}
}

// StartResult marks tasks/result of task id as sent (the user asked for it).
func (ts *Tasks) StartResult(id string) {
	if e := ts.byID[id]; e != nil {
		e.Fetching, e.Err = true, nil
	}
}

// ResultArrived records tasks/result of task id and, for a task of our tools/call, ends
// the call with it; Step.Get asks for a final status poll when the task's last known
// status is not terminal.
func (ts *Tasks) ResultArrived(id string, resp *mcpclient.Response, err error) (*Task, Step) {
	step := Step{TaskID: id}
	e := ts.byID[id]
	if e == nil {
		return nil, step
	}
	e.Fetching = false
	e.Result, e.Err = resp, err
	if err != nil {
		step.note(Error, fmt.Sprintf("tasks/result %s failed: %s", id, err))
	}
	if e.CallID == 0 {
		return e, step
	}
	end := &CallEnd{CallID: e.CallID, Resp: resp, Err: err}
	if err == nil && resp != nil {
		var res mcpclient.CallToolResult
		if err := json.Unmarshal(resp.Msg.Result, &res); err != nil {
			end.Err = fmt.Errorf("tasks/result is not a CallToolResult: %w", err)
		} else {
			end.Res = &res
		}
	}
	step.Finish = end
	// A final status poll, so the list shows how it ended.
	step.Get = !e.Task.Terminal() && ts.send != nil
	return e, step
}

// CancelAnswered records the answer to tasks/cancel of task id: its note, and the task's
// status when the answer carried one (then Status follows it).
func (ts *Tasks) CancelAnswered(id string, t *mcpclient.Task, err error, now time.Time) Step {
	if err != nil {
		return Step{TaskID: id, Notes: []Note{{Error, fmt.Sprintf("tasks/cancel %s failed: %s", id, err)}}}
	}
	note := Note{Info, "tasks/cancel " + id + " accepted"}
	if t != nil && t.TaskID != "" {
		_, step := ts.Status(*t, false, now)
		step.Notes = append([]Note{note}, step.Notes...)
		return step
	}
	return Step{TaskID: id, Notes: []Note{note}}
}

// CancelCall is the user cancelling tools/call callID: ok is false when it does not run
// as a task (cancel the call itself). A modern task's call ends when the task does
// (cancellation is cooperative, ext-tasks §Task Cancellation); a 2025-11-25 task's call
// is freed at once (Step.Finish with context.Canceled). Step.Cancel sends tasks/cancel.
func (ts *Tasks) CancelCall(callID int) (step Step, ok bool) {
	id, isTask := ts.ofCall[callID]
	if !isTask || ts.send == nil {
		return Step{}, false
	}
	step = Step{TaskID: id, Cancel: true}
	if e := ts.byID[id]; e != nil && e.Modern {
		step.note(Info, "tasks/cancel sent for task "+id+": the call ends when the task does (cancellation is cooperative)")
		return step, true
	}
	step.Finish = &CallEnd{CallID: callID, Err: context.Canceled}
	step.note(Info, "tasks/cancel sent for task "+id)
	return step, true
}

// ListenEnded records the end of task id's own subscriptions/listen stream with err and
// returns the note to show (nil for a normal end, a cancel, or the server's exit, which
// the dead-server panel and the task's call say).
func (ts *Tasks) ListenEnded(id string, err error) *Note {
	if e := ts.byID[id]; e != nil {
		e.Listening, e.stopListen = e.Listening && err == nil, nil
	}
	var exit *mcpclient.ExitError
	switch {
	case err == nil, errors.Is(err, context.Canceled), errors.As(err, &exit):
		return nil
	}
	return &Note{Warning, fmt.Sprintf("subscriptions/listen for task %s ended: %s (tasks/get polling goes on)", id, err)}
}

// StopAll stops every task's listen stream (the program ends).
func (ts *Tasks) StopAll() {
	for _, e := range ts.byID {
		if e.stopListen != nil {
			e.stopListen()
			e.stopListen = nil
		}
	}
}

// TaskDiedError ends a call running as a task when the server dies. Such a call has no
// request pending (the tools/call was answered with the task), so the client's failing of
// pending requests does not reach it. It unwraps to the ExitError, whose Pending names the
// task and its call.
type TaskDiedError struct{ Exit *mcpclient.ExitError }

func (e *TaskDiedError) Error() string {
	s := "server " + e.Exit.How() + " while " + e.Exit.Pending + " was running"
	if n := len(e.Exit.Stderr); n > 0 {
		s += "; last stderr: " + e.Exit.Stderr[n-1]
	}
	return s
}

func (e *TaskDiedError) Unwrap() error { return e.Exit }

// StderrTailErr is how many last stderr lines a TaskDiedError carries, as the client's
// ExitError does by default (mcpclient.Config.StderrTail).
const StderrTailErr = 20

// ServerGone stops following every task when the server exits or closes its stdout (l):
// no poll or listen is tried again, each task keeps its last known status, and a call
// still running as a task (callRunning says which are) ends at once with the death as
// its error, as a call with a request pending does. stderr is the server's last stderr
// lines (StderrTailErr). changed reports whether a task's state changed.
func (ts *Tasks) ServerGone(l *mcpclient.LifeInfo, stderr []string, callRunning func(callID int) bool) (steps []Step, changed bool) {
	base := mcpclient.ExitError{PID: l.PID, ExitCode: l.ExitCode, Signal: l.Signal, StdoutClosed: l.Kind == mcpclient.LifeStdoutClosed, Stderr: stderr}
	if base.StdoutClosed {
		base.ExitCode = -1
	}
	for _, id := range ts.order {
		e := ts.byID[id]
		if e.stopListen != nil {
			e.stopListen()
			e.stopListen = nil
		}
		e.Listening, e.Polling = false, false
		if e.Task.Terminal() {
			continue
		}
		if e.PollErr == nil {
			cp := base
			e.PollErr, changed = &cp, true
		}
		// A legacy task whose tasks/result is pending ends with that request's own error.
		if e.CallID == 0 || e.Finished || e.Fetching || !callRunning(e.CallID) {
			continue
		}
		step := Step{TaskID: id}
		step.Closed, e.Inputs = e.Inputs, nil
		cp := base
		cp.Pending = fmt.Sprintf("task %s of tools/call %s", e.Task.TaskID, e.Tool)
		step.Finish = ts.finishCall(e, &TaskDiedError{Exit: &cp})
		steps = append(steps, step)
	}
	return steps, changed
}

// TaskFromNotification reads notifications/tasks/status params (2025-11-25): the task's
// fields; ok is false without a taskId.
func TaskFromNotification(params json.RawMessage) (mcpclient.Task, bool) {
	var t mcpclient.Task
	if json.Unmarshal(params, &t) != nil || t.TaskID == "" {
		return t, false
	}
	return t, true
}

// TaskCapList reports whether a tasks capability offers tasks/list.
func TaskCapList(raw json.RawMessage) bool {
	var t struct {
		List json.RawMessage `json:"list"`
	}
	return json.Unmarshal(raw, &t) == nil && t.List != nil
}

// TaskRequired reports whether a tool must be called as a task (execution.taskSupport
// "required", MCP 2025-11-25 server/tools).
func TaskRequired(t *mcpclient.Tool) bool {
	if t == nil || len(t.Execution) == 0 {
		return false
	}
	var e struct {
		TaskSupport string `json:"taskSupport"`
	}
	return json.Unmarshal(t.Execution, &e) == nil && e.TaskSupport == "required"
}
