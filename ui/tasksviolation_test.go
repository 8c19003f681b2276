package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// A server that answers with a task although the request did not declare the extension
// (--no-tasks): the call ends at once as an invalid response, its response carries the
// counted violation with the rule, and the Tasks pane still shows the task.
func TestModernTaskUndeclaredIsAViolation(t *testing.T) {
	l := startLive(t, []string{fake.Binary(t), "--scenario", "tasks-undeclared"}, mcpclient.Config{Era: mcpclient.EraModern,
		Env: []string{"FAKE_TASK_STEP_MS=150", "FAKE_TASK_POLL_MS=100"}}, Options{Features: session.ClientFeatures{NoTasks: true}})
	l.until("tools", func() bool { return len(l.m.tools.tools) == 4 }, 20*time.Second)
	run := l.sendTool("task_fail")
	l.until("the call's end", func() bool { return run.done }, 20*time.Second)
	if run.err == nil || !strings.Contains(run.err.Error(), "did not declare "+mcpclient.TasksExtension) {
		t.Fatalf("call err = %v", run.err)
	}
	l.until("the response's problems", func() bool { return run.respSeen }, 10*time.Second)
	found := false
	for _, p := range run.respProblems {
		found = found || p.Code == "task-not-declared" && strings.Contains(p.Text, "§Capability Negotiation")
	}
	if !found {
		t.Fatalf("response problems %+v", run.respProblems)
	}
	l.key("2")
	mustContain(t, "call", view(l.m), "⚠ the response frame: tools/call answered with a task", "an invalid response")
	if l.m.tl.violations != 1 {
		t.Errorf("%d violations counted, want 1", l.m.tl.violations)
	}
	if len(l.m.tasks.all.Order()) != 1 {
		t.Errorf("%d tasks in the pane", len(l.m.tasks.all.Order()))
	}
	// The call has ended: the status bar no longer says it runs as a working task.
	if f := l.m.flashText(); strings.Contains(f, "runs as task") {
		t.Errorf("the status bar still says %q after the call failed", f)
	}
	// The server refuses tasks/get (the extension was not negotiated): polling stops, and
	// the Tasks pane says so and why instead of looking live.
	var e *session.Task
	for _, id := range l.m.tasks.all.Order() {
		e = l.m.tasks.all.Get(id)
	}
	l.until("the failed poll", func() bool { return e.PollErr != nil }, 20*time.Second)
	l.key("8")
	v := view(l.m)
	mustContain(t, "tasks", v, "polling stopped: the last tasks/get failed", "(last known: polling stopped)")
	if it := l.m.tasks.list.items[0]; it.tag != "working · polling stopped" || it.mark == statusMark("working") {
		t.Errorf("the task's row says %q %q, want it marked as no longer followed", it.mark, it.tag)
	}
	if !strings.Contains(v, e.PollErr.Error()[:min(len(e.PollErr.Error()), 30)]) {
		t.Errorf("the Tasks pane does not show why polling stopped (%v):\n%s", e.PollErr, v)
	}
	if strings.Contains(v, "⟳") || strings.Contains(v, "polling tasks/get every") {
		t.Errorf("the Tasks pane still looks live:\n%s", v)
	}
}
