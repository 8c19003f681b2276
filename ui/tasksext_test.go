package ui

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// The modern tasks extension (io.modelcontextprotocol/tasks) through the TUI model, on the
// real client and the fake server's "tasks" scenario.

// wireLog keeps the client's frames (method and raw line) for assertions.
type wireLog struct {
	mu  sync.Mutex
	evs []mcpclient.Event
	// grew holds a token once a frame was added since settled last looked (capacity 1).
	grew chan struct{}
}

func newWireLog() *wireLog { return &wireLog{grew: make(chan struct{}, 1)} }

func (w *wireLog) add(ev mcpclient.Event) {
	w.mu.Lock()
	w.evs = append(w.evs, ev)
	w.mu.Unlock()
	select {
	case w.grew <- struct{}{}:
	default:
	}
}

// find returns the raw frames in direction dir whose method is method.
func (w *wireLog) find(dir mcpclient.Direction, method string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, ev := range w.evs {
		if ev.Dir == dir && ev.Msg != nil && ev.Msg.Method == method {
			out = append(out, string(ev.Raw))
		}
	}
	return out
}

// settled waits until the frames of dir and method satisfy ok (Config.OnEvent runs on its
// own goroutine, so the log may trail the model by a moment) and returns them; it fails
// the test when they do not within 10 s.
func (w *wireLog) settled(t *testing.T, dir mcpclient.Direction, method string, ok func([]string) bool) []string {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		got := w.find(dir, method)
		if ok(got) {
			return got
		}
		select {
		case <-w.grew:
		case <-deadline.C:
			t.Fatalf("%s %s frames after 10 s: %q", dir, method, w.find(dir, method))
		}
	}
}

func startTasksLive(t *testing.T, pollMS string, opts Options) (*live, *wireLog) {
	t.Helper()
	w := newWireLog()
	l := startLive(t, []string{fake.Binary(t), "--scenario", "tasks"}, mcpclient.Config{Era: mcpclient.EraModern, OnEvent: w.add,
		Env: []string{"FAKE_TASK_STEP_MS=150", "FAKE_TASK_POLL_MS=" + pollMS, "FAKE_TASK_SLOW_MS=600000"}}, opts)
	l.until("tools", func() bool { return len(l.m.tools.tools) == 4 }, 20*time.Second)
	return l, w
}

// sendTool calls a tool without arguments through its form and returns the call.
func (l *live) sendTool(name string) *callRun {
	l.t.Helper()
	l.selectTool(name)
	l.key("enter", "ctrl+s")
	run := l.m.call.run
	if run == nil || l.m.call.form != nil || run.tool != name {
		l.t.Fatalf("%s was not sent\n%s", name, view(l.m))
	}
	return run
}

func TestModernTaskCallInputRequired(t *testing.T) {
	l, w := startTasksLive(t, "100", Options{})
	run := l.sendTool("task_greet")
	l.until("the task", func() bool { return run.task != nil }, 20*time.Second)
	if run.done {
		t.Fatalf("a CreateTaskResult finished the call: %+v", run)
	}
	id := run.task.TaskID
	l.key("2")
	mustContain(t, "call running as a task", view(l.m), "running as task "+id, "ctrl+x sends tasks/cancel")

	l.until("the input dialog", func() bool { return len(l.m.overlay.requests) > 0 }, 20*time.Second)
	mustContain(t, "dialog", view(l.m), "elicitation/create (form)", "Please enter your name.", "tools/call task_greet")
	// The server repeats the outstanding request on every poll (100 ms): still one dialog
	// after three more.
	polls := len(w.find(mcpclient.ClientToServer, "tasks/get"))
	l.until("three more polls", func() bool { return len(w.find(mcpclient.ClientToServer, "tasks/get")) >= polls+3 }, 20*time.Second)
	if len(l.m.overlay.requests) != 1 || run.done {
		t.Fatalf("%d dialogs after repeated polls (done %v)", len(l.m.overlay.requests), run.done)
	}
	e := l.m.tasks.all.Get(id)
	if e == nil || !e.Modern || e.Task.Status != "input_required" || !e.Asked["name"] {
		t.Fatalf("tasks pane entry: %+v", e)
	}
	l.typeText("Ada")
	l.key("ctrl+s")
	// "Hello, Ada!" can only come from the server after tasks/update carried the answer.
	l.until("the task's end", func() bool { return run.done }, 20*time.Second)
	if run.err != nil || resultText(run) != "Hello, Ada!" {
		t.Fatalf("call result %q, err %v", resultText(run), run.err)
	}
	l.key("2")
	mustContain(t, "finished call", view(l.m), "Hello, Ada!", "ran as task "+id+" (completed)")
	l.key("8")
	mustContain(t, "tasks pane", view(l.m), "task_greet "+id, "status:   ✓ completed", "ttl:      600000 ms", "poll:     every 100 ms (pollIntervalMs)", "result (inline)", `"text": "Hello, Ada!"`)
	// t has no tasks/result in the extension; it says so instead of sending one.
	l.key("t")
	mustContain(t, "no tasks/result", view(l.m), "the tasks extension has no tasks/result")
	if e.Fetching || len(w.find(mcpclient.ClientToServer, "tasks/result")) != 0 {
		t.Error("t sent tasks/result for a modern task")
	}
	l.keyDone("r")
	mustContain(t, "no tasks/list", view(l.m), "has no tasks/list")
	if got := w.find(mcpclient.ClientToServer, "tasks/list"); len(got) != 0 {
		t.Errorf("r sent tasks/list to a modern server: %q", got)
	}
	ups := w.settled(t, mcpclient.ClientToServer, "tasks/update", func(f []string) bool { return len(f) > 0 })
	if len(ups) != 1 || !strings.Contains(ups[0], `"params":{"inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}},"taskId":"`+id+`"`) {
		t.Errorf("tasks/update on the wire: %q", ups)
	}
}

// With polling every minute, the task's end can only arrive through notifications/tasks on
// the subscriptions/listen stream opened with its taskIds.
func TestModernTaskNotificationEndsTheCall(t *testing.T) {
	l, w := startTasksLive(t, "60000", Options{})
	l.key("4")
	mustContain(t, "server pane", view(l.m), "extensions: io.modelcontextprotocol/tasks")
	run := l.sendTool("task_fail")
	l.until("the failed task", func() bool { return run.done }, 20*time.Second)
	var rpc *mcpclient.RPCError
	if !errors.As(run.err, &rpc) || rpc.Code != -32603 || rpc.Message != "API rate limit exceeded" {
		t.Fatalf("call err = %v, want the task's inline -32603", run.err)
	}
	id := run.task.TaskID
	if e := l.m.tasks.all.Get(id); e == nil || e.Task.Status != "failed" {
		t.Fatalf("entry %+v", e)
	}
	listens := w.settled(t, mcpclient.ClientToServer, "subscriptions/listen", func(f []string) bool { return len(f) > 0 })
	if len(listens) != 1 || !strings.Contains(listens[0], `"notifications":{"taskIds":["`+id+`"]}`) {
		t.Errorf("subscriptions/listen on the wire: %q", listens)
	}
	if len(w.find(mcpclient.ClientToServer, "tasks/get")) != 0 {
		t.Error("polled although pollIntervalMs is a minute")
	}
	notes := w.settled(t, mcpclient.ServerToClient, "notifications/tasks", func(f []string) bool {
		return len(f) > 0 && strings.Contains(f[len(f)-1], `"status":"failed"`)
	})
	if len(notes) == 0 || !strings.Contains(notes[len(notes)-1], `"status":"failed"`) {
		t.Errorf("notifications/tasks: %q", notes)
	}
	l.key("2")
	mustContain(t, "failed call", view(l.m), "API rate limit exceeded")
	l.key("7")
	mustContain(t, "log notice", view(l.m), "notifications/tasks "+run.task.TaskID+" failed")
}

// x in the Tasks pane sends tasks/cancel; the call ends when the task does (cancellation is
// cooperative), with the task's cancelled status.
func TestModernTaskCancelFromPane(t *testing.T) {
	l, _ := startTasksLive(t, "100", Options{})
	run := l.sendTool("task_slow")
	l.until("the task", func() bool { return run.task != nil }, 20*time.Second)
	l.key("8")
	if it := l.m.tasks.selected(); it == nil || it.Task.TaskID != run.task.TaskID {
		t.Fatalf("the Tasks pane does not select the task\n%s", view(l.m))
	}
	l.key("x")
	l.until("the cancelled task", func() bool { return run.done }, 20*time.Second)
	var ce *mcpclient.TaskCancelledError
	if !errors.As(run.err, &ce) || ce.TaskID != run.task.TaskID {
		t.Fatalf("call err = %v", run.err)
	}
	mustContain(t, "tasks pane", view(l.m), "status:   ⊘ cancelled", "was cancelled: cancelled by tasks/cancel")
	if run.elapsed <= 0 || !strings.Contains(l.m.call.callState(run, time.Now()), "task cancelled") {
		t.Errorf("call state %q", l.m.call.callState(run, time.Now()))
	}
	// The ack may come after the notification that the task is cancelled.
	l.key("7")
	l.until("the tasks/cancel ack in the log", func() bool {
		return strings.Contains(view(l.m), "tasks/cancel "+run.task.TaskID+" accepted")
	}, 10*time.Second)
}

// --no-tasks: the extension is not declared, so the well-behaved server refuses the task tool
// with -32021 and the call shows it.
func TestModernNoTasksFeature(t *testing.T) {
	l, w := startTasksLive(t, "100", Options{Features: session.ClientFeatures{NoTasks: true}})
	run := l.sendTool("task_greet")
	l.until("the refusal", func() bool { return run.done }, 20*time.Second)
	var rpc *mcpclient.RPCError
	if !errors.As(run.err, &rpc) || rpc.Code != -32021 || !strings.Contains(string(rpc.Data), mcpclient.TasksExtension) {
		t.Fatalf("call err = %v", run.err)
	}
	if run.task != nil || len(l.m.tasks.all.Order()) != 0 {
		t.Fatal("a task appeared without the extension")
	}
	calls := w.settled(t, mcpclient.ClientToServer, "tools/call", func(f []string) bool { return len(f) > 0 })
	if len(calls) != 1 {
		t.Fatalf("%d tools/call on the wire", len(calls))
	}
	l.key("4")
	if strings.Contains(view(l.m), "extensions: "+mcpclient.TasksExtension) {
		t.Error("the Server pane claims the extension under --no-tasks")
	}
	for _, f := range calls {
		if strings.Contains(f, mcpclient.TasksExtension) {
			t.Errorf("--no-tasks still declares the extension: %s", f)
		}
	}
}

// ctrl+x on a call running as a modern task sends tasks/cancel, never notifications/cancelled
// (ext-tasks §Task Cancellation), and the call waits for the task's end.
func TestModernTaskCancelFromCall(t *testing.T) {
	l, w := startTasksLive(t, "100", Options{})
	run := l.sendTool("task_slow")
	l.until("the task", func() bool { return run.task != nil }, 20*time.Second)
	l.key("2", "ctrl+x")
	if run.done {
		t.Fatal("ctrl+x ended the call before the task ended")
	}
	l.until("the cancelled task", func() bool { return run.done }, 20*time.Second)
	var ce *mcpclient.TaskCancelledError
	if !errors.As(run.err, &ce) {
		t.Fatalf("call err = %v", run.err)
	}
	mustContain(t, "call", view(l.m), "the task reached the cancelled status")
	if st := l.m.call.callState(run, time.Now()); st != "✗ task cancelled" {
		t.Errorf("call state %q", st)
	}
	if got := w.settled(t, mcpclient.ClientToServer, "tasks/cancel", func(f []string) bool { return len(f) > 0 }); len(got) != 1 {
		t.Errorf("%d tasks/cancel", len(got))
	}
	for _, f := range w.find(mcpclient.ClientToServer, "notifications/cancelled") {
		if !strings.Contains(f, `"requestId":`) {
			continue
		}
		// Only the task's listen stream may be closed that way, never the tools/call.
		if calls := w.find(mcpclient.ClientToServer, "tools/call"); len(calls) == 1 && strings.Contains(f, `"requestId":`+requestID(calls[0])+`,`) {
			t.Errorf("the tools/call was cancelled with notifications/cancelled: %s", f)
		}
	}
}

// requestID is the id of a raw request frame, as JSON text.
func requestID(raw string) string {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal([]byte(raw), &m)
	return string(m.ID)
}
