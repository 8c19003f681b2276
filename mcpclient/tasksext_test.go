package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	msession "github.com/mcp-inspect/mcp-inspect/session"
)

// The modern tasks extension (io.modelcontextprotocol/tasks) against the fake server's
// "tasks" scenarios (internal/fake/fakeserver/scenarios_tasks.go).

// taskAsker answers the task's input requests (an elicitation for the name) and counts them.
type taskAsker struct {
	mu    sync.Mutex
	asked []string // InputKey of each request
}

func (a *taskAsker) handle(r *mcpclient.ServerRequest) {
	a.mu.Lock()
	a.asked = append(a.asked, r.Method+" "+r.InputKey)
	a.mu.Unlock()
	if r.Method != "elicitation/create" {
		r.Fail(&mcpclient.RPCError{Code: -32601, Message: "not in this test"})
		return
	}
	r.Respond(json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`))
}

func startTasks(t *testing.T, scenario string, mod func(*mcpclient.Config)) (*session, *taskAsker) {
	t.Helper()
	a := &taskAsker{}
	s := startFake(t, scenario, func(c *mcpclient.Config) {
		c.Era = mcpclient.EraModern
		c.Capabilities = json.RawMessage(`{"elicitation":{"form":{}}}`)
		c.Env = []string{"FAKE_TASK_STEP_MS=50", "FAKE_TASK_POLL_MS=60", "FAKE_TASK_SLOW_MS=600000"}
		c.OnServerRequest = a.handle
		if mod != nil {
			mod(c)
		}
	})
	if _, err := s.c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, a
}

// createTask calls a tool and returns the task its CreateTaskResult describes.
func createTask(t *testing.T, c *mcpclient.Client, tool string) (*mcpclient.Task, *mcpclient.Response) {
	t.Helper()
	resp, err := c.Request(context.Background(), "tools/call", map[string]any{"name": tool, "arguments": map[string]any{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	task, ok, err := mcpclient.ParseCreateTask(resp.Msg.Result)
	if !ok || err != nil {
		t.Fatalf("tools/call %s: not a CreateTaskResult (%v): %s", tool, err, resp.Msg.Result)
	}
	return task, resp
}

func wireRequests(evs []mcpclient.Event, method string) []mcpclient.Event {
	var out []mcpclient.Event
	for _, ev := range evs {
		if ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindRequest && ev.Msg.Method == method {
			out = append(out, ev)
		}
	}
	return out
}

func TestTasksExtGreetInputRequiredToCompleted(t *testing.T) {
	s, asker := startTasks(t, "tasks", nil)
	task, _ := createTask(t, s.c, "task_greet")
	if task.Status != "working" || task.TTLMs == nil || *task.TTLMs != 600000 || task.PollIntervalMs == nil || *task.PollIntervalMs != 60 || task.CreatedAt == "" {
		t.Fatalf("created task = %+v", task)
	}
	if got := task.PollEvery(); got != 60*time.Millisecond {
		t.Errorf("PollEvery = %v, want the server's 60ms", got)
	}
	var seen []string
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	end, err := msession.AwaitTask(ctx, s.c, task, nil, msession.FollowOptions{OnUpdate: func(t mcpclient.Task) {
		if len(seen) == 0 || seen[len(seen)-1] != t.Status {
			seen = append(seen, t.Status)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	// working → input_required → (working, unless the polls miss it) → completed.
	if got := strings.Join(seen, ">"); got != "working>input_required>working>completed" && got != "working>input_required>completed" {
		t.Errorf("states = %v, want working>input_required>working>completed", seen)
	}
	res, err := end.Outcome()
	if err != nil {
		t.Fatal(err)
	}
	var ctr mcpclient.CallToolResult
	if err := json.Unmarshal(res, &ctr); err != nil || len(ctr.Content) != 1 || ctr.Content[0].Text != "Hello, Ada!" {
		t.Fatalf("inline result = %s (%v)", res, err)
	}
	asker.mu.Lock()
	asked := append([]string(nil), asker.asked...)
	asker.mu.Unlock()
	// The server repeats inputRequests on every poll until answered; the user is asked once.
	if len(asked) != 1 || asked[0] != "elicitation/create name" {
		t.Errorf("asked = %v, want the one elicitation under key name", asked)
	}
	evs := s.events(t)
	calls := wireRequests(evs, "tools/call")
	if len(calls) != 1 || !strings.Contains(string(calls[0].Msg.Params), `"extensions":{"io.modelcontextprotocol/tasks":{}}`) {
		t.Errorf("tools/call does not declare the extension in _meta clientCapabilities: %s", calls[0].Msg.Params)
	}
	ups := wireRequests(evs, "tasks/update")
	if len(ups) != 1 {
		t.Fatalf("%d tasks/update, want 1", len(ups))
	}
	var up struct {
		TaskID         string                     `json:"taskId"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	_ = json.Unmarshal(ups[0].Msg.Params, &up)
	if up.TaskID != task.TaskID || string(up.InputResponses["name"]) != `{"action":"accept","content":{"name":"Ada"}}` {
		t.Errorf("tasks/update params = %s", ups[0].Msg.Params)
	}
	if len(wireRequests(evs, "tasks/get")) < 3 {
		t.Errorf("only %d tasks/get polls", len(wireRequests(evs, "tasks/get")))
	}
	for _, ev := range evs {
		for _, p := range ev.Problems {
			if p.Severity == mcpclient.Warning {
				t.Errorf("event #%d %s: unexpected problem %s: %s", ev.Seq, ev.Method, p.Code, p.Text)
			}
		}
	}
}

func TestTasksExtFailedCarriesTheError(t *testing.T) {
	s, _ := startTasks(t, "tasks", nil)
	task, _ := createTask(t, s.c, "task_fail")
	end, err := msession.AwaitTask(context.Background(), s.c, task, nil, msession.FollowOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if end.Status != "failed" || !strings.Contains(end.StatusMessage, "rate limit") {
		t.Fatalf("end = %+v", end)
	}
	_, err = end.Outcome()
	var rpc *mcpclient.RPCError
	if !errors.As(err, &rpc) || rpc.Code != -32603 || rpc.Message != "API rate limit exceeded" {
		t.Fatalf("Outcome error = %v, want the inline -32603", err)
	}
	// CallTool follows the task and returns the same error.
	_, resp, err := msession.CallTool(context.Background(), s.c, "task_fail", json.RawMessage(`{}`), msession.FollowOptions{})
	if !errors.As(err, &rpc) || rpc.Code != -32603 || resp == nil {
		t.Fatalf("CallTool on a failing task: %v", err)
	}
}

func TestTasksExtCallToolFollowsTheTask(t *testing.T) {
	s, _ := startTasks(t, "tasks", nil)
	res, resp, err := msession.CallTool(context.Background(), s.c, "task_greet", json.RawMessage(`{}`), msession.FollowOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 || res.Content[0].Text != "Hello, Ada!" {
		t.Fatalf("CallTool result = %+v", res)
	}
	// resp surfaces the final result, on the response that created the task.
	if _, ok, _ := mcpclient.ParseCreateTask(resp.Msg.Result); ok || !strings.Contains(string(resp.Msg.Result), "Hello, Ada!") || resp.RequestSeq == 0 {
		t.Errorf("resp = %+v, result %s", resp, resp.Msg.Result)
	}
	// A plain tool of the same server still answers directly.
	if got := callText(t, s.c, "echo", `{"text":"hi"}`); got != "hi" {
		t.Errorf("echo = %q", got)
	}
}

func TestTasksExtCancel(t *testing.T) {
	s, _ := startTasks(t, "tasks", nil)
	task, _ := createTask(t, s.c, "task_slow")
	if _, err := s.c.CancelTask(context.Background(), task.TaskID); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	end, err := msession.AwaitTask(ctx, s.c, task, nil, msession.FollowOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = end.Outcome()
	var ce *mcpclient.TaskCancelledError
	if end.Status != "cancelled" || !errors.As(err, &ce) || ce.TaskID != task.TaskID {
		t.Fatalf("after tasks/cancel: %+v, %v", end, err)
	}
	// An unknown task is -32602.
	_, _, err = s.c.PollTask(context.Background(), "no-such-task")
	var rpc *mcpclient.RPCError
	if !errors.As(err, &rpc) || rpc.Code != -32602 {
		t.Errorf("tasks/get of an unknown task: %v", err)
	}
	evs := s.events(t)
	cancels := wireRequests(evs, "tasks/cancel")
	if len(cancels) != 1 || !strings.Contains(string(cancels[0].Msg.Params), `"taskId":"`+task.TaskID+`"`) {
		t.Errorf("tasks/cancel on the wire: %v", cancels)
	}
	for _, ev := range evs {
		if ev.Dir == mcpclient.ClientToServer && ev.Msg != nil && ev.Msg.Method == "notifications/cancelled" {
			t.Error("notifications/cancelled MUST NOT be used for task cancellation")
		}
	}
}

func TestTasksExtListenNotification(t *testing.T) {
	var mu sync.Mutex
	var got []mcpclient.Event
	arrived := make(chan struct{}, 16)
	s, _ := startTasks(t, "tasks", func(c *mcpclient.Config) {
		c.OnEvent = func(ev mcpclient.Event) {
			if ev.Msg != nil && ev.Dir == mcpclient.ServerToClient && ev.Kind == mcpclient.KindNotification {
				mu.Lock()
				got = append(got, ev)
				mu.Unlock()
				arrived <- struct{}{}
			}
		}
	})
	task, _ := createTask(t, s.c, "task_fail")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan error, 1)
	go func() { _, err := s.c.ListenTasks(ctx, []string{task.TaskID}); ended <- err }()
	var failed *mcpclient.Task
	deadline := time.After(20 * time.Second)
	for failed == nil {
		select {
		case <-arrived:
		case <-deadline:
			t.Fatal("no notifications/tasks with the failed state")
		}
		mu.Lock()
		for _, ev := range got {
			if tk, ok := mcpclient.ParseTaskNotification(ev.Msg); ok && tk.Status == "failed" {
				failed = tk
				if p := problem(ev, "unknown-notification"); p != nil {
					t.Errorf("notifications/tasks flagged: %s", p.Text)
				}
			}
		}
		mu.Unlock()
	}
	if failed.TaskID != task.TaskID || failed.Error == nil || failed.Error.Code != -32603 {
		t.Errorf("notified task = %+v", failed)
	}
	mu.Lock()
	ack := got[0]
	mu.Unlock()
	if ack.Msg.Method != "notifications/subscriptions/acknowledged" || !strings.Contains(string(ack.Msg.Params), `"taskIds":["`+task.TaskID+`"]`) {
		t.Errorf("first notification = %s %s", ack.Msg.Method, ack.Msg.Params)
	}
	cancel()
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("listen ended with %v", err)
	}
	listens := wireRequests(s.events(t), "subscriptions/listen")
	if len(listens) != 1 || !strings.Contains(string(listens[0].Msg.Params), `"notifications":{"taskIds":["`+task.TaskID+`"]}`) {
		t.Errorf("subscriptions/listen params: %v", listens)
	}
}

func TestTasksExtNotDeclared(t *testing.T) {
	t.Run("well-behaved server answers -32021", func(t *testing.T) {
		s, _ := startTasks(t, "tasks", func(c *mcpclient.Config) { c.NoTasksExtension = true })
		_, err := s.c.Request(context.Background(), "tools/call", map[string]any{"name": "task_greet"}, nil)
		var rpc *mcpclient.RPCError
		if !errors.As(err, &rpc) || rpc.Code != -32021 || !strings.Contains(string(rpc.Data), mcpclient.TasksExtension) {
			t.Fatalf("err = %v", err)
		}
		for _, ev := range wireRequests(s.events(t), "tools/call") {
			if strings.Contains(string(ev.Msg.Params), mcpclient.TasksExtension) {
				t.Errorf("NoTasksExtension still declares it: %s", ev.Msg.Params)
			}
		}
	})
	t.Run("a task anyway is a counted violation", func(t *testing.T) {
		s, _ := startTasks(t, "tasks-undeclared", func(c *mcpclient.Config) { c.NoTasksExtension = true })
		createTask(t, s.c, "task_fail")
		var flagged *mcpclient.Problem
		for _, ev := range s.events(t) {
			if ev.Dir == mcpclient.ServerToClient && ev.Method == "tools/call" {
				flagged = problem(ev, "task-not-declared")
			}
		}
		if flagged == nil || flagged.Severity != mcpclient.Warning {
			t.Fatal("the CreateTaskResult to an undeclared request is not flagged")
		}
		if r := mcpclient.Rule(flagged.Code); !strings.Contains(r, "MUST NOT return CreateTaskResult") {
			t.Errorf("rule = %q", r)
		}
	})
	t.Run("strict stops there", func(t *testing.T) {
		s, _ := startTasks(t, "tasks-undeclared", func(c *mcpclient.Config) { c.NoTasksExtension, c.Strict = true, true })
		// The response that breaks the rule is delivered; the session stops right after it.
		_, _ = s.c.Request(context.Background(), "tools/call", map[string]any{"name": "task_fail"}, nil)
		_, err := s.c.Request(context.Background(), "tools/list", nil, nil)
		var v *mcpclient.ViolationError
		if !errors.As(err, &v) || v.Problem.Code != "task-not-declared" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("declared, the same server is fine", func(t *testing.T) {
		s, _ := startTasks(t, "tasks-undeclared", nil)
		createTask(t, s.c, "task_fail")
		for _, ev := range s.events(t) {
			if problem(ev, "task-not-declared") != nil {
				t.Error("flagged although the request declared the extension")
			}
		}
	})
}

// A task answering a request tasks do not cover is an invalid response (ext-tasks §Supported
// Methods); checked on the Pairer that traces share.
func TestTasksExtUnsupportedMethodFlagged(t *testing.T) {
	p := mcpclient.NewPairer()
	decl := `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	evs := []mcpclient.Event{
		{Seq: 1, Dir: mcpclient.ClientToServer, Kind: mcpclient.KindRequest, Msg: &mcpclient.Message{ID: json.RawMessage("1"), Method: "server/discover", Params: json.RawMessage(decl + `}`)}},
		{Seq: 2, Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Msg: &mcpclient.Message{ID: json.RawMessage("1"), Result: json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}`)}},
		{Seq: 3, Dir: mcpclient.ClientToServer, Kind: mcpclient.KindRequest, Msg: &mcpclient.Message{ID: json.RawMessage("2"), Method: "prompts/get", Params: json.RawMessage(`{"name":"p",` + decl[1:] + `}`)}},
		{Seq: 4, Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Msg: &mcpclient.Message{ID: json.RawMessage("2"), Result: json.RawMessage(`{"resultType":"task","taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}`)}},
		{Seq: 5, Dir: mcpclient.ClientToServer, Kind: mcpclient.KindRequest, Msg: &mcpclient.Message{ID: json.RawMessage("3"), Method: "tools/call", Params: json.RawMessage(`{"name":"x",` + decl[1:] + `}`)}},
		{Seq: 6, Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Msg: &mcpclient.Message{ID: json.RawMessage("3"), Result: json.RawMessage(`{"resultType":"task","taskId":"t2","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}`)}},
	}
	for i := range evs {
		p.Add(&evs[i])
	}
	if problem(evs[3], "task-unsupported-method") == nil {
		t.Errorf("prompts/get answered with a task is not flagged: %+v", evs[3].Problems)
	}
	if len(evs[5].Problems) != 0 {
		t.Errorf("tools/call answered with a task is fine, got %+v", evs[5].Problems)
	}
}
