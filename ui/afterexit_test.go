//go:build unix

package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A call fails when the server dies with it pending; a child of the server that kept its
// stdout open may still answer. The Call pane shows that answer, like a response after
// cancel, and the call stays failed.
func TestResponseAfterTheServersExit(t *testing.T) {
	// sh runs the fake server as a child (not exec: a command follows), so killing sh leaves
	// the fake server holding stdout; it answers sleep after FAKE_SLEEP_MS. Its stdin comes
	// through a pipe that a sleep keeps open, so the client closing the dead server's stdin
	// does not end it first.
	argv := []string{"/bin/sh", "-c", `(cat; sleep 30) | "$0" --scenario b12; echo done`, fake.Binary(t)}
	l := startLive(t, argv, mcpclient.Config{Env: []string{"FAKE_SLEEP_MS=5000"}}, Options{})
	l.until("tools", func() bool { return len(l.m.tools.tools) == 1 }, 20*time.Second)
	run := l.sendTool("sleep")
	l.until("the request on the wire", func() bool { return run.reqSeq != 0 }, 20*time.Second)
	if err := killProcess(l.c.PID()); err != nil {
		t.Fatal(err)
	}
	l.until("the call's failure", func() bool { return run.done }, 20*time.Second)
	var exit *mcpclient.ExitError
	if !errors.As(run.err, &exit) || exit.NotSent || exit.Signal == "" {
		t.Fatalf("call err = %v, want the death with the request pending", run.err)
	}
	if run.late != nil {
		t.Fatalf("a response after the exit before the child answered: %+v", run.late)
	}
	l.until("the child's answer", func() bool { return run.late != nil }, 20*time.Second)
	if run.late.Pair != run.reqSeq || run.late.Kind != mcpclient.KindResponse {
		t.Errorf("late event %+v, want the response to request #%d", run.late, run.reqSeq)
	}
	// Still failed: the answer is shown, not used.
	if run.res != nil || !errors.As(run.err, &exit) {
		t.Errorf("the late answer changed the call: res %+v err %v", run.res, run.err)
	}
	if st := l.m.call.callState(run, time.Now()); !strings.HasPrefix(st, "✗ failed") {
		t.Errorf("call state %q", st)
	}
	l.key("2")
	out := view(l.m)
	mustContain(t, "call pane", out, "server was killed by signal KILL", "tools/call sleep) was pending",
		"response after the server's exit", "not used", `"text":"slept"`, "no response before the server died (one came after: #")
	if strings.Contains(out, "ok · ") {
		t.Errorf("the call shows a result\n%s", out)
	}
	if !strings.Contains(l.m.flash.text, "response after the server's exit") {
		t.Errorf("status note %q", l.m.flash.text)
	}
}
