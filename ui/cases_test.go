package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// startCall selects a tool, opens its form and sends it with its defaults.
func (l *live) startCall(name string) *callRun {
	l.t.Helper()
	l.selectTool(name)
	l.key("enter", "ctrl+s")
	if l.m.call.form != nil {
		l.key("ctrl+s")
	}
	if !l.m.call.run.running() {
		l.t.Fatalf("%s not running\n%s", name, view(l.m))
	}
	return l.m.call.run
}

// B11: progress resets the idle timeout; the bar and the messages show on the call; the
// log lines reach the Logs pane.
func TestB11ProgressResetsTimeout(t *testing.T) {
	t.Parallel()
	l := startLive(t, []string{fake.Binary(t), "--scenario", "b11"},
		mcpclient.Config{Timeout: 400 * time.Millisecond, Env: []string{fake.EnvStepMS + "=150", fake.EnvSteps + "=6"}}, Options{})
	l.until("tools", func() bool { return len(l.m.tools.tools) == 1 }, 10*time.Second)
	run := l.startCall("slow")
	l.until("progress 2/6", func() bool { return run.progress >= 2 }, 10*time.Second)
	l.key("2")
	mustContain(t, "call in flight", view(l.m), "/6", "step ", "ctrl+x cancels the call")
	l.until("the result", func() bool { return run.done }, 10*time.Second)
	if run.err != nil || resultText(run) != "done" {
		t.Fatalf("B11: %v %q", run.err, resultText(run))
	}
	if run.elapsed < 800*time.Millisecond {
		t.Fatalf("finished after %s: the 400ms timeout was never at stake", run.elapsed)
	}
	l.until("the last log line", func() bool {
		n := len(l.m.logs.entries)
		return n > 0 && l.m.logs.entries[n-1].text == "working 6/6"
	}, 5*time.Second)
	l.key("7")
	mustContain(t, "logs", view(l.m), "info     working 1/6", "working 6/6")
}

// B12: ctrl+x sends notifications/cancelled with the request's exact id, the call is marked
// cancelled at once, the server stays up.
func TestB12Cancel(t *testing.T) {
	t.Parallel()
	l := startLive(t, []string{fake.Binary(t), "--scenario", "b12"}, mcpclient.Config{Env: []string{fake.EnvSleepMS + "=20000"}}, Options{})
	l.until("tools", func() bool { return len(l.m.tools.tools) == 1 }, 10*time.Second)
	run := l.startCall("sleep")
	// The call knows its request's Seq (OnSent) maybe before the event reaches the timeline.
	l.until("the request on the wire", func() bool { _, ok := l.m.tl.index(run.reqSeq); return run.reqSeq != 0 && ok }, 10*time.Second)
	i, _ := l.m.tl.index(run.reqSeq)
	id := string(l.m.tl.all()[i].Msg.ID)
	l.key("ctrl+x")
	l.until("the cancel", func() bool { return run.done }, 5*time.Second)
	if !errors.Is(run.err, context.Canceled) {
		t.Fatalf("B12: %v", run.err)
	}
	var sent bool
	l.until("notifications/cancelled on the wire", func() bool {
		for _, ev := range l.m.tl.all() {
			if ev.Dir == mcpclient.ClientToServer && ev.Msg != nil && ev.Msg.Method == "notifications/cancelled" {
				var p struct {
					RequestID json.RawMessage `json:"requestId"`
				}
				_ = json.Unmarshal(ev.Msg.Params, &p)
				sent = string(p.RequestID) == id
			}
		}
		return sent
	}, 5*time.Second)
	l.until("the server's stderr", func() bool { return len(l.m.tl.stderrTail(5)) > 0 }, 5*time.Second)
	if tail := l.m.tl.stderrTail(5); tail[len(tail)-1] != "cancelled request "+id {
		t.Fatalf("stderr %q", tail)
	}
	mustContain(t, "call view", view(l.m), "cancelled by you")
	l.key("P")
	l.until("ping", func() bool { return l.m.state().Ping.Seen }, 5*time.Second)
	if l.m.state().Ping.Err != nil || l.m.state().Failed() {
		t.Fatalf("server not up after cancel: %v", l.m.state().Ping.Err)
	}
}

// B12b: the server answers anyway; the late response is shown as "response after cancel",
// never as a result.
func TestB12bLateResponse(t *testing.T) {
	t.Parallel()
	l := startLive(t, []string{fake.Binary(t), "--scenario", "b12b"}, mcpclient.Config{Env: []string{fake.EnvSleepMS + "=700"}}, Options{})
	l.until("tools", func() bool { return len(l.m.tools.tools) == 1 }, 10*time.Second)
	run := l.startCall("sleep")
	l.until("the request on the wire", func() bool { return run.reqSeq != 0 }, 10*time.Second)
	l.key("ctrl+x")
	l.until("the late response", func() bool { return run.late != nil }, 5*time.Second)
	if !errors.Is(run.err, context.Canceled) || run.res != nil {
		t.Fatalf("the late answer became a result: %+v", run)
	}
	l.key("2")
	mustContain(t, "call view", view(l.m), "cancelled by you", "response after cancel", `"text":"slept"`)
	l.key("7")
	mustContain(t, "logs", view(l.m), "response after cancel: tools/call")
}

// B13: a server→client request with id 1 during tools/call is answered through a dialog;
// the reply becomes the tool's result. Without the capability it gets -32601 at once.
func TestB13ServerRequests(t *testing.T) {
	t.Parallel()
	bin := fake.Binary(t)
	cases := []struct {
		scenario string
		features session.ClientFeatures
		answer   answerer
		want     string
		isError  bool
	}{
		{"b13", session.ClientFeatures{}, func(l *live, d requestDialog) {
			mustContain(t, "sampling dialog", view(l.m), "sampling/createMessage · request id 1", "Say hi", "maxTokens 50", "asked while tools/call summarize is pending")
			l.typeText("hi from the user")
			l.key("ctrl+s")
		}, "hi from the user", false},
		{"b13", session.ClientFeatures{NoSampling: true}, nil, "Method not found", true},
		{"b13-roots", session.ClientFeatures{}, defaultAnswer, `{"roots":[{"uri":"file:///srv/data","name":"data"}]}`, false},
		{"b13-roots", session.ClientFeatures{NoRoots: true}, nil, "Method not found", true},
		{"b13-elicit", session.ClientFeatures{}, func(l *live, d requestDialog) {
			mustContain(t, "elicit dialog", view(l.m), "elicitation/create (form)", "Your name?")
			l.typeText("Ann")
			l.key("ctrl+s")
		}, `{"action":"accept","content":{"name":"Ann"}}`, false},
		{"b13-elicit", session.ClientFeatures{}, func(l *live, d requestDialog) { l.key("ctrl+d") }, `{"action":"decline"}`, false},
	}
	for _, c := range cases {
		c := c
		t.Run(c.scenario, func(t *testing.T) {
			t.Parallel()
			l := startLive(t, []string{bin, "--scenario", c.scenario}, mcpclient.Config{Env: []string{fake.EnvWaitMS + "=20000"}},
				Options{Features: c.features, Roots: []string{"file:///srv/data"}})
			l.until("tools", func() bool { return len(l.m.tools.tools) == 1 }, 10*time.Second)
			run := l.callTool("summarize", "", c.answer, nil)
			if run.err != nil || run.res.IsError != c.isError || !strings.Contains(resultText(run), c.want) {
				t.Fatalf("%s: %v isError=%v %q, want %q", c.scenario, run.err, run.res.IsError, resultText(run), c.want)
			}
			for _, ev := range l.m.tl.all() {
				if ev.Kind == mcpclient.KindResponse && ev.Dir == mcpclient.ServerToClient && string(ev.Msg.ID) == "1" && ev.Method == "summarize" {
					t.Fatal("the server's id 1 was paired with our request 1")
				}
			}
		})
	}
}

// A server whose nextCursor never advances, or whose pages never end: every list stops
// with a visible warning, nothing loops or hangs.
func TestPaginationNeverEnds(t *testing.T) {
	t.Parallel()
	bin := fake.Binary(t)
	for _, c := range []struct{ scenario, warn string }{
		{"paging-stuck", `cursor "same" repeated`},
		{"paging-endless", "stopped after 1000 pages"},
	} {
		c := c
		t.Run(c.scenario, func(t *testing.T) {
			t.Parallel()
			l := startLive(t, []string{bin, "--scenario", c.scenario}, mcpclient.Config{}, Options{})
			l.until("all lists", func() bool {
				return len(l.m.tools.tools) > 0 && l.m.resources.listed && l.m.prompts.listed
			}, 60*time.Second)
			server := strings.Join(l.m.serverLines(160), "\n")
			for _, method := range []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"} {
				if !strings.Contains(server, method) {
					t.Errorf("no warning for %s\n%s", method, server)
				}
			}
			mustContain(t, "server pane", server, c.warn)
			l.key("5")
			mustContain(t, "resources pane", view(l.m), "⚠ ", c.warn)
			l.key("6")
			mustContain(t, "prompts pane", view(l.m), c.warn)
		})
	}
}
