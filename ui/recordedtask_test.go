package ui

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestOfflineTaskCallShowsTheTaskResult: in a recording, a tools/call answered with a
// CreateTaskResult (modern tasks extension) shows the task's end as the call's result, as
// the live Call pane did: the inline result of the terminal tasks/get answer or
// notifications/tasks, a failed task's error, and "running" for a task the recording
// leaves unfinished; never the CreateTaskResult as if it were the tool's result.
func TestOfflineTaskCallShowsTheTaskResult(t *testing.T) {
	created := func(id string) string {
		return `{"resultType":"task","taskId":"` + id + `","status":"working","ttlMs":600000,"pollIntervalMs":50}`
	}
	raws := []struct {
		dir mcpclient.Direction
		raw string
	}{
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"tasks","version":"1"}}}}`},
		// Call 1: polled to completion.
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"task_greet","arguments":{"who":"Ada"}}}`},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":` + created("t-one") + `}`},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"t-one"}}`},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","taskId":"t-one","status":"working"}}`},
		// Call 2: fails, told by notifications/tasks.
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"task_fail","arguments":{}}}`},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":4,"result":` + created("t-two") + `}`},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t-two","status":"failed","error":{"code":-32000,"message":"the disk is full"}}}`},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{"taskId":"t-one"}}`},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete","taskId":"t-one","status":"completed","result":{"content":[{"type":"text","text":"Hello, Ada!"}]}}}`},
		// Call 3: still working when the recording ends.
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"task_slow","arguments":{}}}`},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":6,"result":` + created("t-three") + `}`},
	}
	evs := make([]mcpclient.Event, len(raws))
	p := mcpclient.NewPairer()
	for i, r := range raws {
		evs[i] = ev(uint64(i+1), r.dir, r.raw)
		p.Add(&evs[i])
	}
	m := openOffline(t, evs)
	keys(t, m, "2")
	rows := view(m)
	for _, want := range []string{"task_greet", "ok (task)", "task_fail", "task failed", "task_slow", "task running"} {
		if !strings.Contains(rows, want) {
			t.Errorf("the recorded calls lack %q:\n%s", want, rows)
		}
	}
	// The first call is selected; down moves to the later ones.
	v := loadedView(t, m)
	mustContain(t, "completed task", v, "Hello, Ada!", "ran as task t-one (completed)", "request #3 → response #11")
	keys(t, m, "right")
	mustContain(t, "failed task", loadedView(t, m), "the disk is full", "ran as task t-two (failed)")
	keys(t, m, "right")
	mustContain(t, "unfinished task", loadedView(t, m), "t-three was still working when the recording ended", "ran as task t-three (working)")
	if strings.Contains(v, "resultType") {
		t.Errorf("the completed task call shows the CreateTaskResult:\n%s", v)
	}
}

// loadedView is the view once the selected past call has been read back.
func loadedView(t *testing.T, m *model) string {
	t.Helper()
	v := view(m)
	if strings.Contains(v, "loading the call from the trace") {
		t.Fatalf("the call did not load:\n%s", v)
	}
	return v
}

// TestOfflineTasksPaneDrawsLikeLive: a recording's Tasks pane names the task's tool in the
// row and the detail (from the tools/call that created it), says when the recording told
// its status (the event's time, not "ago" from now), and offers no request it cannot send.
func TestOfflineTasksPaneDrawsLikeLive(t *testing.T) {
	lines := append(append([]recorded(nil), modernHandshake...),
		recorded{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"task_fail","arguments":{}}}`, nil},
		recorded{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":4,"result":{"resultType":"task","taskId":"t-two","status":"working"}}`, nil},
		recorded{mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t-two","status":"failed","error":{"code":-32000,"message":"the disk is full"}}}`, nil}, // seq 5
	)
	m := openOffline(t, pairedRecording(lines))
	keys(t, m, "8")
	v := view(m)
	mustContain(t, "recorded task", v, "task_fail t-two", "tool:     task_fail", "status recorded at 03:04:05.005")
	for _, not := range []string{"learned", "enter tasks/get", "x tasks/cancel"} {
		if strings.Contains(v, not) {
			t.Errorf("the recorded Tasks pane says %q:\n%s", not, v)
		}
	}
	keys(t, m, "?")
	if h := view(m); strings.Contains(h, "tasks/get") || strings.Contains(h, "tasks/cancel") {
		t.Errorf("the recorded Tasks pane's help offers requests:\n%s", h)
	}
}
