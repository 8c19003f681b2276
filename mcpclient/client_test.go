package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// collect drains a client's events in the background; wait() returns them once the stream closes.
type collector struct {
	done chan []Event
}

func collect(c *Client) *collector {
	col := &collector{done: make(chan []Event, 1)}
	go func() {
		var evs []Event
		for ev := range c.Events() {
			evs = append(evs, ev)
		}
		col.done <- evs
	}()
	return col
}

func (col *collector) wait(t *testing.T) []Event {
	t.Helper()
	select {
	case evs := <-col.done:
		return evs
	case <-time.After(10 * time.Second):
		t.Fatal("event stream did not close")
		return nil
	}
}

func startHelper(t *testing.T, mode string, mod func(*Config)) (*Client, *collector) {
	t.Helper()
	cfg := helperConfig(mode)
	if mod != nil {
		mod(&cfg)
	}
	c, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, collect(c)
}

func TestHandshakeListCallAndOrderedEvents(t *testing.T) {
	c, col := startHelper(t, "ok", nil)
	ctx := context.Background()
	res, err := c.Initialize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != "helper" || res.ProtocolVersion != "2025-11-25" || res.Caps.Tools == nil {
		t.Fatalf("initialize result %+v", res)
	}
	tools, _, err := c.ListTools(ctx)
	if err != nil || len(tools) != 1 || tools[0].Name != "echo" {
		t.Fatalf("tools %v err %v", tools, err)
	}
	out, resp, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"x"}`))
	if err != nil || out.Content[0].Text != "hi" || resp.Elapsed <= 0 {
		t.Fatalf("call %+v %v", out, err)
	}
	c.Close()
	evs := col.wait(t)
	var last uint64
	reqs := map[uint64]Event{}
	sawInitialized := false
	for _, ev := range evs {
		if ev.Seq != last+1 {
			t.Fatalf("sequence gap: %d after %d", ev.Seq, last)
		}
		last = ev.Seq
		if ev.Dir == ClientToServer && ev.Kind == KindRequest {
			reqs[ev.Seq] = ev
		}
		if ev.Dir == ClientToServer && ev.Kind == KindNotification && ev.Msg.Method == "notifications/initialized" {
			sawInitialized = true
		}
		if ev.Dir == ServerToClient && ev.Kind == KindResponse {
			req, ok := reqs[ev.Pair]
			if !ok || string(req.Msg.ID) != string(ev.Msg.ID) || ev.Method != req.Msg.Method {
				t.Errorf("response %s not paired with its request (pair %d)", ev.Msg.ID, ev.Pair)
			}
		}
	}
	if !sawInitialized {
		t.Error("notifications/initialized was not sent")
	}
	if evs[0].Life == nil || evs[0].Life.Kind != LifeStarted || evs[0].Life.PID != c.PID() {
		t.Errorf("first event should be the start with the pid, got %+v", evs[0])
	}
	if l := evs[len(evs)-1].Life; l == nil || l.Kind != LifeExited {
		t.Errorf("last event should be the exit, got %+v", evs[len(evs)-1])
	}
	// tools/call carries a progress token equal to its id.
	for _, ev := range reqs {
		if ev.Msg.Method == "tools/call" && !strings.Contains(string(ev.Msg.Params), `"progressToken":`+string(ev.Msg.ID)) {
			t.Errorf("tools/call params lack the progress token: %s", ev.Msg.Params)
		}
		if ev.Msg.Method == "initialize" && strings.Contains(string(ev.Msg.Params), "progressToken") {
			t.Errorf("initialize must not carry a progress token")
		}
	}
}

func TestProgressResetsTimeout(t *testing.T) {
	// Case B11 in small: progress every 150 ms for 1.8 s, with a 1 s timeout (the gaps stay
	// far under it even on a loaded machine; the whole call does not).
	c, _ := startHelper(t, "ok", func(cfg *Config) { cfg.Timeout = time.Second })
	ctx := context.Background()
	if _, err := c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	out, _, err := c.CallTool(ctx, "progress", nil)
	if err != nil {
		t.Fatalf("a call that reports progress must not time out: %v", err)
	}
	if out.Content[0].Text != "done" {
		t.Fatalf("result %+v", out)
	}
}

func TestTimeoutSendsCancelAndFlagsLateResponse(t *testing.T) {
	// The timeout also bounds initialize, which a loaded machine's helper can take 200 ms to answer.
	c, col := startHelper(t, "ok", func(cfg *Config) { cfg.Timeout = time.Second })
	ctx := context.Background()
	if _, err := c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.CallTool(ctx, "silent", nil)
	var te *TimeoutError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "tools/call silent") {
		t.Fatalf("want a timeout naming the request, got %v", err)
	}
	c.Close()
	found := false
	for _, ev := range col.wait(t) {
		if ev.Dir == ClientToServer && ev.Msg != nil && ev.Msg.Method == "notifications/cancelled" {
			found = strings.Contains(string(ev.Msg.Params), `"requestId":2`)
		}
	}
	if !found {
		t.Error("no notifications/cancelled with requestId 2 after the timeout")
	}
}

func TestContextCancelSendsCancelled(t *testing.T) {
	c, col := startHelper(t, "ok", nil)
	if _, err := c.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	start := time.Now()
	_, _, err := c.CallTool(ctx, "silent", nil)
	if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
		t.Fatalf("cancel should return at once with context.Canceled, got %v after %v", err, time.Since(start))
	}
	c.Close()
	var sawCancel bool
	for _, ev := range col.wait(t) {
		if ev.Msg != nil && ev.Msg.Method == "notifications/cancelled" {
			sawCancel = true
		}
	}
	if !sawCancel {
		t.Error("notifications/cancelled not sent")
	}
}

func TestServerRequestGetsMethodNotFoundAndSeparateIDs(t *testing.T) {
	// Case B13 without the sampling capability: the server's id 1 must not resolve our request 1,
	// and the server gets -32601 at once.
	c, col := startHelper(t, "ok", nil)
	ctx := context.Background()
	if _, err := c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	out, _, err := c.CallTool(ctx, "ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Content[0].Text, `"code":-32601`) || !strings.Contains(out.Content[0].Text, `"id":1`) {
		t.Fatalf("the server should have received a -32601 reply for its id 1, got %s", out.Content[0].Text)
	}
	c.Close()
	for _, ev := range col.wait(t) {
		if hasProblem(ev.Problems, "unknown-id") || hasProblem(ev.Problems, "duplicate-response") {
			t.Errorf("unexpected pairing problem: %+v", ev.Problems)
		}
	}
}

func TestCloseEscalatesToKillAndCleansGroup(t *testing.T) {
	c, col := startHelper(t, "ignore-term", nil)
	if _, err := c.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Close()
	var steps []string
	var exit *LifeInfo
	for _, ev := range col.wait(t) {
		if ev.Life != nil && ev.Life.Kind == LifeShutdown {
			steps = append(steps, ev.Life.Text)
		}
		if ev.Life != nil && ev.Life.Kind == LifeExited {
			exit = ev.Life
		}
	}
	if len(steps) != 3 {
		t.Fatalf("want close stdin, %s, %s steps; got %q", ShutdownTerminate, ShutdownKill, steps)
	}
	// Killed: by SIGKILL on Unix; on Windows TerminateJobObject leaves exit code 1.
	if exit == nil || (runtime.GOOS != "windows" && exit.Signal != "KILL") || (runtime.GOOS == "windows" && exit.ExitCode != 1) {
		t.Fatalf("want exit by %s, got %+v", ShutdownKill, exit)
	}
	if c.tree.Alive() {
		t.Error("process tree still alive after Close")
	}
}

func TestCloseKillsForkedChildren(t *testing.T) {
	c, col := startHelper(t, "fork", nil)
	if _, err := c.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Close()
	grandchild := 0
	for _, ev := range col.wait(t) {
		if ev.Dir == Stderr {
			fmt.Sscanf(string(ev.Raw), "grandchild %d", &grandchild)
		}
	}
	if grandchild == 0 {
		t.Fatal("the server did not say its grandchild's pid")
	}
	deadline := time.Now().Add(5 * time.Second)
	for processLives(grandchild) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if processLives(grandchild) || c.tree.Alive() {
		t.Errorf("a forked child (pid %d) outlived Close", grandchild)
	}
}

func TestRequestsAfterDeathFailAtOnce(t *testing.T) {
	c, _ := startHelper(t, "ok", nil)
	if _, err := c.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p, err := os.FindProcess(c.PID()); err == nil {
		p.Kill()
	}
	<-c.Exited()
	start := time.Now()
	_, _, err := c.CallTool(context.Background(), "echo", nil)
	var ee *ExitError
	// "At once" means without waiting for the 60 s request timeout; the bound leaves room
	// for a loaded CI machine.
	// Killed: SIGKILL on Unix; on Windows os.Process.Kill (TerminateProcess) leaves code 1.
	killed := errors.As(err, &ee) && ee.Signal == "KILL"
	if runtime.GOOS == "windows" {
		killed = errors.As(err, &ee) && ee.ExitCode == 1
	}
	if !killed || time.Since(start) > 5*time.Second {
		t.Fatalf("want an immediate ExitError of a killed server, got %v after %v", err, time.Since(start))
	}
	if !strings.Contains(err.Error(), "request id 2 (tools/call echo)") {
		t.Errorf("error should name the request: %v", err)
	}
	if c.State() != StateDead {
		t.Errorf("state %v, want dead", c.State())
	}
}

func TestSpawnFailure(t *testing.T) {
	c, err := Start(Config{Command: "/nonexistent/mcp-server-xyz"})
	var se *SpawnError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "/nonexistent/mcp-server-xyz") {
		t.Fatalf("want a SpawnError naming the command, got %v", err)
	}
	var evs []Event
	for ev := range c.Events() {
		evs = append(evs, ev)
	}
	if len(evs) != 1 || evs[0].Life.Kind != LifeSpawnFailed {
		t.Fatalf("want one spawn-failed event, got %+v", evs)
	}
	if _, err := c.Initialize(context.Background()); err == nil {
		t.Fatal("requests on a client that never started must fail")
	}
}

func BenchmarkRoundTrip(b *testing.B) {
	c, err := Start(helperConfig("ok"))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	go func() {
		for range c.Events() {
		}
	}()
	ctx := context.Background()
	if _, err := c.Initialize(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"x"}`)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestOnEventSeesEveryEventInOrderBeforeCloseReturns(t *testing.T) {
	var observed []uint64
	c, col := startHelper(t, "ok", func(cfg *Config) {
		cfg.OnEvent = func(ev Event) { observed = append(observed, ev.Seq) }
	})
	if _, err := c.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Close()
	evs := col.wait(t)
	if len(observed) != len(evs) {
		t.Fatalf("observer saw %d events, the stream had %d", len(observed), len(evs))
	}
	for i, ev := range evs {
		if observed[i] != ev.Seq {
			t.Fatalf("observer order differs at %d: %d vs %d", i, observed[i], ev.Seq)
		}
	}
}

func TestBuildParamsKeepsOrder(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{nil, `{"_meta":{"progressToken":7}}`},
		{json.RawMessage(`{"name":"echo","arguments":{"b":1,"a":2}}`), `{"name":"echo","arguments":{"b":1,"a":2},"_meta":{"progressToken":7}}`},
		{json.RawMessage(`{}`), `{"_meta":{"progressToken":7}}`},
		{json.RawMessage(`{"_meta":{"x":1},"name":"n"}`), `{"_meta":{"progressToken":7,"x":1},"name":"n"}`},
		{json.RawMessage(`{"_meta":{"progressToken":"mine"}}`), `{"_meta":{"progressToken":"mine"}}`},
		// Raw objects keep their spacing; line breaks go (one message, one line).
		{json.RawMessage(`{ "a" : 1 }`), `{ "a" : 1 ,"_meta":{"progressToken":7}}`},
		{json.RawMessage("{\n  \"a\": [1,\n 2]\n}"), `{"a":[1,2],"_meta":{"progressToken":7}}`},
		{json.RawMessage(`{ }`), `{ "_meta":{"progressToken":7}}`},
		{json.RawMessage(`{"a":`), `{"a":`}, // not JSON: sent as given
		// Go values (json.Marshal's output, spliced without a second decode).
		{struct {
			Name string `json:"name"`
			Args any    `json:"arguments,omitempty"`
		}{"echo", map[string]int{"b": 1}}, `{"name":"echo","arguments":{"b":1},"_meta":{"progressToken":7}}`},
		{struct{}{}, `{"_meta":{"progressToken":7}}`},
		{map[string]any{"_meta": map[string]int{"x": 1}}, `{"_meta":{"progressToken":7,"x":1}}`},
		{map[string]string{"text": `say "_meta"`}, `{"text":"say \"_meta\"","_meta":{"progressToken":7}}`},
		{map[string]string{"text": `"_meta"`, "z": "1"}, `{"text":"\"_meta\"","z":"1","_meta":{"progressToken":7}}`},
		{[]int{1}, `[1]`},
	} {
		got, err := buildParams(tc.in, []metaEntry{{"progressToken", json.RawMessage("7")}})
		if err != nil || string(got) != tc.want {
			t.Errorf("buildParams(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

// TestSIGKILLedInspectorLeavesNoGrandchild: the inspector is killed outright, with no
// chance to shut its server down. On Linux the parent-death signal takes the server and the
// watchdog its children; on macOS the watchdog takes them all; on Windows closing the Job
// Object's last handle (the dead inspector's) does.
func TestSIGKILLedInspectorLeavesNoGrandchild(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "MCPCLIENT_HELPER=inspector")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var server, grandchild int
	if _, err := fmt.Fscan(out, &server, &grandchild); err != nil {
		t.Fatal(err)
	}
	if !platform.ProcessExists(server) || !platform.ProcessExists(grandchild) {
		t.Fatalf("server %d or grandchild %d not running", server, grandchild)
	}
	cmd.Process.Kill()
	cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for (processLives(server) || processLives(grandchild)) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if processLives(server) || processLives(grandchild) {
		t.Fatalf("after the inspector was killed: server %d lives %v, grandchild %d lives %v", server, processLives(server), grandchild, processLives(grandchild))
	}
}

// TestCloseAnswersRequestsAlreadyHandled: a server request that came just before the
// response a caller was waiting for, answered at once by OnServerRequest (as the headless
// commands do), is written before Close closes the server's stdin.
func TestCloseAnswersRequestsAlreadyHandled(t *testing.T) {
	c, col := startHelper(t, "ok", func(cfg *Config) {
		cfg.Capabilities = json.RawMessage(`{"roots":{}}`)
		cfg.OnServerRequest = func(r *ServerRequest) {
			time.Sleep(50 * time.Millisecond) // an answer that takes a moment to build
			_ = r.Respond(json.RawMessage(`{"roots":[]}`))
		}
	})
	ctx := context.Background()
	if _, err := c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.CallTool(ctx, "ask-then-answer", nil); err != nil {
		t.Fatal(err)
	}
	c.Close()
	for _, ev := range col.wait(t) {
		if ev.Dir == ClientToServer && ev.Kind == KindResponse && strings.Contains(string(ev.Raw), `"late-ask"`) {
			return
		}
	}
	t.Fatal("the roots/list that came just before the call's response was never answered")
}

// processLives reports whether process pid still runs (a zombie does not).
func processLives(pid int) bool { return platformtest.Running(pid) }

// TestSpawnErrorNamesTheDotPath: a program found only through the current directory (".",
// on PATH here; cmd.exe's own lookup on Windows) is not run by Go, and the error says how
// to run it.
func TestSpawnErrorNamesTheDotPath(t *testing.T) {
	e := &SpawnError{Argv: []string{"myserver", "--x"}, Err: &exec.Error{Name: "myserver", Err: exec.ErrDot}}
	want := "; to run the one in the current directory, give its path: ." + string(filepath.Separator) + "myserver"
	if !strings.HasSuffix(e.Error(), want) || !strings.HasPrefix(e.Error(), `cannot start server "myserver --x": `) {
		t.Errorf("%q", e.Error())
	}
	if e := (&SpawnError{Argv: []string{`C:\srv\a b.exe`}, Err: exec.ErrNotFound}); !strings.HasPrefix(e.Error(), `cannot start server "C:\srv\a b.exe": `) {
		t.Errorf("a Windows path is quoted with its backslashes doubled: %q", e.Error())
	}
}
