//go:build unix

package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A modern tools/call answered with a task has no request of its own pending while the task
// runs, so the client's failing of pending requests does not end it: when the server dies
// the UI must end the call itself, with the death as its error, stop following the task, and
// leave ctrl+x nothing to cancel.
func TestModernTaskCallEndsWhenTheServerDies(t *testing.T) {
	l, w := startTasksLive(t, "100", Options{})
	run := l.sendTool("task_slow")
	l.until("the task", func() bool { return run.task != nil }, 20*time.Second)
	id := run.task.TaskID
	// The task's subscriptions/listen is pending when the server dies.
	w.settled(t, mcpclient.ClientToServer, "subscriptions/listen", func(f []string) bool { return len(f) > 0 })
	l.key("2")
	if err := killProcess(l.c.PID()); err != nil {
		t.Fatal(err)
	}
	l.until("the call's end", func() bool { return run.done }, 20*time.Second)
	var exit *mcpclient.ExitError
	if !errors.As(run.err, &exit) || exit.Signal == "" || exit.NotSent {
		t.Fatalf("call err = %v, want the server's death", run.err)
	}
	want := "server was killed by signal KILL while task " + id + " of tools/call task_slow was running"
	if !strings.HasPrefix(run.err.Error(), want) {
		t.Errorf("call err %q, want it to start with %q", run.err, want)
	}
	out := view(l.m)
	mustContain(t, "call pane", out, "server was killed by signal KILL", "while task "+id+" of tools/call task_slow was running", "ran as task "+id+" (last known status: working)")
	if strings.Contains(out, "waiting for the answer") {
		t.Errorf("the call still waits\n%s", out)
	}
	if st := l.m.call.callState(run, time.Now()); !strings.HasPrefix(st, "✗ failed") {
		t.Errorf("call state %q", st)
	}

	// Nothing follows the task any more: no poll is scheduled, none is tried (a poll timer
	// set before the death fires and is handled first).
	l.until("the polls set before the death", func() bool {
		return !l.pending(func(msg tea.Msg) bool { p, ok := msg.(taskPollMsg); return ok && p.id == id })
	}, 20*time.Second)
	e := l.m.tasks.all.Get(id)
	if e == nil || e.Task.Status != "working" || !e.Stalled() || e.Polling || e.Listening {
		t.Fatalf("tasks entry after the death: %+v", e)
	}
	if strings.Contains(l.m.flash.text, "tasks/get") || strings.Contains(l.m.flash.text, "subscriptions/listen") {
		t.Errorf("status note after the death: %q", l.m.flash.text)
	}
	l.key("8")
	mustContain(t, "tasks pane", view(l.m), "working (last known: polling stopped)", "server was killed by signal KILL")

	// ctrl+x has no call to cancel: no tasks/cancel is tried.
	l.key("2")
	l.keyDone("ctrl+x")
	if strings.Contains(l.m.flash.text, "tasks/cancel") {
		t.Errorf("ctrl+x after the death: %q", l.m.flash.text)
	}
}

// A legacy (2025-11-25) task call polls tasks/get while the task works, with no request
// of its own pending: the server's death ends it the same way.
func TestLegacyTaskCallEndsWhenTheServerDies(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "enter", "ctrl+s")
	run := m.call.run
	if run == nil || !run.running() || run.task == nil {
		t.Fatalf("no task call running: %+v", run)
	}
	exited := mcpclient.Event{Seq: 90, Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle,
		Life: &mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 77, ExitCode: -1, Signal: "KILL"}}
	drive(t, m, eventsMsg{events: []mcpclient.Event{exited}})
	if run.running() {
		t.Fatal("the task call still runs after the server's exit")
	}
	want := "server was killed by signal KILL while task task-1 of tools/call research was running"
	if run.err == nil || run.err.Error() != want {
		t.Errorf("call err %v, want %q", run.err, want)
	}
	gets := s.taskGets
	drive(t, m, taskPollMsg{id: "task-1"})
	if s.taskGets != gets {
		t.Errorf("a poll after the death sent tasks/get (%d → %d)", gets, s.taskGets)
	}
	keys(t, m, "2")
	mustContain(t, "call pane", view(m), "server was killed by signal KILL", "while task task-1 of tools/call research was running")
}
