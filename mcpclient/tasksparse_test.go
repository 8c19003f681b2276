package mcpclient_test

import (
	"encoding/json"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// ParseCreateTask tells a CreateTaskResult (ext-tasks §Polymorphic Results) from every other
// result, including ones that merely mention "task".
func TestParseCreateTask(t *testing.T) {
	for _, c := range []struct {
		result string
		ok     bool
		err    bool
		id     string
	}{
		{`{"resultType":"task","taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}`, true, false, "t1"},
		{"{\n  \"resultType\" :\t \"task\", \"taskId\": \"t2\", \"status\": \"working\"}", true, false, "t2"},
		{`{"resultType":"task","status":"working"}`, true, true, ""},
		{`{"resultType":"complete","content":[{"type":"text","text":"task"}]}`, false, false, ""},
		{`{"content":[{"type":"text","text":"{\"resultType\":\"task\",\"taskId\":\"no\"}"}]}`, false, false, ""},
		{`{"content":[],"structuredContent":{"resultType":"task"}}`, false, false, ""},
		{`{"resultType":"input_required","inputRequests":{}}`, false, false, ""},
		{`{"task":{"taskId":"legacy","status":"working"}}`, false, false, ""},
	} {
		task, ok, err := mcpclient.ParseCreateTask(json.RawMessage(c.result))
		if ok != c.ok || (err != nil) != c.err || (ok && task.TaskID != c.id) {
			t.Errorf("%s: ok %v err %v task %+v", c.result, ok, err, task)
		}
	}
}

func TestTaskPollEveryAndOutcome(t *testing.T) {
	ms := func(v int64) *int64 { return &v }
	for _, c := range []struct {
		task mcpclient.Task
		want string
	}{
		{mcpclient.Task{}, "1s"},
		{mcpclient.Task{PollIntervalMs: ms(250)}, "250ms"},
		{mcpclient.Task{PollIntervalMs: ms(0)}, "1s"},
		{mcpclient.Task{PollIntervalMs: ms(1)}, "50ms"},
		{mcpclient.Task{PollInterval: ms(2000)}, "2s"},
	} {
		if got := c.task.PollEvery().String(); got != c.want {
			t.Errorf("%+v: PollEvery %s, want %s", c.task, got, c.want)
		}
	}
	if _, err := (mcpclient.Task{TaskID: "a", Status: "working"}).Outcome(); err == nil {
		t.Error("a working task has no outcome")
	}
	if _, err := (mcpclient.Task{TaskID: "a", Status: "completed"}).Outcome(); err == nil {
		t.Error("completed without a result must be an error")
	}
	if res, err := (mcpclient.Task{TaskID: "a", Status: "completed", Result: json.RawMessage(`{"content":[]}`)}).Outcome(); err != nil || string(res) != `{"content":[]}` {
		t.Errorf("completed: %s %v", res, err)
	}
}
