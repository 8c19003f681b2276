package mcpclient

import (
	"bytes"
	"encoding/json"
	"testing"
)

// A 1 MiB tools/call result that mentions "task" in its text: the quick scan against the
// decode it avoids (taskResultProblems runs on every modern response).
func bigTaskishResult() []byte {
	text := bytes.Repeat([]byte("a task "), 1<<20/7)
	b, _ := json.Marshal(map[string]any{"content": []map[string]any{{"type": "text", "text": string(text)}}})
	return b
}

func BenchmarkMayBeTaskScan(b *testing.B) {
	res := bigTaskishResult()
	b.SetBytes(int64(len(res)))
	for b.Loop() {
		if MayBeTask(res) {
			b.Fatal("not a task")
		}
	}
}

func BenchmarkMayBeTaskDecode(b *testing.B) {
	res := bigTaskishResult()
	b.SetBytes(int64(len(res)))
	for b.Loop() {
		var r struct {
			ResultType string `json:"resultType"`
		}
		if json.Unmarshal(res, &r) != nil || r.ResultType == "task" {
			b.Fatal("not a task")
		}
	}
}
