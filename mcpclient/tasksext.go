package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// The modern tasks extension, io.modelcontextprotocol/tasks (repository
// modelcontextprotocol/ext-tasks, specification/draft/tasks.md and schema/draft/schema.ts).
// A client that declares the extension in its per-request capabilities may get a
// CreateTaskResult (resultType "task", the Task fields flat in the result) instead of the
// request's normal result; it then polls tasks/get, whose terminal states carry the result or
// the JSON-RPC error inline, answers input_required tasks with tasks/update, may cancel with
// tasks/cancel (cooperative), and may receive notifications/tasks on a subscriptions/listen
// stream that names the task in taskIds. There is no tasks/list and no tasks/result.

// TasksExtension is the extension's identifier, the key under capabilities.extensions
// (ext-tasks §Extension Identifier).
const TasksExtension = "io.modelcontextprotocol/tasks"

// DefaultTaskPoll is how often a task is polled when the server gives no pollIntervalMs;
// MinTaskPoll bounds a server's pollIntervalMs from below so a 0 cannot spin.
const (
	DefaultTaskPoll = time.Second
	MinTaskPoll     = 50 * time.Millisecond
)

// modernCapsLocked is the clientCapabilities object of every modern request:
// Config.Capabilities plus extensions[TasksExtension] = {} unless Config.NoTasksExtension
// (ext-tasks §Capability Negotiation: "an empty object indicates support").
func (c *Client) modernCapsLocked() json.RawMessage {
	if c.modernCaps == nil {
		c.modernCaps = c.cfg.Capabilities
		if !c.cfg.NoTasksExtension {
			c.modernCaps = withExtension(c.cfg.Capabilities, TasksExtension)
		}
	}
	return c.modernCaps
}

// withExtension adds extensions[id] = {} to a capabilities object (kept as given when it is
// not an object).
func withExtension(caps json.RawMessage, id string) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(caps, &obj) != nil || obj == nil {
		obj = map[string]json.RawMessage{}
	}
	ext := map[string]json.RawMessage{}
	if raw, ok := obj["extensions"]; ok {
		_ = json.Unmarshal(raw, &ext)
		if ext == nil {
			ext = map[string]json.RawMessage{}
		}
	}
	if _, ok := ext[id]; !ok {
		ext[id] = json.RawMessage(`{}`)
	}
	obj["extensions"], _ = json.Marshal(ext)
	b, err := json.Marshal(obj)
	if err != nil {
		return caps
	}
	return b
}

// DeclaresTasks reports whether modern requests of this client declare the tasks extension.
func (c *Client) DeclaresTasks() bool { return !c.cfg.NoTasksExtension }

// Modern reports whether t came from the modern extension (a CreateTaskResult, a tasks/get
// answer with resultType, or one with ttlMs/pollIntervalMs) rather than 2025-11-25 tasks.
func (t Task) Modern() bool {
	return t.ResultType != "" || t.TTLMs != nil || t.PollIntervalMs != nil
}

// PollEvery is how long to wait before the next tasks/get: the server's pollIntervalMs
// (modern) or pollInterval (2025-11-25), at least MinTaskPoll, DefaultTaskPoll when absent
// (ext-tasks §Task Polling: clients SHOULD respect pollIntervalMs).
func (t Task) PollEvery() time.Duration {
	d := DefaultTaskPoll
	switch {
	case t.PollIntervalMs != nil && *t.PollIntervalMs > 0:
		d = time.Duration(*t.PollIntervalMs) * time.Millisecond
	case t.PollInterval != nil && *t.PollInterval > 0:
		d = time.Duration(*t.PollInterval) * time.Millisecond
	}
	return max(d, MinTaskPoll)
}

// Outcome is a terminal modern task's end: the inline result (completed, which includes a
// tool result with isError), the inline JSON-RPC error as *RPCError (failed), or a
// *TaskCancelledError (cancelled). For a task that is not terminal it returns an error saying
// so.
func (t Task) Outcome() (json.RawMessage, error) {
	switch t.Status {
	case "completed":
		if len(t.Result) == 0 {
			return nil, fmt.Errorf("task %s is completed but its tasks/get answer has no result (ext-tasks §Task Polling: it MUST)", t.TaskID)
		}
		return t.Result, nil
	case "failed":
		if t.Error == nil {
			return nil, fmt.Errorf("task %s failed without an error object (ext-tasks §Task Execution Errors: it MUST include one): %s", t.TaskID, t.StatusMessage)
		}
		return nil, t.Error
	case "cancelled":
		return nil, &TaskCancelledError{TaskID: t.TaskID, Message: t.StatusMessage}
	}
	return nil, fmt.Errorf("task %s is %s, not finished", t.TaskID, t.Status)
}

// TaskCancelledError is the end of a task that reached the cancelled status.
type TaskCancelledError struct {
	TaskID  string
	Message string
}

func (e *TaskCancelledError) Error() string {
	s := "task " + e.TaskID + " was cancelled"
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// ParseCreateTask reports whether result is a CreateTaskResult (resultType "task", ext-tasks
// §Polymorphic Results) and decodes its Task fields. A result that says "task" without a
// taskId, or with a member of the wrong type, is still reported (ok true) with an error, so it
// is never taken for a final result.
func ParseCreateTask(result json.RawMessage) (*Task, bool, error) {
	if !MayBeTask(result) {
		return nil, false, nil
	}
	var t Task
	if err := json.Unmarshal(result, &t); err != nil {
		// Said "task" but a member has the wrong type: still never a final result.
		var r struct {
			ResultType string `json:"resultType"`
		}
		if json.Unmarshal(result, &r) == nil && r.ResultType == "task" {
			return &Task{ResultType: "task"}, true, fmt.Errorf(`the result has resultType "task" but is not a valid task: %w`, err)
		}
		return nil, false, nil
	}
	if t.ResultType != "task" {
		return nil, false, nil
	}
	if t.TaskID == "" {
		return &t, true, errors.New(`the result has resultType "task" but no taskId`)
	}
	return &t, true, nil
}

// ParseTaskNotification decodes notifications/tasks (ext-tasks §Task Status Notifications:
// the params are a complete DetailedTask); ok is false for any other message.
func ParseTaskNotification(m *Message) (*Task, bool) {
	if m == nil || m.Method != "notifications/tasks" {
		return nil, false
	}
	var t Task
	if json.Unmarshal(m.Params, &t) != nil || t.TaskID == "" {
		return nil, false
	}
	return &t, true
}

// PollTask sends tasks/get (ext-tasks §Task Polling) and returns the DetailedTask with the
// response (whose Seq input dialogs refer to). Errors: *RPCError (-32602 for an unknown or
// expired task), and those of Request.
func (c *Client) PollTask(ctx context.Context, id string) (*Task, *Response, error) {
	resp, err := c.Request(ctx, "tasks/get", map[string]string{"taskId": id}, &RequestOptions{NoProgressToken: true})
	if err != nil {
		return nil, resp, err
	}
	var t Task
	if err := json.Unmarshal(resp.Msg.Result, &t); err != nil {
		return nil, resp, fmt.Errorf("tasks/get result is not a task: %w", err)
	}
	if t.TaskID == "" {
		t.TaskID = id
	}
	return &t, resp, nil
}

// UpdateTask sends tasks/update {taskId, inputResponses} (ext-tasks §Task Update Requests):
// answers, keyed like the task's inputRequests, to some or all of the outstanding requests.
// The server's acknowledgement is empty and eventually consistent.
func (c *Client) UpdateTask(ctx context.Context, id string, responses map[string]json.RawMessage) (*Response, error) {
	params := struct {
		TaskID         string                     `json:"taskId"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}{id, responses}
	return c.Request(ctx, "tasks/update", params, &RequestOptions{NoProgressToken: true})
}

// ListenTasks opens a subscriptions/listen stream for notifications/tasks of the given
// tasks (ext-tasks §Task Status Notifications: the filter field taskIds). Like Listen, it
// returns when the stream ends or ctx is cancelled.
func (c *Client) ListenTasks(ctx context.Context, ids []string) (*Response, error) {
	return c.Listen(ctx, ListenFilter{TaskIDs: ids})
}

// declaresTasksExt reports whether a modern request's clientCapabilities (already decoded
// to its members) declare the tasks extension.
func declaresTasksExt(caps map[string]json.RawMessage) bool {
	raw, ok := caps["extensions"]
	if !ok {
		return false
	}
	var ext map[string]json.RawMessage
	if json.Unmarshal(raw, &ext) != nil {
		return false
	}
	_, ok = ext[TasksExtension]
	return ok
}

// taskResultProblems checks a modern response for a CreateTaskResult the request did not
// allow (ext-tasks §Capability Negotiation and §Supported Methods): one sent to a request
// that did not declare the extension, or to a method tasks do not cover (only tools/call;
// tasks/get answers carry resultType "complete").
func taskResultProblems(ev *Event, method string, declared bool) {
	if ev.Kind != KindResponse || ev.Msg == nil || !MayBeTask(ev.Msg.Result) {
		return
	}
	var r struct {
		ResultType string `json:"resultType"`
	}
	if json.Unmarshal(ev.Msg.Result, &r) != nil || r.ResultType != "task" {
		return
	}
	if !declared {
		ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeTaskNotDeclared,
			Text: method + ` answered with a task (resultType "task") though the request did not declare the ` + TasksExtension + " extension (ext-tasks §Capability Negotiation: MUST NOT)"})
		return
	}
	if method != "tools/call" {
		ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeTaskUnsupportedMethod,
			Text: method + ` answered with resultType "task": the tasks extension covers only tools/call, so this is an invalid response (ext-tasks §Supported Methods)`})
	}
}

// MayBeTask is a quick scan of a result for a "resultType" member whose value is "task"
// (ext-tasks CreateTaskResult), so a large ordinary result is not decoded a second time; a
// hit is confirmed by decoding (ParseCreateTask).
func MayBeTask(b []byte) bool {
	key := []byte(`"resultType"`)
	for {
		i := bytes.Index(b, key)
		if i < 0 {
			return false
		}
		b = bytes.TrimLeft(b[i+len(key):], " \t\r\n")
		if len(b) > 0 && b[0] == ':' {
			if bytes.HasPrefix(bytes.TrimLeft(b[1:], " \t\r\n"), []byte(`"task"`)) {
				return true
			}
		}
	}
}

// TaskCancelWait bounds the tasks/cancel a task follower sends when it gives a task up (the
// session package's): the caller is leaving (a timeout, an interrupt) and must not wait long
// for a courtesy.
const TaskCancelWait = 2 * time.Second

// TaskStoppedError is a task that the client stopped following before it ended: Err is a
// *TimeoutError (no end within Config.Timeout) or the context's error (an interrupt).
// tasks/cancel was then sent (ext-tasks §Task Cancellation); CancelErr is nil when the
// server accepted it. The task may still be running on the server: cancellation is
// cooperative.
type TaskStoppedError struct {
	TaskID    string
	Status    string // the last status seen, e.g. working
	CancelErr error
	Err       error
}

func (e *TaskStoppedError) Error() string {
	s := "task " + e.TaskID + " was still " + e.Status
	if e.CancelErr != nil {
		s += "; tasks/cancel failed: " + e.CancelErr.Error()
	} else {
		s += "; tasks/cancel sent"
	}
	var te *TimeoutError
	if errors.As(e.Err, &te) {
		// The requests were answered; the task's result is what did not come.
		what := te.timeoutWhat()
		if te.Max {
			what = "overall maximum reached"
		}
		return fmt.Sprintf("%s: no result after %s (%s): %s", te.Request, te.After.Round(time.Millisecond), what, s)
	}
	return s + ": " + e.Err.Error()
}

func (e *TaskStoppedError) Unwrap() error { return e.Err }

// AskInput puts one input request of a task (or of an input_required result) to
// Config.OnServerRequest, as a multi round-trip request is put (ServerRequest.Seq is seq,
// InputKey key), and waits for the answer: the result to send back, or an *InputError when
// it was refused or nobody handles server requests (ext-tasks §Task Update Requests).
func (c *Client) AskInput(ctx context.Context, seq uint64, key string, req InputRequest) (json.RawMessage, error) {
	answers, err := c.answerInputs(ctx, seq, &InputRequired{Requests: map[string]InputRequest{key: req}, Order: []string{key}})
	if err != nil {
		return nil, err
	}
	return answers[key], nil
}

// Timeouts are the client's request bounds (Config.Timeout, Config.MaxTimeout and what
// set the first, Config.TimeoutFrom): a task follower bounds a task's life the same way.
func (c *Client) Timeouts() (idle, maxTotal time.Duration, from string) {
	return c.cfg.Timeout, c.cfg.MaxTimeout, c.cfg.TimeoutFrom
}

// TaskAnswerError is a tools/call answered with a task (ext-tasks CreateTaskResult) given to
// Client.CallTool, which does not follow tasks: session.CallTool does.
type TaskAnswerError struct {
	Task *Task
}

func (e *TaskAnswerError) Error() string {
	return "tools/call was answered with task " + e.Task.TaskID + " (" + e.Task.Status + "); this caller does not follow tasks"
}
