package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The blocking task follower: Tasks' step machine (tasks.go) carried out with real timers,
// for callers that wait for a tool call's end (headless commands, check, bench, the
// conformance client). The TUI carries out the same Steps with ticks and Cmds
// (ui/taskflow.go): one follower decides for all of them.

// FollowOptions tune a blocking task follow.
type FollowOptions struct {
	// Features are the client's (FollowOptions{} declares everything, as the client does by
	// default); NoTasks makes a task answer an invalid response (Tasks.followModern).
	Features ClientFeatures
	// OnUpdate, when set, is called with every status the follower learns, the first one
	// included.
	OnUpdate func(mcpclient.Task)
	// Note, when set, receives the step machine's notes.
	Note func(Note)
}

// CallTool sends tools/call with the tool's name and arguments (a JSON object, or nil for
// none) and returns its result (MCP 2025-11-25 server/tools). A modern CreateTaskResult
// (resultType "task", ext-tasks) is followed to its end and its inline result decoded
// instead (ext-tasks §Backwards Compatibility: surface only the final result): resp is then a
// copy of the tools/call response that created the task (its Seq, RequestSeq, Elapsed) whose
// Msg.Result is the task's inline result, and a failed or cancelled task is the error. The
// task is bounded like a request (the client's Timeouts: idle, reset when its status or
// statusMessage changes, and in all): a task given up on, or one running when ctx ends, is
// sent tasks/cancel and the error is a *mcpclient.TaskStoppedError. Input requests of the
// task go to Config.OnServerRequest (Client.AskInput); a refused one is the error.
func CallTool(ctx context.Context, c *mcpclient.Client, name string, args json.RawMessage, o FollowOptions) (*mcpclient.CallToolResult, *mcpclient.Response, error) {
	resp, err := c.Request(ctx, "tools/call", mcpclient.CallToolParams(name, args), nil)
	if err != nil {
		return nil, resp, err
	}
	res, t, err := mcpclient.DecodeCallResult(resp)
	if t == nil || err != nil {
		return res, resp, err
	}
	f := newFollower(ctx, c, o)
	defer f.stop()
	e, step := f.ts.Created(1, name, *t, resp, time.Now())
	end, err := f.run(e, step)
	if err != nil {
		return nil, resp, err
	}
	if end.Err != nil {
		return nil, resp, end.Err
	}
	result, _ := e.Task.Outcome()
	cp, msg := *resp, *resp.Msg
	msg.Result = result
	cp.Msg = &msg
	if _, ok, _ := mcpclient.ParseCreateTask(result); ok {
		return nil, &cp, errors.New("tools/call: the task's result is itself a task")
	}
	return end.Res, &cp, nil
}

// AwaitTask follows a modern task (one a tools/call of the caller created, answered with t
// in created) to its end as CallTool does, and returns the terminal task: its Outcome is the
// result or the error.
func AwaitTask(ctx context.Context, c *mcpclient.Client, t *mcpclient.Task, created *mcpclient.Response, o FollowOptions) (*mcpclient.Task, error) {
	f := newFollower(ctx, c, o)
	defer f.stop()
	e, step := f.ts.Created(1, "", *t, created, time.Now())
	if _, err := f.run(e, step); err != nil {
		return &e.Task, err
	}
	return &e.Task, nil
}

// follower is one blocking follow: the step machine, the client, and the bounds.
type follower struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	parent context.Context
	c      *mcpclient.Client
	ts     *Tasks
	o      FollowOptions
	idle   time.Duration
	idleT  *time.Timer
	maxT   *time.Timer
	// last is the status the idle bound was last reset at.
	last mcpclient.Task
}

func newFollower(parent context.Context, c *mcpclient.Client, o FollowOptions) *follower {
	idle, maxTotal, from := c.Timeouts()
	ctx, cancel := context.WithCancelCause(parent)
	f := &follower{ctx: ctx, cancel: cancel, parent: parent, c: c, o: o, idle: idle}
	f.ts = NewTasks(ctx, c, o.Features)
	if idle > 0 {
		errIdle := &mcpclient.TimeoutError{Request: "tools/call", After: idle, From: from}
		f.idleT = time.AfterFunc(idle, func() { cancel(errIdle) })
	}
	if maxTotal > 0 {
		errMax := &mcpclient.TimeoutError{Request: "tools/call", After: maxTotal, Max: true}
		f.maxT = time.AfterFunc(maxTotal, func() { cancel(errMax) })
	}
	return f
}

func (f *follower) stop() {
	if f.idleT != nil {
		f.idleT.Stop()
	}
	if f.maxT != nil {
		f.maxT.Stop()
	}
	f.ts.StopAll()
	f.cancel(nil)
}

// learned takes a status: the idle bound restarts when the status or its message changed
// (the task's progress), and OnUpdate hears it.
func (f *follower) learned(t mcpclient.Task) {
	if f.idleT != nil && (t.Status != f.last.Status || t.StatusMessage != f.last.StatusMessage) {
		f.idleT.Reset(f.idle)
	}
	f.last = t
	if f.o.OnUpdate != nil {
		f.o.OnUpdate(t)
	}
}

// run carries out steps until the task's call ends: its CallEnd, or why following stopped.
func (f *follower) run(e *Task, step Step) (*CallEnd, error) {
	f.learned(e.Task)
	id := e.Task.TaskID
	for {
		f.notes(step.Notes)
		if step.Finish != nil {
			return step.Finish, nil
		}
		asked, err := f.ask(step.Ask)
		if err != nil {
			return nil, err
		}
		var t *mcpclient.Task
		switch {
		case step.FetchResult:
			resp, rerr := f.c.TaskResult(f.ctx, id)
			if rerr != nil && f.ctx.Err() != nil {
				return nil, f.stopped(id, rerr)
			}
			_, step = f.ts.ResultArrived(id, resp, rerr)
			continue
		case asked:
			// Answered: ask again at once, the server may be working again.
			f.ts.PollDue(id)
		case step.PollAfter > 0, e.Polling:
			if err := f.wait(step.PollAfter, e.Task.PollEvery()); err != nil {
				return nil, f.stopped(id, err)
			}
			if !f.ts.PollDue(id) {
				return nil, fmt.Errorf("task %s: following stopped (%s)", id, e.Task.Status)
			}
		default:
			return nil, fmt.Errorf("task %s: nothing more to follow, yet its call did not end (%s)", id, e.Task.Status)
		}
		t, err = f.c.GetTask(f.ctx, id)
		if err != nil {
			if f.ctx.Err() != nil {
				return nil, f.stopped(id, err)
			}
			f.notes([]Note{f.ts.GetFailed(id, err, true)})
			return nil, err
		}
		f.learned(*t)
		_, step = f.ts.Status(*t, true, time.Now())
	}
}

// ask puts the task's new input requests to the client's handler of server requests and
// sends each answer back (the Inbound's tasks/update); a refused one ends the follow.
func (f *follower) ask(reqs []*Inbound) (bool, error) {
	for _, r := range reqs {
		result, err := f.c.AskInput(f.ctx, r.Seq, r.Key, mcpclient.InputRequest{Method: r.Method, Params: r.Params})
		if err != nil {
			if f.ctx.Err() != nil {
				return false, f.stopped(f.last.TaskID, err)
			}
			return false, &TaskInputError{TaskID: f.last.TaskID, Key: r.Key, Method: r.Method, Err: err}
		}
		if err := r.Respond(result, nil); err != nil {
			return false, err
		}
	}
	return len(reqs) > 0, nil
}

// wait waits d (or, when d is 0, the task's own poll interval) unless the follow is bounded
// out, cancelled, or the server exits.
func (f *follower) wait(d, every time.Duration) error {
	if d <= 0 {
		d = every
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-f.ctx.Done():
		return f.ctx.Err()
	case <-f.c.Exited():
		return f.c.Err()
	case <-timer.C:
		return nil
	}
}

// stopped is the error of a follow that ended before the task did, err being what ended
// it: the task's own trouble (an RPC error, the server gone) as it is; a bound running out or
// the caller's cancel sends tasks/cancel (best effort, within mcpclient.TaskCancelWait:
// cancellation is cooperative, ext-tasks §Task Cancellation) and is a
// *mcpclient.TaskStoppedError.
func (f *follower) stopped(id string, err error) error {
	cause := context.Cause(f.ctx)
	switch {
	case f.parent.Err() != nil:
		cause = f.parent.Err()
	case !isBound(cause):
		return err
	}
	cctx, stop := context.WithTimeout(context.WithoutCancel(f.parent), mcpclient.TaskCancelWait)
	defer stop()
	_, cerr := f.c.CancelTask(cctx, id)
	return &mcpclient.TaskStoppedError{TaskID: id, Status: f.last.Status, CancelErr: cerr, Err: cause}
}

// isBound reports whether err is one of the follower's own bounds running out.
func isBound(err error) bool {
	var te *mcpclient.TimeoutError
	return errors.As(err, &te)
}

func (f *follower) notes(ns []Note) {
	if f.o.Note == nil {
		return
	}
	for _, n := range ns {
		f.o.Note(n)
	}
}

// TaskInputError is a task's input request (ext-tasks inputRequests) that was not answered:
// refused, or nobody handles server requests. The follow ends with it; the task stays
// input_required on the server.
type TaskInputError struct {
	TaskID, Key, Method string
	Err                 error
}

func (e *TaskInputError) Error() string {
	return fmt.Sprintf("task %s asked for input %q (%s), which was not given: %v", e.TaskID, e.Key, e.Method, e.Err)
}

func (e *TaskInputError) Unwrap() error { return e.Err }
