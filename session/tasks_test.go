package session

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// sent records the requests a Requester was asked to send.
type sent struct {
	mu   sync.Mutex
	reqs []string
	err  error
}

func (s *sent) Request(ctx context.Context, method string, params any, opt *mcpclient.RequestOptions) (*mcpclient.Response, error) {
	b, _ := json.Marshal(params)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, method+" "+string(b))
	return &mcpclient.Response{}, s.err
}

func ptr[T any](v T) *T { return &v }

func modernTask(id, status string) mcpclient.Task {
	return mcpclient.Task{TaskID: id, Status: status, ResultType: "task", TTLMs: ptr(int64(600000)), PollIntervalMs: ptr(int64(100))}
}

// A modern tools/call answered with a task is followed: polled and listened to; its
// input requests are asked once each, answered with tasks/update; its inline result
// ends the call.
func TestModernTaskCallInputRequired(t *testing.T) {
	var s sent
	ts := NewTasks(context.Background(), &s, ClientFeatures{})
	created := &mcpclient.Response{Seq: 7, Elapsed: time.Second}
	e, step := ts.Created(1, "task_greet", modernTask("t1", "working"), created, t0)
	if !e.Modern || ts.ForCall(1) != e || ts.ForCall(2) != nil || ts.Get("t1") != e || len(ts.Order()) != 1 {
		t.Fatalf("entry %+v", e)
	}
	if len(step.Notes) != 1 || step.Notes[0].Text != "tools/call task_greet runs as task t1 (working)" || step.Finish != nil ||
		step.ListenCtx == nil || step.PollAfter != 100*time.Millisecond || !e.Polling || !e.Listening {
		t.Fatalf("created step %+v", step)
	}
	listenCtx := step.ListenCtx
	if ListenFor("t1").TaskIDs[0] != "t1" {
		t.Fatal("ListenFor")
	}
	// The poll is due: tasks/get; it answers input_required with one request.
	if !ts.PollDue("t1") || e.Polling {
		t.Fatal("poll not due")
	}
	ask := modernTask("t1", "input_required")
	ask.InputRequests = map[string]mcpclient.InputRequest{"name": {Method: "elicitation/create", Params: json.RawMessage(`{"message":"Please enter your name."}`)}}
	_, step = ts.Status(ask, true, t0)
	if len(step.Ask) != 1 || step.Ask[0].Method != "elicitation/create" || step.Ask[0].Key != "name" || step.Ask[0].Seq != 7 || step.ListenCtx != nil || step.PollAfter == 0 {
		t.Fatalf("input step %+v", step)
	}
	if len(step.Notes) != 1 || step.Notes[0].Text != "task t1 needs input (name): answer in the dialog; the answer goes back with tasks/update" {
		t.Fatalf("notes %+v", step.Notes)
	}
	in := step.Ask[0]
	// Repeated polls do not ask again.
	ts.PollDue("t1")
	if _, step = ts.Status(ask, true, t0); len(step.Ask) != 0 || len(step.Notes) != 0 {
		t.Fatalf("asked twice: %+v", step)
	}
	if err := in.Respond(json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil); err != nil {
		t.Fatal(err)
	}
	if len(s.reqs) != 1 || s.reqs[0] != `tasks/update {"inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}},"taskId":"t1"}` {
		t.Fatalf("tasks/update %q", s.reqs)
	}
	if err := in.Respond(nil, &mcpclient.RPCError{Code: -1, Message: "declined"}); err == nil || !strings.Contains(err.Error(), "no tasks/update sent") {
		t.Fatalf("refused input: %v", err)
	}
	// Completed: the inline result ends the call; the listen stream and the inputs close.
	done := modernTask("t1", "completed")
	done.Result = json.RawMessage(`{"content":[{"type":"text","text":"Hello, Ada!"}]}`)
	_, step = ts.Status(done, true, t0)
	f := step.Finish
	if f == nil || f.CallID != 1 || f.Err != nil || f.Res.Content[0].Text != "Hello, Ada!" || f.Resp.Seq != 7 || f.Resp.Elapsed != 0 || created.Elapsed != time.Second {
		t.Fatalf("finish %+v", f)
	}
	if len(step.Closed) != 1 || step.Closed[0] != in || listenCtx.Err() == nil || step.PollAfter != 0 || ts.PollDue("t1") {
		t.Fatalf("terminal step %+v", step)
	}
	if n := TaskInputsClosedNote(e, 1); n.Text != "task t1 ended (completed): 1 input request(s) closed unanswered" {
		t.Fatal(n)
	}
	// Later news never ends the call twice.
	if _, step = ts.Notified(done, t0); step.Finish != nil {
		t.Fatal("finished twice")
	}
}

// A failed task ends its call with the inline error; notifications/tasks make an unknown
// task modern.
func TestModernTaskNotificationEndsTheCall(t *testing.T) {
	ts := NewTasks(context.Background(), &sent{}, ClientFeatures{})
	ts.Created(3, "task_fail", modernTask("t2", "working"), nil, t0)
	failed := mcpclient.Task{TaskID: "t2", Status: "failed", Error: &mcpclient.RPCError{Code: -32603, Message: "API rate limit exceeded"}}
	_, step := ts.Notified(failed, t0)
	var rpc *mcpclient.RPCError
	if step.Finish == nil || !errors.As(step.Finish.Err, &rpc) || rpc.Code != -32603 {
		t.Fatalf("finish %+v", step.Finish)
	}
	e, _ := ts.Notified(mcpclient.Task{TaskID: "other", Status: "working"}, t0)
	if !e.Modern || e.CallID != 0 {
		t.Fatalf("unknown task %+v", e)
	}
}

// Without the extension declared, a task answer ends the call with an invalid-response
// error; the task is still followed.
func TestModernNoTasksFeature(t *testing.T) {
	ts := NewTasks(context.Background(), &sent{}, ClientFeatures{NoTasks: true})
	e, step := ts.Created(1, "t", modernTask("t3", "working"), nil, t0)
	if step.Finish == nil || !strings.Contains(step.Finish.Err.Error(), "although mcp-inspect did not declare io.modelcontextprotocol/tasks (--no-tasks)") || !e.Polling {
		t.Fatalf("step %+v", step)
	}
}

// Cancelling a modern task's call sends tasks/cancel and waits for the task; a legacy
// task's call is freed at once; a plain call is not a task's.
func TestTaskCancelFromCall(t *testing.T) {
	ts := NewTasks(context.Background(), &sent{}, ClientFeatures{})
	ts.Created(1, "m", modernTask("tm", "working"), nil, t0)
	ts.Created(2, "l", mcpclient.Task{TaskID: "tl", Status: "working"}, nil, t0)
	step, ok := ts.CancelCall(1)
	if !ok || !step.Cancel || step.TaskID != "tm" || step.Finish != nil || step.Notes[0].Text != "tasks/cancel sent for task tm: the call ends when the task does (cancellation is cooperative)" {
		t.Fatalf("modern cancel %+v", step)
	}
	step, ok = ts.CancelCall(2)
	if !ok || !step.Cancel || step.Finish == nil || !errors.Is(step.Finish.Err, context.Canceled) || step.Notes[0].Text != "tasks/cancel sent for task tl" {
		t.Fatalf("legacy cancel %+v", step)
	}
	if _, ok := ts.CancelCall(3); ok {
		t.Fatal("a plain call is a task's")
	}
	step = ts.CancelAnswered("tm", &mcpclient.Task{TaskID: "tm", Status: "cancelled", ResultType: "complete"}, nil, t0)
	if step.Notes[0].Text != "tasks/cancel tm accepted" || step.Finish == nil || step.Finish.Err == nil {
		t.Fatalf("cancel answered %+v", step)
	}
	if step = ts.CancelAnswered("x", nil, errors.New("nope"), t0); step.Notes[0] != (Note{Error, "tasks/cancel x failed: nope"}) {
		t.Fatal(step.Notes)
	}
}

// A 2025-11-25 task is polled until it ends, then its result is fetched and ends the call.
func TestLegacyTaskFollow(t *testing.T) {
	ts := NewTasks(context.Background(), &sent{}, ClientFeatures{})
	e, step := ts.Created(4, "research", mcpclient.Task{TaskID: "L1", Status: "working", PollInterval: ptr(int64(2000))}, nil, t0)
	if e.Modern || step.PollAfter != 2*time.Second || step.FetchResult {
		t.Fatalf("created %+v", step)
	}
	if !ts.PollDue("L1") {
		t.Fatal("poll")
	}
	n := ts.GetFailed("L1", errors.New("timeout"), true)
	if n != (Note{Error, "tasks/get L1 failed: timeout · polling stopped (a tasks/get of the task starts it again)"}) || !e.Stalled() || ts.PollDue("L1") {
		t.Fatalf("failed poll %+v stalled %v", n, e.Stalled())
	}
	// A tasks/get that works again resumes following.
	_, step = ts.Status(mcpclient.Task{TaskID: "L1", Status: "completed"}, false, t0)
	if e.Stalled() || !step.FetchResult || !e.Fetching {
		t.Fatalf("completed %+v", step)
	}
	resp := &mcpclient.Response{Msg: &mcpclient.Message{Result: json.RawMessage(`{"content":[{"type":"text","text":"42"}]}`)}}
	_, step = ts.ResultArrived("L1", resp, nil)
	if step.Finish == nil || step.Finish.CallID != 4 || step.Finish.Res.Content[0].Text != "42" || step.Get || e.Fetching || e.Result != resp {
		t.Fatalf("result %+v", step)
	}
	// A result that is not a CallToolResult, of a task whose status is not terminal.
	e2, _ := ts.Created(5, "x", mcpclient.Task{TaskID: "L2", Status: "input_required"}, nil, t0)
	if !e2.Fetching {
		t.Fatal("input_required task: tasks/result not fetched")
	}
	_, step = ts.ResultArrived("L2", &mcpclient.Response{Msg: &mcpclient.Message{Result: json.RawMessage(`[]`)}}, nil)
	if step.Finish == nil || !strings.HasPrefix(step.Finish.Err.Error(), "tasks/result is not a CallToolResult: ") || !step.Get {
		t.Fatalf("bad result %+v", step)
	}
	_, step = ts.ResultArrived("L2", nil, errors.New("gone"))
	if step.Notes[0] != (Note{Error, "tasks/result L2 failed: gone"}) {
		t.Fatal(step.Notes)
	}
	ts.StartResult("L2")
	if !e2.Fetching || e2.Err != nil {
		t.Fatal("StartResult")
	}
}

// When the server dies, every task stops being followed and a call still running as a
// task ends with the death, naming the task.
func TestTaskCallEndsWhenTheServerDies(t *testing.T) {
	ts := NewTasks(context.Background(), &sent{}, ClientFeatures{})
	_, step := ts.Created(1, "task_slow", modernTask("t9", "working"), &mcpclient.Response{Seq: 4}, t0)
	listen := step.ListenCtx
	ts.Created(2, "legacy", mcpclient.Task{TaskID: "L9", Status: "working"}, nil, t0)
	ts.Upsert(mcpclient.Task{TaskID: "done", Status: "completed"}, t0)
	steps, changed := ts.ServerGone(&mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 9, ExitCode: -1, Signal: "killed"}, []string{"boom"}, func(id int) bool { return id == 1 })
	if !changed || len(steps) != 1 || listen.Err() == nil {
		t.Fatalf("steps %+v changed %v", steps, changed)
	}
	f := steps[0].Finish
	var died *TaskDiedError
	var exit *mcpclient.ExitError
	if f == nil || f.CallID != 1 || !errors.As(f.Err, &died) || !errors.As(f.Err, &exit) || exit.Pending != "task t9 of tools/call task_slow" ||
		!strings.Contains(f.Err.Error(), "while task t9 of tools/call task_slow was running; last stderr: boom") {
		t.Fatalf("finish %+v", f)
	}
	for _, id := range []string{"t9", "L9"} {
		if e := ts.Get(id); !e.Stalled() || e.Polling || e.Listening || ts.PollDue(id) {
			t.Errorf("task %s still followed: %+v", id, e)
		}
	}
	if ts.Get("done").Stalled() {
		t.Error("a finished task stalls")
	}
	if n := ts.ListenEnded("t9", exit); n != nil {
		t.Errorf("listen end at the death noted: %+v", n)
	}
	if n := ts.ListenEnded("t9", errors.New("reset")); n == nil || n.Text != "subscriptions/listen for task t9 ended: reset (tasks/get polling goes on)" {
		t.Errorf("listen end %+v", n)
	}
}

// A session that cannot send shows tasks without following them.
func TestTasksWithoutSending(t *testing.T) {
	ts := NewTasks(context.Background(), nil, ClientFeatures{})
	_, step := ts.Created(1, "x", modernTask("t", "working"), nil, t0)
	if step.ListenCtx != nil || step.PollAfter != 0 || ts.PollDue("t") {
		t.Fatalf("step %+v", step)
	}
	if _, ok := ts.CancelCall(1); ok {
		t.Fatal("cancel without sending")
	}
	ts.StopAll()
}

func TestTaskHelpers(t *testing.T) {
	if tk, ok := TaskFromNotification(json.RawMessage(`{"taskId":"a","status":"working"}`)); !ok || tk.TaskID != "a" {
		t.Fatal("TaskFromNotification")
	}
	if _, ok := TaskFromNotification(json.RawMessage(`{}`)); ok {
		t.Fatal("no taskId")
	}
	if !TaskCapList(json.RawMessage(`{"list":{}}`)) || TaskCapList(json.RawMessage(`{}`)) || TaskCapList(nil) {
		t.Fatal("TaskCapList")
	}
	if !TaskRequired(&mcpclient.Tool{Execution: json.RawMessage(`{"taskSupport":"required"}`)}) || TaskRequired(&mcpclient.Tool{}) || TaskRequired(nil) {
		t.Fatal("TaskRequired")
	}
}
