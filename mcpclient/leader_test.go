package mcpclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// Tests of caller-reads mode (Config.CallerReads, leader.go). The test binary doubles as
// the server: with MCPCLIENT_LEADER_SERVER set it runs leaderServer instead of the tests.

func init() {
	if os.Getenv("MCPCLIENT_LEADER_SERVER") != "" {
		leaderServer()
		os.Exit(0)
	}
}

// leaderServer answers initialize and tools/call. Tools: echo (the text argument back),
// chatty (before answering: a notifications/message, a ping and a roots/list request, whose
// two replies it returns as the text), later (answers, then after 150 ms sends a
// notification and a ping while the client is idle), silent (never answers), die (exits
// with status 3 without answering).
func leaderServer() {
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	send := func(v any) {
		b, _ := json.Marshal(v)
		mu.Lock()
		defer mu.Unlock()
		out.Write(append(b, '\n'))
		out.Flush()
	}
	text := func(id json.RawMessage, s string) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}})
	}
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string `json:"name"`
				Arguments struct {
					Text string `json:"text"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &req) != nil || req.ID == nil || req.Method == "" {
			continue // notifications and the client's replies
		}
		switch req.Method {
		case "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "leader", "version": "1"}}})
		case "tools/call":
			switch req.Params.Name {
			case "echo":
				text(req.ID, req.Params.Arguments.Text)
			case "chatty":
				send(map[string]any{"jsonrpc": "2.0", "method": "notifications/message", "params": map[string]any{"level": "info", "data": "working"}})
				send(map[string]any{"jsonrpc": "2.0", "id": "srv-ping", "method": "ping"})
				send(map[string]any{"jsonrpc": "2.0", "id": "srv-roots", "method": "roots/list"})
				a, _ := in.ReadBytes('\n')
				b, _ := in.ReadBytes('\n')
				text(req.ID, strings.TrimSpace(string(a))+" "+strings.TrimSpace(string(b)))
			case "later":
				text(req.ID, "now")
				go func() {
					time.Sleep(150 * time.Millisecond)
					send(map[string]any{"jsonrpc": "2.0", "method": "notifications/message", "params": map[string]any{"level": "info", "data": "idle"}})
					send(map[string]any{"jsonrpc": "2.0", "id": "idle-ping", "method": "ping"})
				}()
			case "silent":
			case "die":
				os.Exit(3)
			}
		}
	}
}

// startLeader starts leaderServer in caller-reads mode, connected; events go to the
// returned channel (buffered without bound by the client, drained here into a slice).
func startLeader(t *testing.T, mod func(*Config)) (*Client, *eventLog) {
	t.Helper()
	if !platform.PollSupported {
		t.Skip("caller-reads mode is Linux-only")
	}
	cfg := Config{Command: os.Args[0], Env: []string{"MCPCLIENT_LEADER_SERVER=1"}, ShutdownGrace: 300 * time.Millisecond, CallerReads: true}
	if mod != nil {
		mod(&cfg)
	}
	c, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if c.lr == nil {
		t.Fatal("CallerReads did not select the caller-reads reader")
	}
	log := &eventLog{changed: make(chan struct{}, 1)}
	go func() {
		for ev := range c.Events() {
			log.mu.Lock()
			log.evs = append(log.evs, ev)
			log.mu.Unlock()
			select {
			case log.changed <- struct{}{}:
			default:
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	return c, log
}

type eventLog struct {
	mu      sync.Mutex
	evs     []Event
	changed chan struct{}
}

// waitFor waits (up to 10 s, for slow machines) for an event that ok accepts.
func (l *eventLog) waitFor(t *testing.T, what string, ok func(Event) bool) Event {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		l.mu.Lock()
		for _, ev := range l.evs {
			if ok(ev) {
				l.mu.Unlock()
				return ev
			}
		}
		l.mu.Unlock()
		select {
		case <-l.changed:
		case <-deadline:
			t.Fatalf("no %s event", what)
		}
	}
}

func isMethod(dir Direction, kind Kind, method string) func(Event) bool {
	return func(ev Event) bool {
		return ev.Dir == dir && ev.Kind == kind && ev.Msg != nil && ev.Msg.Method == method
	}
}

// isReplyTo accepts our response to the server request with the given id.
func isReplyTo(id string) func(Event) bool {
	return func(ev Event) bool {
		return ev.Dir == ClientToServer && ev.Kind == KindResponse && ev.Msg != nil && string(ev.Msg.ID) == id
	}
}

func callText(t *testing.T, c *Client, ctx context.Context, tool, arg string) string {
	t.Helper()
	res, _, err := c.CallTool(ctx, tool, json.RawMessage(fmt.Sprintf(`{"text":%q}`, arg)))
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: content %+v", tool, res.Content)
	}
	return res.Content[0].Text
}

// A notification and two server requests (ping, roots/list) arrive while a caller leads:
// the caller handles them as the reader goroutine would (events, answers) and still gets
// its own response.
func TestCallerReadsServerTrafficDuringCall(t *testing.T) {
	c, log := startLeader(t, func(cfg *Config) {
		cfg.Capabilities = json.RawMessage(`{"roots":{"listChanged":false}}`)
		cfg.OnServerRequest = func(r *ServerRequest) {
			if r.Method == "roots/list" {
				_ = r.Respond(RootsResult([]Root{{URI: "file:///r", Name: "r"}}))
				return
			}
			_ = r.Fail(&RPCError{Code: -32601, Message: "no"})
		}
	})
	led := c.lr.ledFrames.Load()
	ctx := context.Background()
	got := callText(t, c, ctx, "chatty", "")
	if !strings.Contains(got, `"id":"srv-ping","result":{}`) || !strings.Contains(got, `"id":"srv-roots","result":{"roots":[{"uri":"file:///r","name":"r"}]}`) {
		t.Fatalf("the server got these replies: %s", got)
	}
	if n := c.lr.ledFrames.Load() - led; n < 4 {
		t.Fatalf("the caller handled %d frames of the call, want the 4 (notification, 2 requests, response)", n)
	}
	note := log.waitFor(t, "notifications/message", isMethod(ServerToClient, KindNotification, "notifications/message"))
	resp := log.waitFor(t, "tools/call response", func(ev Event) bool {
		return ev.Dir == ServerToClient && ev.Kind == KindResponse && ev.Method == "tools/call"
	})
	if note.Seq > resp.Seq {
		t.Fatalf("notification seq %d after the response's %d", note.Seq, resp.Seq)
	}
	log.waitFor(t, "server ping", isMethod(ServerToClient, KindRequest, "ping"))
	log.waitFor(t, "server roots/list", isMethod(ServerToClient, KindRequest, "roots/list"))
	log.waitFor(t, "our ping reply", isReplyTo(`"srv-ping"`))
	log.waitFor(t, "our roots/list reply", isReplyTo(`"srv-roots"`))
	if resp.Pair == 0 || len(resp.Problems) != 0 {
		t.Fatalf("response pair %d, problems %v", resp.Pair, resp.Problems)
	}
	// The next calls lead too.
	for i := 0; i < 20; i++ {
		if got := callText(t, c, ctx, "echo", fmt.Sprint(i)); got != fmt.Sprint(i) {
			t.Fatalf("echo %d: %q", i, got)
		}
	}
}

// What the server sends while no call is in flight is read by the background reader: the
// notification shows and the server's ping is answered; the first call after a long idle
// time reads its own response.
func TestCallerReadsIdleTraffic(t *testing.T) {
	c, log := startLeader(t, nil)
	ctx := context.Background()
	if got := callText(t, c, ctx, "later", ""); got != "now" {
		t.Fatalf("later: %q", got)
	}
	log.waitFor(t, "idle notification", func(ev Event) bool {
		return isMethod(ServerToClient, KindNotification, "notifications/message")(ev) && strings.Contains(string(ev.Msg.Params), "idle")
	})
	log.waitFor(t, "our reply to the idle ping", isReplyTo(`"idle-ping"`))
	if c.lr.idleFrames.Load() < 2 {
		t.Fatalf("background reader handled %d frames, want the notification and the ping", c.lr.idleFrames.Load())
	}
	// Idle far longer than leaderIdleDelay: the background reader waits in the runtime's
	// poller without the role, so the next call still reads its own response.
	time.Sleep(10 * leaderIdleDelay)
	led, idleRead := c.lr.ledFrames.Load(), c.lr.idleFrames.Load()
	if got := callText(t, c, ctx, "echo", "first"); got != "first" {
		t.Fatalf("echo after idle: %q", got)
	}
	if c.lr.ledFrames.Load() == led || c.lr.idleFrames.Load() != idleRead {
		t.Fatalf("the first call after idle did not read its own response (led %d→%d, background %d→%d)", led, c.lr.ledFrames.Load(), idleRead, c.lr.idleFrames.Load())
	}
	for i := 0; i < 20; i++ {
		if got := callText(t, c, ctx, "echo", fmt.Sprint(i)); got != fmt.Sprint(i) {
			t.Fatalf("echo %d: %q", i, got)
		}
	}
}

// Calls one after another wake the background reader at most once per leaderIdleDelay:
// it waits that long after each wake-up, whether or not a caller holds the role again.
func TestCallerReadsBusyKeepsBackgroundAsleep(t *testing.T) {
	c, _ := startLeader(t, nil)
	ctx := context.Background()
	callText(t, c, ctx, "echo", "warm")
	k0, start, calls := c.lr.kicks.Load(), time.Now(), 0
	for time.Since(start) < 30*leaderIdleDelay {
		callText(t, c, ctx, "echo", "x")
		calls++
	}
	elapsed := time.Since(start)
	if n, most := c.lr.kicks.Load()-k0, int64(elapsed/leaderIdleDelay)+2; n > most {
		t.Fatalf("the background reader was woken %d times in %d calls over %v, at most %d expected", n, calls, elapsed, most)
	}
}

// A leading call that times out, one whose context is cancelled and one whose context's
// deadline passes all end with the error Client.wait gives, send notifications/cancelled,
// and leave the role free for the next call.
func TestCallerReadsTimeoutAndCancel(t *testing.T) {
	c, log := startLeader(t, nil)
	ctx := context.Background()
	_, err := c.Request(ctx, "tools/call", map[string]any{"name": "silent"}, &RequestOptions{Timeout: 200 * time.Millisecond})
	var te *TimeoutError
	if !errors.As(err, &te) || te.After != 200*time.Millisecond || te.Max {
		t.Fatalf("timeout: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := c.Request(cctx, "tools/call", map[string]any{"name": "silent"}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
	dctx, dcancel := context.WithTimeout(ctx, 150*time.Millisecond)
	defer dcancel()
	if _, err := c.Request(dctx, "tools/call", map[string]any{"name": "silent"}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("deadline: %v", err)
	}
	log.waitFor(t, "the third notifications/cancelled", func(Event) bool {
		n := 0
		for _, ev := range log.evs { // waitFor holds log.mu
			if isMethod(ClientToServer, KindNotification, "notifications/cancelled")(ev) {
				n++
			}
		}
		return n == 3
	})
	led := c.lr.ledFrames.Load()
	if got := callText(t, c, ctx, "echo", "after"); got != "after" {
		t.Fatalf("echo after: %q", got)
	}
	if c.lr.ledFrames.Load() == led {
		t.Fatal("the call after the timeouts did not lead")
	}
}

// The server exits in the middle of a led call: the call fails with the exit, no hang.
func TestCallerReadsServerDies(t *testing.T) {
	c, _ := startLeader(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, _, err := c.CallTool(ctx, "die", nil)
	var ee *ExitError
	if !errors.As(err, &ee) || ee.ExitCode != 3 {
		t.Fatalf("call to a dying server: %v", err)
	}
	select {
	case <-c.Exited():
	case <-ctx.Done():
		t.Fatal("the client did not notice the exit")
	}
	if _, _, err := c.CallTool(ctx, "echo", nil); !errors.As(err, &ee) {
		t.Fatalf("call after the exit: %v", err)
	}
}

// Close while a caller leads a call the server never answers: the call ends with an error
// and Close returns.
func TestCallerReadsCloseWhileLeading(t *testing.T) {
	c, _ := startLeader(t, nil)
	done := make(chan error, 1)
	go func() {
		_, err := c.Request(context.Background(), "tools/call", map[string]any{"name": "silent"}, nil)
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	c.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("call ended without an error")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the call did not end after Close")
	}
}

// Many callers at once on one session: each gets its own response (leaders hand the role
// to followers, whose responses a leader may have read), nothing is lost or crossed.
func TestCallerReadsConcurrent(t *testing.T) {
	c, _ := startLeader(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const callers, calls = 6, 150
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for g := 0; g < callers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				want := fmt.Sprintf("%d-%d", g, i)
				res, _, err := c.CallTool(ctx, "echo", json.RawMessage(fmt.Sprintf(`{"text":%q}`, want)))
				if err != nil {
					errs <- err
					return
				}
				if len(res.Content) != 1 || res.Content[0].Text != want {
					errs <- fmt.Errorf("call %s got %+v", want, res.Content)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if c.lr.ledFrames.Load() == 0 {
		t.Fatal("no caller led")
	}
	c.lr.mu.Lock()
	defer c.lr.mu.Unlock()
	if len(c.lr.followers) != 0 {
		t.Fatalf("%d followers left waiting", len(c.lr.followers))
	}
}
