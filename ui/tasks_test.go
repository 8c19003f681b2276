package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The empty Tasks pane's text is wrapped in the list column, never cut off.
func TestEmptyTasksTextWraps(t *testing.T) {
	for _, w := range []int{140, 220} {
		m := newTestModel(t, greetSession(), w, 40)
		keys(t, m, "8")
		out := strings.Join(strings.Fields(ansi.Strip(view(m))), " ")
		if !strings.Contains(out, "(2025-11-25 tasks/list)") || strings.Contains(out, "…") {
			t.Errorf("at %d columns the empty text is cut:\n%s", w, view(m))
		}
	}
}

// A tool with execution.taskSupport "required" is called as a task, polled, and its
// result is the call's; ctrl+x sends tasks/cancel.
func TestTaskCall(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "enter") // the research tool's form
	keys(t, m, "ctrl+s")
	if len(s.taskCalls) != 1 || s.taskCalls[0] != "research {}" || len(s.calls) != 0 {
		t.Fatalf("task calls %q calls %q", s.taskCalls, s.calls)
	}
	mustContain(t, "in flight", view(m), "task task-1: ⟳ working · thinking", "ctrl+x sends tasks/cancel")
	keys(t, m, "8")
	mustContain(t, "tasks pane", view(m), "▸⟳ research task-1 working", "status:   ⟳ working", "message:  thinking")
	s.tasks["task-1"].Status = "completed"
	drive(t, m, taskPollMsg{id: "task-1"})
	if m.call.run.running() || m.call.run.res == nil || m.call.run.res.Content[0].Text != "research done" {
		t.Fatalf("call not finished from tasks/result: %+v", m.call.run)
	}
	mustContain(t, "done", view(m), "▸✓ research task-1 completed", `"text": "research done"`)

	// A second call, cancelled.
	keys(t, m, "1", "enter", "ctrl+s")
	s.tasks["task-1"].Status = "working"
	drive(t, m, taskPollMsg{id: "task-1"})
	keys(t, m, "ctrl+x")
	if len(s.taskCancels) != 1 || m.call.run.running() || !errors.Is(m.call.run.err, context.Canceled) {
		t.Fatalf("cancel: %q %+v", s.taskCancels, m.call.run)
	}
	keys(t, m, "8")
	mustContain(t, "cancelled task", view(m), "cancelled")
}

// The empty Tasks pane's text wraps at spaces, never inside a token: the date of
// "(2025-11-25 tasks/list)" stays on one line at every width (80x24 broke it after "2025-").
func TestEmptyTasksTextKeepsTokens(t *testing.T) {
	for w := 60; w <= 160; w += 4 {
		m := newTestModel(t, greetSession(), w, 24)
		keys(t, m, "8")
		out := ansi.Strip(view(m))
		if !strings.Contains(out, "2025-11-25") || !strings.Contains(out, `"required"`) {
			t.Errorf("at %d columns a token of the empty text is broken:\n%s", w, out)
		}
	}
}

// TestWrapSpaces: lines break at spaces (not after the hyphens of a date), blank lines
// stay, and only a word wider than the line is broken.
func TestWrapSpaces(t *testing.T) {
	for _, tc := range []struct {
		s    string
		w    int
		want string
	}{
		{"ab 2025-11-25 x\n\nabcdefghij", 11, "ab|2025-11-25|x||abcdefghij"},
		{"v1.2.3-rc1 abcdefghij", 6, "v1.2.3|-rc1|abcdef|ghij"},
	} {
		if got := strings.Join(wrapSpaces(tc.s, tc.w), "|"); got != tc.want {
			t.Errorf("wrapSpaces(%q, %d) = %q, want %q", tc.s, tc.w, got, tc.want)
		}
	}
}
