package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Tests for the cases of ../shared/cases.md that concern the wire layer, each against the
// scriptable fake server in internal/fake.

type session struct {
	c    *mcpclient.Client
	evs  chan mcpclient.Event
	done chan []mcpclient.Event
}

func startFake(t *testing.T, scenario string, mod func(*mcpclient.Config)) *session {
	t.Helper()
	cfg := mcpclient.Config{Command: fake.Binary(t), Args: []string{"--scenario", scenario}, Timeout: 10 * time.Second, ShutdownGrace: 500 * time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	c, err := mcpclient.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{c: c, done: make(chan []mcpclient.Event, 1)}
	go func() {
		var all []mcpclient.Event
		for ev := range c.Events() {
			all = append(all, ev)
		}
		s.done <- all
	}()
	t.Cleanup(func() { c.Close() })
	return s
}

// events closes the session and returns the whole timeline.
func (s *session) events(t *testing.T) []mcpclient.Event {
	t.Helper()
	s.c.Close()
	select {
	case evs := <-s.done:
		return evs
	case <-time.After(10 * time.Second):
		t.Fatal("event stream did not end")
		return nil
	}
}

func problem(ev mcpclient.Event, code mcpclient.ProblemCode) *mcpclient.Problem {
	for i := range ev.Problems {
		if ev.Problems[i].Code == code {
			return &ev.Problems[i]
		}
	}
	return nil
}

func stdoutFrames(evs []mcpclient.Event) []mcpclient.Event {
	var out []mcpclient.Event
	for _, ev := range evs {
		if ev.Dir == mcpclient.ServerToClient {
			out = append(out, ev)
		}
	}
	return out
}

func TestB01StdoutPollution(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		kind     mcpclient.Kind
		code     mcpclient.ProblemCode
	}{{"b01", mcpclient.KindNotJSON, "not-json"}, {"b01b", mcpclient.KindNotJSONRPC, "not-jsonrpc"}} {
		t.Run(tc.scenario, func(t *testing.T) {
			s := startFake(t, tc.scenario, nil)
			ctx := context.Background()
			if _, err := s.c.Initialize(ctx); err != nil {
				t.Fatalf("the handshake must survive stray stdout lines: %v", err)
			}
			tools, _, err := s.c.ListTools(ctx)
			if err != nil || len(tools) != 1 || tools[0].Name != "echo" {
				t.Fatalf("the response after a stray line must still be matched: %v %v", tools, err)
			}
			var stray []mcpclient.Event
			for _, ev := range stdoutFrames(s.events(t)) {
				if !ev.Kind.IsMessage() {
					stray = append(stray, ev)
					if ev.Kind != tc.kind || problem(ev, tc.code) == nil {
						t.Errorf("stray line %q classified %v %+v, want %v/%s", ev.Raw, ev.Kind, ev.Problems, tc.kind, tc.code)
					}
					if ev.Line == 0 || (ev.Offset == 0 && ev.Line > 1) {
						t.Errorf("stray line lacks its line number/offset: line %d offset %d", ev.Line, ev.Offset)
					}
				}
			}
			if len(stray) < 2 {
				t.Fatalf("want the startup and per-request stray lines, got %d", len(stray))
			}
		})
	}
}

func TestB02SplitAndCoalescedReads(t *testing.T) {
	for scenario, want := range map[string]string{
		"b02":  "response notification response not JSON response",
		"b02b": "response notification response response",
	} {
		t.Run(scenario, func(t *testing.T) {
			s := startFake(t, scenario, nil)
			ctx := context.Background()
			if _, err := s.c.Initialize(ctx); err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.c.ListTools(ctx); err != nil {
				t.Fatal(err)
			}
			out, _, err := s.c.CallTool(ctx, "echo", json.RawMessage(`{"text":"hi"}`))
			if err != nil || out.Content[0].Text != "hi" {
				t.Fatalf("echo: %+v %v", out, err)
			}
			var kinds []string
			var split bool
			for _, ev := range stdoutFrames(s.events(t)) {
				kinds = append(kinds, ev.Kind.String())
				if ev.ChunkCount > 0 {
					split = true
				}
			}
			if got := strings.Join(kinds, " "); got != want {
				t.Errorf("frames %q, want %q (exactly one entry per line, none dropped)", got, want)
			}
			if !split {
				t.Error("no frame shows a read boundary, though the server split its writes")
			}
		})
	}
}

func TestB03LongLines(t *testing.T) {
	s := startFake(t, "b03", nil)
	ctx := context.Background()
	if _, err := s.c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	tools, _, err := s.c.ListTools(ctx)
	if err != nil || len(tools) != 400 {
		t.Fatalf("a ~150 KB tools/list must arrive whole: %d tools, %v", len(tools), err)
	}
	for _, n := range []int{65400, 65536 + 100, 1 << 20, 5 << 20} {
		out, _, err := s.c.CallTool(ctx, "big", json.RawMessage(`{"bytes":`+itoa(n)+`}`))
		if err != nil || len(out.Content[0].Text) != n {
			t.Fatalf("big %d: err %v", n, err)
		}
	}
	s.events(t)
}

func TestB03OverTheLimit(t *testing.T) {
	s := startFake(t, "b03", func(c *mcpclient.Config) { c.MaxMessage = 1 << 20; c.Timeout = 2 * time.Second })
	ctx := context.Background()
	if _, err := s.c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, _, err := s.c.CallTool(ctx, "big", json.RawMessage(`{"bytes":2000000}`))
	var oe *mcpclient.OversizeError
	if !errors.As(err, &oe) || time.Since(start) > time.Second {
		t.Fatalf("an oversize response whose head shows the id must fail its request at once, got %v after %v", err, time.Since(start))
	}
	if !strings.Contains(err.Error(), "1048576-byte limit") || oe.Size < 2000000 {
		t.Errorf("the error must name size and limit: %v", err)
	}
	// The session goes on after the oversize frame.
	if out, _, err := s.c.CallTool(ctx, "big", json.RawMessage(`{"bytes":10}`)); err != nil || len(out.Content[0].Text) != 10 {
		t.Fatalf("session should survive an oversize frame: %v", err)
	}
	var over *mcpclient.Event
	for _, ev := range stdoutFrames(s.events(t)) {
		if ev.Kind == mcpclient.KindOversize {
			ev := ev
			over = &ev
		}
	}
	if over == nil || over.Size < 2000000 || problem(*over, "oversize") == nil || !strings.Contains(problem(*over, "oversize").Text, "1048576") {
		t.Fatalf("want an oversize event naming size and limit, got %+v", over)
	}
}

func TestB05InvalidUTF8(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		code     mcpclient.ProblemCode
	}{{"b05", "invalid-utf8"}, {"b05s", "unpaired-surrogate"}} {
		t.Run(tc.scenario, func(t *testing.T) {
			s := startFake(t, tc.scenario, nil)
			ctx := context.Background()
			if _, err := s.c.Initialize(ctx); err != nil {
				t.Fatal(err)
			}
			out, _, err := s.c.CallTool(ctx, "snippet", nil)
			if err != nil {
				t.Fatalf("the response must be matched to its id, never hang: %v", err)
			}
			if len(out.Content) != 1 {
				t.Fatalf("content %+v", out.Content)
			}
			var flagged bool
			for _, ev := range stdoutFrames(s.events(t)) {
				if p := problem(ev, tc.code); p != nil && ev.Kind == mcpclient.KindResponse {
					flagged = true
					if tc.code == "invalid-utf8" && !strings.Contains(p.Text, "C7 D1 B1 DB") {
						t.Errorf("the warning should show the bad bytes: %s", p.Text)
					}
				}
			}
			if !flagged {
				t.Errorf("no %s warning on the response", tc.code)
			}
		})
	}
}

func TestB07MessageBeforeInitialize(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		extra    mcpclient.ProblemCode
	}{{"b07", ""}, {"b07b", "unknown-notification"}} {
		t.Run(tc.scenario, func(t *testing.T) {
			s := startFake(t, tc.scenario, nil)
			// No wait: initialize is usually written before the server's start-up line
			// arrives, and the line is still flagged (it came before initialize's answer).
			res, err := s.c.Initialize(context.Background())
			if err != nil || res.ServerInfo.Name != "demo-server" {
				t.Fatalf("handshake must complete normally: %+v %v", res, err)
			}
			frames := stdoutFrames(s.events(t))
			first := frames[0]
			if first.Kind != mcpclient.KindNotification || problem(first, "before-initialize") == nil {
				t.Fatalf("first frame %v %+v: want a notification flagged before-initialize", first.Kind, first.Problems)
			}
			if tc.extra != "" && problem(first, tc.extra) == nil {
				t.Errorf("want %s on %q", tc.extra, first.Raw)
			}
			if frames[1].Kind != mcpclient.KindResponse || frames[1].Method != "initialize" {
				t.Errorf("the initialize response must be the second frame and paired: %+v", frames[1])
			}
		})
	}
}

// TestB07UnderAutoEra: with --era auto the handshake starts with the server/discover probe,
// and the start-up line, written before the server handled it, is flagged all the same.
func TestB07UnderAutoEra(t *testing.T) {
	s := startFake(t, "b07", func(c *mcpclient.Config) { c.Era = mcpclient.EraAuto })
	res, err := s.c.Connect(context.Background())
	if err != nil || res.ServerInfo.Name != "demo-server" || res.Era != mcpclient.EraLegacy {
		t.Fatalf("the probe falls back and the handshake completes: %+v %v", res, err)
	}
	frames := stdoutFrames(s.events(t))
	if first := frames[0]; first.Kind != mcpclient.KindNotification || problem(first, "before-initialize") == nil {
		t.Fatalf("first frame %v %+v: want the notification flagged before-initialize", first.Kind, first.Problems)
	}
	for _, f := range frames[1:] {
		if problem(f, "before-initialize") != nil {
			t.Errorf("frame %d (%s) flagged too: %+v", f.Seq, f.Raw, f.Problems)
		}
	}
}

func TestB09ExitAtStartup(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		how      string
		stderr   string
	}{
		{"b09", "exited with code 2", "error: required environment variable DEMO_API_KEY is not set"},
		{"b09-exit0", "exited with code 0", ""},
		{"b09-halfline", "exited with code 1", ""},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			s := startFake(t, tc.scenario, func(c *mcpclient.Config) { c.Timeout = 30 * time.Second })
			start := time.Now()
			_, err := s.c.Initialize(context.Background())
			took := time.Since(start)
			var ee *mcpclient.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("want an ExitError, got %v", err)
			}
			if took > 2*time.Second {
				t.Errorf("the exit must fail initialize at once, not after a timeout: took %v", took)
			}
			if ee.How() != tc.how || !strings.Contains(err.Error(), "request id 1 (initialize)") {
				t.Errorf("error %q: want %q naming the initialize request", err, tc.how)
			}
			if tc.stderr != "" && (len(ee.Stderr) == 0 || ee.Stderr[len(ee.Stderr)-1] != tc.stderr) {
				t.Errorf("last stderr lines %q, want %q", ee.Stderr, tc.stderr)
			}
			evs := s.events(t)
			var exit bool
			for _, ev := range evs {
				exit = exit || (ev.Life != nil && ev.Life.Kind == mcpclient.LifeExited)
				if tc.scenario == "b09-halfline" && ev.Dir == mcpclient.ServerToClient && ev.Kind != mcpclient.KindPartial && !ev.Kind.IsMessage() {
					t.Errorf("half line classified %v", ev.Kind)
				}
			}
			if !exit {
				t.Error("no exit event in the timeline")
			}
		})
	}
}

func TestB09CommandNotFound(t *testing.T) {
	_, err := mcpclient.Start(mcpclient.Config{Command: "definitely-not-an-mcp-server-xyz"})
	var se *mcpclient.SpawnError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "executable file not found") {
		t.Fatalf("want a spawn error that says the executable was not found, got %v", err)
	}
}

func TestB10CrashDuringRequest(t *testing.T) {
	for _, tc := range []struct{ scenario, how, stderr string }{
		{"b10", killedHow(), ""},
		{"b10-panic", "exited with code 1", "panic: boom"},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			s := startFake(t, tc.scenario, func(c *mcpclient.Config) { c.Timeout = 30 * time.Second })
			ctx := context.Background()
			if _, err := s.c.Initialize(ctx); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, _, err := s.c.CallTool(ctx, "crash", json.RawMessage(`{}`))
			var ee *mcpclient.ExitError
			if !errors.As(err, &ee) || time.Since(start) > 2*time.Second {
				t.Fatalf("want an immediate ExitError, got %v after %v", err, time.Since(start))
			}
			want := "server " + tc.how + " while request id 2 (tools/call crash) was pending"
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q, want prefix %q", err, want)
			}
			if tc.stderr != "" && !strings.Contains(err.Error(), tc.stderr) {
				t.Errorf("error should carry the last stderr line %q: %v", tc.stderr, err)
			}
			// Later requests fail at once with the same cause.
			start = time.Now()
			_, _, err = s.c.CallTool(ctx, "echo", nil)
			// At once: not after the 30 s timeout (the bound leaves room for a loaded machine).
			if !errors.As(err, &ee) || ee.How() != tc.how || time.Since(start) > 5*time.Second {
				t.Errorf("a request after death: %v after %v", err, time.Since(start))
			}
			if !strings.HasPrefix(err.Error(), "cannot send request id 3 (tools/call echo): server "+tc.how) {
				t.Errorf("a request refused after death must say it was not sent: %v", err)
			}
			if s.c.State() != mcpclient.StateDead {
				t.Errorf("state %v, want dead", s.c.State())
			}
			s.events(t)
		})
	}
}

func TestB22ArgvAndEnvExact(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mcp inspect fixtures")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "demo server")
	if runtime.GOOS == "windows" {
		bin += ".exe" // CreateProcess runs only what its name says is a program
	}
	data, err := os.ReadFile(fake.Binary(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"--root", "/data/My Projects/demo", "--name=a b"}
	c, err := mcpclient.Start(mcpclient.Config{Command: bin, Args: args, Env: []string{"FAKE_SCENARIO=b22", "DEMO_MODE=x y"}})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range c.Events() {
		}
	}()
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	out, _, err := c.CallTool(ctx, "whoami", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Argv     []string `json:"argv"`
		DemoMode string   `json:"DEMO_MODE"`
		PATHSet  bool     `json:"PATH_set"`
	}
	if err := json.Unmarshal([]byte(out.Content[0].Text), &got); err != nil {
		t.Fatalf("whoami text %q: %v", out.Content[0].Text, err)
	}
	if strings.Join(got.Argv, "|") != strings.Join(args, "|") || got.DemoMode != "x y" || !got.PATHSet {
		t.Fatalf("server saw %+v, want argv %q, DEMO_MODE \"x y\", PATH set", got, args)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestStrictStopsAtFirstViolation(t *testing.T) {
	s := startFake(t, "b01", func(c *mcpclient.Config) { c.Strict = true })
	_, err := s.c.Initialize(context.Background())
	var v *mcpclient.ViolationError
	if !errors.As(err, &v) || v.Problem.Code != "not-json" || !strings.Contains(err.Error(), "basic/transports") {
		t.Fatalf("want the first violation with its rule, got %v", err)
	}
	select {
	case <-s.c.Exited():
	case <-time.After(5 * time.Second):
		t.Fatal("strict mode did not shut the server down")
	}
	if _, _, err := s.c.ListTools(context.Background()); !errors.As(err, &v) {
		t.Errorf("later requests must fail with the violation, got %v", err)
	}
}

func TestCapabilityNotAdvertisedAnsweredAtOnce(t *testing.T) {
	// Case B13: without the sampling capability the server's request gets -32601 at once,
	// even when a handler is installed, and the frame is flagged.
	asked := false
	s := startFake(t, "b13", func(c *mcpclient.Config) {
		c.OnServerRequest = func(r *mcpclient.ServerRequest) { asked = true; r.Respond(json.RawMessage(`{}`)) }
	})
	ctx := context.Background()
	if _, err := s.c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	out, _, err := s.c.CallTool(ctx, "summarize", json.RawMessage(`{}`))
	if err != nil || !out.IsError {
		t.Fatalf("the fake answers isError after a -32601: %+v %v", out, err)
	}
	if asked {
		t.Error("the handler must not see a request for a capability we did not advertise")
	}
	var flagged, replied bool
	for _, ev := range s.events(t) {
		if ev.Dir == mcpclient.ServerToClient && ev.Kind == mcpclient.KindRequest && problem(ev, "capability-not-advertised") != nil {
			flagged = true
		}
		if ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindErrorResponse && ev.Msg.Error.Code == -32601 && string(ev.Msg.ID) == "1" {
			replied = true
		}
	}
	if !flagged || !replied {
		t.Errorf("flagged=%v replied -32601 to id 1=%v", flagged, replied)
	}
}

func TestUnknownProtocolVersionIsAViolation(t *testing.T) {
	// check-echo-version answers the version asked, whatever it is (minimal negotiates).
	s := startFake(t, "check-echo-version", func(c *mcpclient.Config) { c.ProtocolVersion = "1999-01-01" })
	res, err := s.c.Initialize(context.Background())
	if err != nil || len(res.Warnings) == 0 {
		t.Fatalf("want a warning about 1999-01-01: %+v %v", res, err)
	}
	var flagged bool
	for _, ev := range s.events(t) {
		flagged = flagged || (ev.Dir == mcpclient.Lifecycle && problem(ev, "unknown-protocol-version") != nil)
	}
	if !flagged {
		t.Error("the unknown version must be a counted problem, not only a note")
	}
}

func TestWaitingForTheUserIsNotIdle(t *testing.T) {
	// The server asks for sampling during a call (case B13) and the user takes longer than the
	// request timeout to answer: the call must not time out meanwhile.
	s := startFake(t, "b13", func(c *mcpclient.Config) {
		c.Timeout = 300 * time.Millisecond
		c.Capabilities = json.RawMessage(`{"sampling":{}}`)
		c.OnServerRequest = func(r *mcpclient.ServerRequest) {
			go func() {
				time.Sleep(time.Second)
				r.Respond(json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"slow human"},"model":"m"}`))
			}()
		}
	})
	ctx := context.Background()
	if _, err := s.c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	out, _, err := s.c.CallTool(ctx, "summarize", json.RawMessage(`{}`))
	if err != nil || out.IsError || !strings.Contains(out.Content[0].Text, "slow human") {
		t.Fatalf("the call must wait for the user's answer: %+v %v", out, err)
	}
}

// killedHow is how ExitError.How says a server killed outright (b10 kills itself) ended:
// by SIGKILL on Unix; on Windows os.Process.Kill (TerminateProcess) leaves exit code 1.
func killedHow() string {
	if runtime.GOOS == "windows" {
		return "exited with code 1"
	}
	return "was killed by signal KILL"
}
