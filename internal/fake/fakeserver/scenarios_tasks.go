package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

// The modern (2026-07-28) tasks extension io.modelcontextprotocol/tasks, as in
// modelcontextprotocol/ext-tasks specification/draft/tasks.md. Scenario "tasks" is a
// well-behaved modern server: server/discover declares the extension; its tools answer
// tools/call with a CreateTaskResult (resultType "task") when the request declared the
// extension and with -32021 when it did not; tasks/get, tasks/update, tasks/cancel and
// subscriptions/listen with taskIds (notifications/tasks) work. "tasks-undeclared" answers
// with a task even when the request did not declare the extension (a violation).
//
// Tools:
//
//	task_greet   working → input_required (inputRequests "name": an elicitation/create form)
//	             → working after tasks/update → completed with "Hello, NAME!" inline
//	task_fail    working → failed with the JSON-RPC error -32603 inline
//	task_slow    working until FAKE_TASK_SLOW_MS (default 30000), then completed; tasks/cancel
//	             makes it cancelled (cooperatively, one step later)
//	echo         answers at once with a plain CallToolResult (the server decides per request)
//
// Knobs (milliseconds): FAKE_TASK_STEP_MS time between states (default 300),
// FAKE_TASK_POLL_MS the pollIntervalMs it suggests (default 250), FAKE_TASK_SLOW_MS.

const tasksExtID = "io.modelcontextprotocol/tasks"

const taskTools = `{"tools":[` +
	`{"name":"task_greet","description":"Greets you by name; runs as a task and asks your name through the task (input_required)","inputSchema":{"type":"object","properties":{}}},` +
	`{"name":"task_fail","description":"Runs as a task that fails with a JSON-RPC error","inputSchema":{"type":"object","properties":{}}},` +
	`{"name":"task_slow","description":"Runs as a long task; cancel it with tasks/cancel","inputSchema":{"type":"object","properties":{}}},` +
	echoTool + `]}`

// fakeTask is one task of the fake server.
type fakeTask struct {
	id, status, message string
	created, updated    time.Time
	inputs              map[string]json.RawMessage // outstanding inputRequests
	answers             chan map[string]json.RawMessage
	result              json.RawMessage
	err                 json.RawMessage
	cancel              chan struct{}
	cancelOnce          sync.Once
}

// taskServer is the tasks state of one fake server process.
type taskServer struct {
	undeclared bool // answer with tasks even to requests that did not declare the extension

	mu      sync.Mutex
	tasks   map[string]*fakeTask
	listens map[string]*taskListen // by listen request id key
}

type taskListen struct {
	id  json.RawMessage
	ids map[string]bool
}

func tasksScenarios() map[string]*scenario {
	return map[string]*scenario{
		"tasks":            newTaskServer(false).scenario("modern tasks extension: task_greet (input_required), task_fail, task_slow (cancel), echo; notifications/tasks via listen"),
		"tasks-undeclared": newTaskServer(true).scenario("like tasks, but answers with a task even when the request did not declare the extension (a violation)"),
	}
}

func newTaskServer(undeclared bool) *taskServer {
	return &taskServer{undeclared: undeclared, tasks: map[string]*fakeTask{}, listens: map[string]*taskListen{}}
}

func (ts *taskServer) scenario(summary string) *scenario {
	return &scenario{
		summary: summary,
		tools:   taskTools,
		calls: map[string]toolFunc{
			"task_greet": ts.call(ts.runGreet),
			"task_fail":  ts.call(ts.runFail),
			"task_slow":  ts.call(ts.runSlow),
			"echo":       callEcho,
		},
		methods: map[string]func(*server, *stdioserver.Message){
			"server/discover":      ts.discover,
			"tasks/get":            ts.get,
			"tasks/update":         ts.update,
			"tasks/cancel":         ts.cancelTask,
			"subscriptions/listen": ts.listen,
		},
	}
}

func (ts *taskServer) discover(s *server, m *stdioserver.Message) {
	_ = s.out.Respond(m.ID, map[string]any{
		"resultType":        "complete",
		"supportedVersions": []string{"2026-07-28"},
		"capabilities":      map[string]any{"tools": map[string]any{}, "extensions": map[string]any{tasksExtID: map[string]any{}}},
		"ttlMs":             0,
		"cacheScope":        "private",
		"_meta":             map[string]any{"io.modelcontextprotocol/serverInfo": map[string]string{"name": "fake-tasks", "version": "0.0.1"}},
	})
}

// declared reports whether a request's _meta clientCapabilities declare the extension.
func declared(m *stdioserver.Message) bool {
	var p struct {
		Meta struct {
			Caps struct {
				Extensions map[string]json.RawMessage `json:"extensions"`
			} `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return false
	}
	_, ok := p.Meta.Caps.Extensions[tasksExtID]
	return ok
}

// missingTasksCap answers -32021 naming the extension (ext-tasks §Capability Negotiation).
func missingTasksCap(s *server, m *stdioserver.Message) {
	_ = s.out.RespondError(m.ID, -32021, "Missing required client capability",
		map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{tasksExtID: map[string]any{}}}})
}

func (s *server) envMS(name string, def int) time.Duration {
	if n, ok := s.envInt(name); ok {
		return time.Duration(n) * time.Millisecond
	}
	return time.Duration(def) * time.Millisecond
}

// call creates a task for a tools/call and runs it in the background.
func (ts *taskServer) call(run func(s *server, t *fakeTask)) toolFunc {
	return func(s *server, m *stdioserver.Message, _ json.RawMessage) {
		if !declared(m) && !ts.undeclared {
			missingTasksCap(s, m)
			return
		}
		var b [16]byte
		_, _ = rand.Read(b[:])
		now := time.Now().UTC()
		t := &fakeTask{id: hex.EncodeToString(b[:]), status: "working", message: "started", created: now, updated: now,
			answers: make(chan map[string]json.RawMessage, 4), cancel: make(chan struct{})}
		ts.mu.Lock()
		ts.tasks[t.id] = t
		obj := ts.taskObjLocked(s, t, "task")
		ts.mu.Unlock()
		// Durably created before the answer (ext-tasks §Task Creation).
		_ = s.out.Respond(m.ID, obj)
		go run(s, t)
	}
}

// taskObjLocked is a DetailedTask with resultType rt.
func (ts *taskServer) taskObjLocked(s *server, t *fakeTask, rt string) map[string]any {
	obj := map[string]any{
		"taskId":         t.id,
		"status":         t.status,
		"createdAt":      t.created.Format(time.RFC3339Nano),
		"lastUpdatedAt":  t.updated.Format(time.RFC3339Nano),
		"ttlMs":          600000,
		"pollIntervalMs": s.envMS("FAKE_TASK_POLL_MS", 250).Milliseconds(),
	}
	if rt != "" {
		obj["resultType"] = rt
	}
	if t.message != "" {
		obj["statusMessage"] = t.message
	}
	switch t.status {
	case "input_required":
		obj["inputRequests"] = t.inputs
	case "completed":
		obj["result"] = t.result
	case "failed":
		obj["error"] = t.err
	}
	return obj
}

// set moves a task to a new state and sends notifications/tasks to the listens that asked.
func (ts *taskServer) set(s *server, t *fakeTask, fn func()) {
	ts.mu.Lock()
	fn()
	t.updated = time.Now().UTC()
	obj := ts.taskObjLocked(s, t, "")
	var to []json.RawMessage
	for _, l := range ts.listens {
		if l.ids[t.id] {
			to = append(to, l.id)
		}
	}
	ts.mu.Unlock()
	for _, id := range to {
		params := map[string]any{}
		for k, v := range obj {
			params[k] = v
		}
		params["_meta"] = map[string]any{"io.modelcontextprotocol/subscriptionId": id}
		_ = s.out.Send(map[string]any{"jsonrpc": "2.0", "method": "notifications/tasks", "params": params})
	}
}

// step waits one FAKE_TASK_STEP_MS; false when the task was cancelled meanwhile (it is then
// marked cancelled).
func (ts *taskServer) step(s *server, t *fakeTask, d time.Duration) bool {
	if sleep(d, t.cancel) {
		return true
	}
	ts.set(s, t, func() { t.status, t.message = "cancelled", "cancelled by tasks/cancel" })
	return false
}

func (ts *taskServer) runGreet(s *server, t *fakeTask) {
	d := s.envMS("FAKE_TASK_STEP_MS", 300)
	if !ts.step(s, t, d) {
		return
	}
	ts.set(s, t, func() {
		t.status, t.message = "input_required", "waiting for your name"
		t.inputs = map[string]json.RawMessage{"name": json.RawMessage(`{"method":"elicitation/create","params":{"mode":"form","message":"Please enter your name.","requestedSchema":{"type":"object","properties":{"name":{"type":"string","title":"Name"}},"required":["name"]}}}`)}
	})
	var ans json.RawMessage
	for ans == nil {
		select {
		case got := <-t.answers:
			ans = got["name"]
		case <-t.cancel:
			ts.set(s, t, func() { t.status, t.message, t.inputs = "cancelled", "cancelled while waiting for input", nil })
			return
		}
	}
	ts.set(s, t, func() { t.status, t.message, t.inputs = "working", "greeting", nil })
	if !ts.step(s, t, d) {
		return
	}
	var r struct {
		Action  string `json:"action"`
		Content struct {
			Name string `json:"name"`
		} `json:"content"`
	}
	_ = json.Unmarshal(ans, &r)
	text := "Hello, " + r.Content.Name + "!"
	if r.Action != "accept" {
		text = "Hello, stranger (you chose " + r.Action + ")."
	}
	ts.set(s, t, func() { t.status, t.message, t.result = "completed", "greeted", json.RawMessage(textResult(text)) })
}

func (ts *taskServer) runFail(s *server, t *fakeTask) {
	if !ts.step(s, t, s.envMS("FAKE_TASK_STEP_MS", 300)) {
		return
	}
	ts.set(s, t, func() {
		t.status, t.message = "failed", "Tool execution failed: API rate limit exceeded"
		t.err = json.RawMessage(`{"code":-32603,"message":"API rate limit exceeded"}`)
	})
}

func (ts *taskServer) runSlow(s *server, t *fakeTask) {
	if !ts.step(s, t, s.envMS("FAKE_TASK_SLOW_MS", 30000)) {
		return
	}
	ts.set(s, t, func() {
		t.status, t.message, t.result = "completed", "done", json.RawMessage(textResult("slow task done"))
	})
}

// taskFor finds the task of a tasks/* request, answering the error itself when it cannot.
func (ts *taskServer) taskFor(s *server, m *stdioserver.Message) (*fakeTask, json.RawMessage) {
	if !declared(m) {
		missingTasksCap(s, m)
		return nil, nil
	}
	var p struct {
		TaskID         string                     `json:"taskId"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	_ = json.Unmarshal(m.Params, &p)
	ts.mu.Lock()
	t := ts.tasks[p.TaskID]
	ts.mu.Unlock()
	if t == nil {
		s.fail(m.ID, stdioserver.CodeInvalidParams, "Failed to retrieve task: Task not found")
		return nil, nil
	}
	ans, _ := json.Marshal(p.InputResponses)
	return t, ans
}

func (ts *taskServer) get(s *server, m *stdioserver.Message) {
	t, _ := ts.taskFor(s, m)
	if t == nil {
		return
	}
	ts.mu.Lock()
	obj := ts.taskObjLocked(s, t, "complete")
	ts.mu.Unlock()
	_ = s.out.Respond(m.ID, obj)
}

func (ts *taskServer) update(s *server, m *stdioserver.Message) {
	t, raw := ts.taskFor(s, m)
	if t == nil {
		return
	}
	var ans map[string]json.RawMessage
	_ = json.Unmarshal(raw, &ans)
	ts.mu.Lock()
	// Keys that are not outstanding are ignored (ext-tasks §Task Update Requests).
	fresh := map[string]json.RawMessage{}
	for k, v := range ans {
		if _, ok := t.inputs[k]; ok {
			fresh[k] = v
		}
	}
	ts.mu.Unlock()
	if len(fresh) > 0 {
		t.answers <- fresh
	}
	_ = s.out.Respond(m.ID, map[string]any{"resultType": "complete"})
}

func (ts *taskServer) cancelTask(s *server, m *stdioserver.Message) {
	t, _ := ts.taskFor(s, m)
	if t == nil {
		return
	}
	t.cancelOnce.Do(func() { close(t.cancel) })
	_ = s.out.Respond(m.ID, map[string]any{"resultType": "complete"})
}

// listen acknowledges the task ids it knows and keeps the stream open until the client
// cancels it (notifications/cancelled).
func (ts *taskServer) listen(s *server, m *stdioserver.Message) {
	var p struct {
		Notifications struct {
			TaskIDs []string `json:"taskIds"`
		} `json:"notifications"`
	}
	_ = json.Unmarshal(m.Params, &p)
	if len(p.Notifications.TaskIDs) > 0 && !declared(m) {
		missingTasksCap(s, m)
		return
	}
	l := &taskListen{id: m.ID, ids: map[string]bool{}}
	ts.mu.Lock()
	var acked []string
	for _, id := range p.Notifications.TaskIDs {
		if ts.tasks[id] != nil {
			l.ids[id] = true
			acked = append(acked, id)
		}
	}
	sort.Strings(acked)
	key := stdioserver.IDKey(m.ID)
	ts.listens[key] = l
	ts.mu.Unlock()
	notif := map[string]any{}
	if len(acked) > 0 {
		notif["taskIds"] = acked
	}
	_ = s.out.Send(map[string]any{"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
		"params": map[string]any{"notifications": notif, "_meta": map[string]any{"io.modelcontextprotocol/subscriptionId": m.ID}}})
	cancelled, done := s.track(m.ID)
	go func() {
		<-cancelled
		done()
		ts.mu.Lock()
		delete(ts.listens, key)
		ts.mu.Unlock()
	}()
}
