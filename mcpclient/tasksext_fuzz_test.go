package mcpclient

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzTaskParsers: ParseCreateTask and ParseTaskNotification never panic; a task they
// accept has an id (or, for a CreateTaskResult without one, an error says so); and the quick
// scan before decoding never misses a result whose exact "resultType" member is "task".
func FuzzTaskParsers(f *testing.F) {
	f.Add([]byte(`{"resultType":"task","taskId":"t1","status":"working","pollIntervalMs":5}`))
	f.Add([]byte(`{"resultType" : "task"}`))
	f.Add([]byte(`{"content":[],"resultType":"complete"}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t","status":"completed","result":{}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		task, ok, err := ParseCreateTask(b)
		if ok && err == nil && (task == nil || task.TaskID == "" || task.ResultType != "task") {
			t.Fatalf("accepted %+v from %s", task, b)
		}
		if ok && err != nil && task != nil && task.TaskID != "" {
			t.Fatalf("an error for a task with an id: %v", err)
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) == nil && bytes.Equal(m["resultType"], []byte(`"task"`)) && bytes.Contains(b, []byte(`"resultType"`)) {
			var probe struct {
				TaskID json.RawMessage `json:"taskId"`
			}
			if json.Unmarshal(b, &probe) == nil && !ok {
				t.Fatalf("a CreateTaskResult was missed: %s", b)
			}
		}
		if _, msg, _ := Classify(b); msg != nil {
			if task, ok := ParseTaskNotification(msg); ok && (task == nil || task.TaskID == "" || msg.Method != "notifications/tasks") {
				t.Fatalf("notification %+v from %s", task, b)
			}
		}
	})
}
