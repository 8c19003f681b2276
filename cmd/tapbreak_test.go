package cmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/tap"
)

// TestTapBreakpoints: the go-sdk client, as the host, runs the go-sdk everything-server
// through `mcp-inspect tap`; an attach (the tap package's client, as `attach` uses it) sets
// a breakpoint on tools/call, edits the first call's tool name (the host gets the other
// tool's answer), drops the second (the host gives up on it), lets the third time out (it
// goes on unchanged), and detaches while the fourth is held (it goes on unchanged). The
// trace says so.
func TestTapBreakpoints(t *testing.T) {
	bin := testservers.BuildInspector(t)
	server := testservers.GoEverything(t)
	rec := filepath.Join(t.TempDir(), "t.jsonl")
	env := tapEnv(t)
	var run string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			run = v
		}
	}
	cmd := exec.Command(bin, append([]string{"tap", "--name", "bp", "--record", rec, "--"}, server...)...)
	cmd.Env = env
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	taps, err := tap.List(filepath.Join(run, "mcp-inspect"))
	if err != nil || len(taps) != 1 {
		t.Fatalf("taps %+v, %v", taps, err)
	}
	st, err := tap.Attach(taps[0].Socket)
	if err != nil {
		t.Fatal(err)
	}
	updates := st.Updates()
	go func() {
		for {
			if _, err := st.Next(); err != nil {
				return
			}
		}
	}()
	next := func() session.HoldUpdate {
		t.Helper()
		select {
		case u := <-updates:
			return u
		case <-time.After(20 * time.Second):
			t.Fatal("no word from the tap")
		}
		return session.HoldUpdate{}
	}
	// breakOnCalls sets the one breakpoint this test uses, with the hold timeout given.
	breakOnCalls := func(timeout time.Duration) {
		t.Helper()
		if err := st.Set(session.BreakpointSet{Filters: []string{"dir:out method:tools/call"}, Timeout: timeout}); err != nil {
			t.Fatal(err)
		}
		if u := next(); u.Set == nil {
			t.Fatalf("want the breakpoints: %+v", u)
		}
	}
	breakOnCalls(time.Minute)
	call := func(msg string) <-chan string {
		out := make(chan string, 1)
		go func() {
			r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: msg})
			if err != nil {
				out <- "error: " + err.Error()
				return
			}
			out <- r.Content[0].(*mcp.TextContent).Text
		}()
		return out
	}
	got := call("test_simple_text")
	u := next()
	if u.Held == nil || !strings.Contains(string(u.Held.Raw), `"test_simple_text"`) {
		t.Fatalf("want the call held: %+v", u)
	}
	edited := strings.Replace(string(u.Held.Raw), "test_simple_text", "test_error_handling", 1)
	if err := st.Decide(u.Held.ID, session.HoldDecision{Kind: session.HoldSend, Message: []byte(edited)}); err != nil {
		t.Fatal(err)
	}
	if text := <-got; text != "this tool intentionally returns an error for testing" {
		t.Errorf("the host got %q, want the answer to the edited call", text)
	}
	if u := next(); u.Ended == nil || u.Ended.How != "edited" {
		t.Fatalf("want the first hold's end: %+v", u)
	}

	// Drop: the server never sees the call; the host's call waits until it gives up.
	dctx, dcancel := context.WithTimeout(ctx, 2*time.Second)
	dropped := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(dctx, &mcp.CallToolParams{Name: "test_simple_text"})
		dropped <- err
	}()
	u = next()
	if u.Held == nil {
		t.Fatalf("want the call held: %+v", u)
	}
	_ = st.Decide(u.Held.ID, session.HoldDecision{Kind: session.HoldDrop})
	if u := next(); u.Ended == nil || u.Ended.How != "dropped" {
		t.Fatalf("want the drop's end: %+v", u)
	}
	if err := <-dropped; err == nil {
		t.Error("the dropped call was answered")
	}
	dcancel()

	// Timeout: a hold nobody decides goes on unchanged at its deadline.
	breakOnCalls(300 * time.Millisecond)
	got = call("test_simple_text")
	if u := next(); u.Held == nil {
		t.Fatalf("want the call held: %+v", u)
	}
	if u := next(); u.Ended == nil || u.Ended.How != "timeout" {
		t.Fatalf("want the hold's timeout: %+v", u)
	}
	if text := <-got; text != "This is a simple text response for testing." {
		t.Errorf("after the hold's timeout the host got %q", text)
	}

	// Detach with the next call held: it goes on unchanged.
	breakOnCalls(time.Minute)
	got = call("test_simple_text")
	if u := next(); u.Held == nil {
		t.Fatalf("want the call held: %+v", u)
	}
	st.Close()
	if text := <-got; text != "This is a simple text response for testing." {
		t.Errorf("after detach the host got %q, want the call to go on unchanged", text)
	}
	_ = cs.Close()
	var conds []string
	for _, ev := range traceEvents(t, rec) {
		if ev.Dir == mcpclient.Lifecycle && ev.Life.Cond != "" {
			conds = append(conds, string(ev.Life.Cond))
		}
	}
	if t.Failed() {
		b, _ := os.ReadFile(rec)
		t.Log(string(b))
	}
	if g := strings.Join(conds, " "); g != "breakpoints held edited held dropped breakpoints held released breakpoints held breakpoints released" {
		t.Errorf("trace notes: %s", g)
	}
}

// TestAttachBreakUsage: --break filters that do not parse, a hold timeout that is not
// positive, and --break with --raw are usage errors before anything is attached.
func TestAttachBreakUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"attach", "x", "--break", "method:(tools"}, `--break "method:(tools": column`},
		{[]string{"attach", "x", "--break", "method:ping", "--hold-timeout", "0s"}, "--hold-timeout 0s: want a positive duration"},
		{[]string{"attach", "x", "--break", "method:ping", "--raw"}, "--break needs the TUI"},
		{[]string{"attach", "x", "--break", " "}, "an empty filter would hold every message"},
	} {
		_, errs, code := runIn(t, c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", c.args, code, errs, c.want)
		}
	}
}
