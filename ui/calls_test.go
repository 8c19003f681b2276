package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// multiSession answers tools/call like a server running calls side by side: each request
// gets its own Seq (reported through OnSent and put on the timeline), a progress
// notification paired to it, and waits until the test releases the tool (or the call is
// cancelled).
type multiSession struct {
	fakeSession
	msgs chan tea.Msg

	mu      sync.Mutex
	n       int
	release map[string]chan struct{}
}

func (s *multiSession) gate(name string) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.release[name] == nil {
		s.release[name] = make(chan struct{})
	}
	return s.release[name]
}

func (s *multiSession) Request(ctx context.Context, method string, params any, opt *mcpclient.RequestOptions) (*mcpclient.Response, error) {
	b, _ := json.Marshal(params)
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(b, &p)
	// Seqs in the order requests are sent (as on a real wire); progress by tool, so the
	// test can tell whose progress a call shows.
	progress := 9
	switch p.Name {
	case "alpha":
		progress = 1
	case "beta":
		progress = 2
	}
	s.mu.Lock()
	s.n++
	seq := uint64(100 + 10*s.n)
	req := ev(seq, mcpclient.ClientToServer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`+"\n", s.n, b))
	prog := ev(seq+1, mcpclient.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%d,"progress":%d,"total":10}}`+"\n", s.n, progress))
	prog.Pair = seq
	s.msgs <- eventsMsg{events: []mcpclient.Event{req, prog}}
	s.mu.Unlock()
	opt.OnSent(seq, json.RawMessage(fmt.Sprint(seq)))
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.gate(p.Name):
	}
	result, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": "answer " + p.Name}}})
	return &mcpclient.Response{Seq: seq + 5, RequestSeq: seq, Msg: &mcpclient.Message{Result: result}}, nil
}

// fakeLive drives the model like the runtime does (every Cmd on its own goroutine, every
// message back through Update) on a fake session.
func fakeLive(t *testing.T, s session.Conn, msgs chan tea.Msg) *live {
	l := &live{t: t, msgs: msgs, done: make(chan struct{})}
	l.m = newTestModel(t, s, 160, 40)
	l.m.dialogGuard = 0
	t.Cleanup(func() {
		close(l.done)
		l.m.abandon()
		if c := l.m.call.cancelFunc(); c != nil {
			c()
		}
	})
	l.run(l.m.Init())
	l.until("the tools", func() bool { return len(l.m.tools.tools) > 0 }, 5*time.Second)
	return l
}

// callByName calls a tool through the Tools pane's call-by-name prompt.
func (l *live) callByName(name, args string) *callRun {
	l.t.Helper()
	l.key("1", "c")
	if l.m.tools.callBy == nil {
		l.t.Fatalf("c did not open the call-by-name prompt\n%s", view(l.m))
	}
	l.m.tools.callBy.name.SetValue("")
	l.typeText(name)
	if args != "" {
		l.key("tab")
		l.typeText(args)
	}
	l.key("ctrl+s")
	if l.m.focus != paneCall || l.m.call.run == nil || l.m.call.run.tool != name {
		l.t.Fatalf("the call of %s did not start\n%s", name, view(l.m))
	}
	return l.m.call.run
}

// Two calls run side by side: each keeps its own request Seq (from OnSent, not guessed by
// tool name), its own progress and its cancel; ctrl+x cancels the shown one; the other's
// result arrives, is announced and stays browsable with ←/→.
func TestCallsRunSideBySide(t *testing.T) {
	msgs := make(chan tea.Msg, 1024)
	s := &multiSession{fakeSession: *greetSession(), msgs: msgs, release: map[string]chan struct{}{}}
	l := fakeLive(t, s, msgs)
	alpha := l.callByName("alpha", `{"x":1}`)
	beta := l.callByName("beta", "")
	defer func() {
		if t.Failed() {
			t.Logf("alpha %+v\nbeta %+v", *alpha, *beta)
		}
	}()
	l.until("both requests and their progress", func() bool {
		return alpha.reqSeq != 0 && beta.reqSeq != 0 && alpha.progress == 1 && beta.progress == 2
	}, 5*time.Second)
	if alpha.reqSeq == beta.reqSeq {
		t.Fatalf("both calls claim request #%d", alpha.reqSeq)
	}
	if !alpha.running() || !beta.running() || l.m.call.run != beta {
		t.Fatalf("the first call was lost: alpha running %v, beta running %v", alpha.running(), beta.running())
	}
	out := view(l.m)
	mustContain(t, "two calls", out, "calls (2 · 2 running)", "#2 beta", "#1 alpha", "· 1/10", "· 2/10", fmt.Sprintf("request #%d on the wire", beta.reqSeq), "ctrl+x cancels the call")
	if !strings.Contains(strings.SplitN(out, "\n", 2)[0], "2 Call") || !strings.Contains(strings.SplitN(out, "\n", 2)[0], " ×2") {
		t.Fatalf("header:\n%s", out)
	}
	// ctrl+x cancels the shown call (beta); alpha keeps running.
	l.key("ctrl+x")
	l.until("beta cancelled", func() bool { return beta.done }, 5*time.Second)
	if !errors.Is(beta.err, context.Canceled) || !alpha.running() {
		t.Fatalf("ctrl+x: beta %v, alpha running %v", beta.err, alpha.running())
	}
	close(s.gate("alpha"))
	l.until("alpha's answer", func() bool { return alpha.done }, 5*time.Second)
	if alpha.err != nil || resultText(alpha) != "answer alpha" || alpha.resp.RequestSeq != alpha.reqSeq {
		t.Fatalf("alpha: %v %q", alpha.err, resultText(alpha))
	}
	mustContain(t, "note", l.m.statusBar(), "tools/call alpha (call #1) finished")
	mustContain(t, "beta shown", view(l.m), "cancelled by you", "calls (2)", "✓", "✗ cancelled", fmt.Sprintf("request #%d, no response", beta.reqSeq))
	l.key("h")
	mustContain(t, "alpha shown", view(l.m), "answer alpha", fmt.Sprintf("request #%d → response #%d", alpha.reqSeq, alpha.reqSeq+5))
	l.key("l")
	mustContain(t, "beta again", view(l.m), "cancelled by you")
}

// ctrl+x on a finished call cancels the latest call still running.
func TestCancelTargetsLatestRunning(t *testing.T) {
	msgs := make(chan tea.Msg, 1024)
	s := &multiSession{fakeSession: *greetSession(), msgs: msgs, release: map[string]chan struct{}{}}
	l := fakeLive(t, s, msgs)
	alpha := l.callByName("alpha", "")
	close(s.gate("alpha"))
	l.until("alpha done", func() bool { return alpha.done }, 5*time.Second)
	beta := l.callByName("beta", "")
	l.key("h") // alpha (finished) shown
	if l.m.call.run != alpha {
		t.Fatal("h did not show the older call")
	}
	l.key("ctrl+x")
	l.until("beta cancelled", func() bool { return beta.done }, 5*time.Second)
	if !errors.Is(beta.err, context.Canceled) {
		t.Fatalf("beta: %v", beta.err)
	}
}

// Call by name: a tool the server did not list (B02's echo) is called with the raw JSON
// arguments typed; bad JSON is refused at the prompt.
func TestCallByNameUnlistedTool(t *testing.T) {
	t.Parallel()
	l := startLive(t, []string{fake.Binary(t), "--scenario", "b02"}, mcpclient.Config{}, Options{})
	l.until("the listing", func() bool { return !l.m.sess.Lists().InFlight(session.Tools) }, 10*time.Second)
	l.key("1", "c")
	l.typeText("echo")
	l.key("tab")
	l.typeText(`{"text":`)
	l.key("ctrl+s")
	mustContain(t, "bad JSON", view(l.m), "the arguments are not JSON")
	l.typeText(`"hello"}`)
	l.key("ctrl+s")
	run := l.m.call.run
	if run == nil || run.tool != "echo" {
		t.Fatalf("not started\n%s", view(l.m))
	}
	l.until("the answer", func() bool { return run.done }, 10*time.Second)
	if run.err != nil || resultText(run) != "hello" {
		t.Fatalf("echo: %v %q", run.err, resultText(run))
	}
	// B02: the response came in the same read as the log line before it.
	l.until("the response on the wire", func() bool { _, ok := l.m.tl.index(run.resp.Seq); return ok }, 5*time.Second)
	i, _ := l.m.tl.index(run.reqSeq)
	if got := string(l.m.tl.all()[i].Msg.Params); !strings.Contains(got, `"arguments":{"text":"hello"}`) {
		t.Fatalf("sent %s", got)
	}
	l.key("3")
	l.m.wire.jump(run.resp.Seq)
	var debug uint64
	for _, e := range l.m.tl.all() {
		if e.Dir == mcpclient.ServerToClient && string(e.Raw) == "debug: echo called\n" {
			debug = e.Seq
		}
	}
	mustContain(t, "wire", view(l.m), fmt.Sprintf("arrived in the same read as #%d", debug))
}

// B05: the Call pane says the response held invalid UTF-8 (or an unpaired surrogate) and
// where, next to the text with its replacement characters.
func TestCallShowsResponseEncodingProblems(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ scenario, want string }{
		{"b05", "⚠ invalid UTF-8 at byte 68 in the response (replacement characters shown)"},
		{"b05s", "⚠ unpaired surrogate at byte 71 in the response (shown as a replacement character)"},
	} {
		c := c
		t.Run(c.scenario, func(t *testing.T) {
			t.Parallel()
			l := startLive(t, []string{fake.Binary(t), "--scenario", c.scenario}, mcpclient.Config{}, Options{})
			l.until("tools", func() bool { return len(l.m.tools.tools) == 1 }, 10*time.Second)
			run := l.startCall("snippet")
			l.until("the answer and its frame", func() bool {
				if !run.done || run.resp == nil {
					return false
				}
				_, ok := l.m.tl.index(run.resp.Seq)
				return ok
			}, 10*time.Second)
			l.key("2")
			mustContain(t, "call pane", view(l.m), c.want, "\ufffd")
		})
	}
}

// A 5 MiB text result shows its first 64 KiB at once, says how much is left, and a shows
// all of it.
func TestCallResultPreview(t *testing.T) {
	s := greetSession()
	s.result = &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{{Type: "text", Text: strings.Repeat("x", 5<<20)}}}
	msgs := make(chan tea.Msg, 1024)
	l := fakeLive(t, s, msgs)
	run := l.callByName("big", "")
	l.until("the answer", func() bool { return run.done }, 30*time.Second)
	out := view(l.m)
	// "At once" is checked by what is drawn, not by a clock: the preview lays out a bounded
	// head of the text (64 KiB wraps to at most a few thousand lines), never all 5 MiB.
	if n := len(l.m.call.lines); n > 5000 {
		t.Errorf("the preview of a 5 MiB result laid out %d lines", n)
	}
	mustContain(t, "preview", out, "large result: a shows all (up to 16.0M) · w saves the response frame to")
	if !strings.Contains(strings.Join(l.m.call.lines, "\n"), "… 4.9M more not shown (block 1 is 5.0M)") {
		t.Fatal("the preview does not say how much is left")
	}
	preview := len(l.m.call.lines)
	l.key("a")
	if len(l.m.call.lines) < 50*preview {
		t.Fatalf("a: %d lines, preview %d", len(l.m.call.lines), preview)
	}
	mustContain(t, "all", view(l.m), "shown in full up to 16.0M: a shows the preview again")
}
