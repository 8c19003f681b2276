package fake

import (
	"encoding/json"
	"strings"
	"testing"
)

// The tasks scenarios speak the modern tasks extension (io.modelcontextprotocol/tasks).

const tasksMeta = `"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// taskLine is one decoded stdout line of a tasks scenario.
type taskLine struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result map[string]any  `json:"result"`
	Params map[string]any  `json:"params"`
	Error  *struct {
		Code int64 `json:"code"`
	} `json:"error"`
}

// next reads lines until one satisfies ok, and returns it.
func (p *proc) next(what string, ok func(taskLine) bool) taskLine {
	p.t.Helper()
	for i := 0; i < 50; i++ {
		raw := p.line()
		var l taskLine
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			p.t.Fatalf("not JSON: %q", raw)
		}
		if ok(l) {
			return l
		}
	}
	p.t.Fatalf("no %s in 50 lines", what)
	return taskLine{}
}

func answerTo(id string) func(taskLine) bool {
	return func(l taskLine) bool { return string(l.ID) == id }
}

func taskNote(status string) func(taskLine) bool {
	return func(l taskLine) bool { return l.Method == "notifications/tasks" && l.Params["status"] == status }
}

func TestTasksScenario(t *testing.T) {
	t.Parallel()
	// A step long enough that the listen below is in place before task_greet leaves
	// working, even on a loaded machine (at 50 ms the notification went out before it).
	p := scenario(t, "tasks", "FAKE_TASK_STEP_MS=1500", "FAKE_TASK_POLL_MS=70")
	p.exchange(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"fake-tasks","version":"0.0.1"}},"cacheScope":"private","capabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}},"tools":{}},"resultType":"complete","supportedVersions":["2026-07-28"],"ttlMs":0}}`)
	// Without the extension declared, the task tools are refused with -32021.
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"task_greet"}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"task_greet",` + tasksMeta + `}}`)
	created := p.next("CreateTaskResult", answerTo("3")).Result
	id, _ := created["taskId"].(string)
	if created["resultType"] != "task" || created["status"] != "working" || len(id) != 32 || created["pollIntervalMs"] != float64(70) || created["ttlMs"] != float64(600000) {
		t.Fatalf("created = %v", created)
	}
	p.send(`{"jsonrpc":"2.0","id":4,"method":"subscriptions/listen","params":{"notifications":{"taskIds":["` + id + `","nope"]},` + tasksMeta + `}}`)
	ack := p.next("acknowledged", func(l taskLine) bool { return l.Method == "notifications/subscriptions/acknowledged" })
	if b, _ := json.Marshal(ack.Params); string(b) != `{"_meta":{"io.modelcontextprotocol/subscriptionId":4},"notifications":{"taskIds":["`+id+`"]}}` {
		t.Errorf("acknowledged = %s", b)
	}
	ir := p.next("input_required notification", taskNote("input_required"))
	if b, _ := json.Marshal(ir.Params["inputRequests"]); !strings.Contains(string(b), `"name":{"method":"elicitation/create"`) {
		t.Errorf("inputRequests = %s", b)
	}
	p.send(`{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{"taskId":"` + id + `",` + tasksMeta + `}}`)
	got := p.next("tasks/get answer", answerTo("5")).Result
	if got["resultType"] != "complete" || got["status"] != "input_required" || got["inputRequests"] == nil {
		t.Errorf("tasks/get = %v", got)
	}
	p.send(`{"jsonrpc":"2.0","id":6,"method":"tasks/update","params":{"taskId":"` + id + `","inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}},"other":{}},` + tasksMeta + `}}`)
	if r := p.next("tasks/update ack", answerTo("6")).Result; len(r) != 1 || r["resultType"] != "complete" {
		t.Errorf("tasks/update = %v", r)
	}
	done := p.next("completed notification", taskNote("completed"))
	if b, _ := json.Marshal(done.Params["result"]); string(b) != `{"content":[{"text":"Hello, Ada!","type":"text"}]}` {
		t.Errorf("inline result = %s", b)
	}
	// A failing task carries the JSON-RPC error; tasks/cancel is cooperative.
	p.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"task_slow",` + tasksMeta + `}}`)
	slow, _ := p.next("slow task", answerTo("7")).Result["taskId"].(string)
	p.send(`{"jsonrpc":"2.0","id":8,"method":"tasks/cancel","params":{"taskId":"` + slow + `",` + tasksMeta + `}}`)
	if r := p.next("tasks/cancel ack", answerTo("8")).Result; r["resultType"] != "complete" {
		t.Errorf("tasks/cancel = %v", r)
	}
	for i := 9; ; i++ {
		p.send(`{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"tasks/get","params":{"taskId":"` + slow + `",` + tasksMeta + `}}`)
		if r := p.next("tasks/get answer", answerTo(itoa(i))).Result; r["status"] == "cancelled" {
			break
		} else if i > 40 {
			t.Fatalf("task_slow never cancelled: %v", r)
		}
	}
	p.send(`{"jsonrpc":"2.0","id":100,"method":"tasks/get","params":{"taskId":"nope",` + tasksMeta + `}}`)
	if e := p.next("unknown task", answerTo("100")).Error; e == nil || e.Code != -32602 {
		t.Errorf("tasks/get of an unknown task: %+v", e)
	}
	p.send(`{"jsonrpc":"2.0","id":101,"method":"tasks/get","params":{"taskId":"` + id + `"}}`)
	if e := p.next("undeclared tasks/get", answerTo("101")).Error; e == nil || e.Code != -32021 {
		t.Errorf("tasks/get without the extension: %+v", e)
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func TestTasksUndeclaredScenario(t *testing.T) {
	t.Parallel()
	p := scenario(t, "tasks-undeclared", "FAKE_TASK_STEP_MS=50")
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"task_fail"}}`)
	r := p.next("CreateTaskResult", answerTo("1")).Result
	if r["resultType"] != "task" || r["status"] != "working" {
		t.Fatalf("tools/call = %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
	if r := p.next("echo", answerTo("2")).Result; r["resultType"] != nil || r["content"] == nil {
		t.Errorf("echo = %v", r)
	}
}
