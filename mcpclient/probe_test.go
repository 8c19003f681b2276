package mcpclient

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
)

// probeSession is a live client on a fake server whose events are gathered as they come, so a
// test can wait for a late frame without ending the session.
type probeSession struct {
	c  *Client
	mu sync.Mutex
	ev []Event
}

func startProbeFake(t *testing.T, scenario string, timeout time.Duration, env ...string) *probeSession {
	t.Helper()
	cfg := Config{Command: fake.Binary(t), Args: []string{"--scenario", scenario}, Env: env, Era: EraAuto, Timeout: timeout, ShutdownGrace: 300 * time.Millisecond}
	c, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &probeSession{c: c}
	go func() {
		for ev := range c.Events() {
			s.mu.Lock()
			s.ev = append(s.ev, ev)
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() { c.Close() })
	return s
}

// waitFor returns the first event ok accepts, waiting up to 10 s for it.
func (s *probeSession) waitFor(t *testing.T, what string, ok func(Event) bool) Event {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		for _, ev := range s.ev {
			if ok(ev) {
				s.mu.Unlock()
				return ev
			}
		}
		s.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s in 10s", what)
	return Event{}
}

func (s *probeSession) warnings() []Problem {
	s.mu.Lock()
	defer s.mu.Unlock()
	var w []Problem
	for _, ev := range s.ev {
		for _, p := range ev.Problems {
			if p.Severity >= Warning {
				w = append(w, p)
			}
		}
	}
	return w
}

func isNote(sub string) func(Event) bool {
	return func(ev Event) bool {
		return ev.Life != nil && ev.Life.Kind == LifeNote && strings.Contains(ev.Life.Text, sub)
	}
}

// fastProbe is the auto probe's rule with a 150 ms window (the real one is 3 s).
var fastProbe = probeTiming{quiet: 150 * time.Millisecond, poll: 10 * time.Millisecond}

// A dual-era server that says nothing while it starts (npx, `sh -c 'sleep 4; exec …'`) is
// waited for, far past the quiet window, and found modern; the wait is noted.
func TestProbeWaitsForSilentStart(t *testing.T) {
	s := startProbeFake(t, "slow-start", 20*time.Second, fake.EnvStartMS+"=800")
	res, err := s.c.connect(context.Background(), fastProbe)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if res.Era != EraModern || s.c.Era() != EraModern {
		t.Fatalf("era %q / %q, want modern", res.Era, s.c.Era())
	}
	s.waitFor(t, "waiting note", isNote("waiting for it to start"))
	if w := s.warnings(); len(w) > 0 {
		t.Errorf("violations: %+v", w)
	}
}

// A server that has written something (a stderr banner) and then leaves the probe
// unanswered for the window is legacy; its late -32601 is a note on our probe, not a
// violation, and it is still paired with the probe.
func TestProbeGivesUpAfterOutputLateError(t *testing.T) {
	s := startProbeFake(t, "probe-late-legacy", 20*time.Second, fake.EnvDiscoverMS+"=1000")
	res, err := s.c.connect(context.Background(), fastProbe)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if res.Era == EraModern || s.c.Era() != EraLegacy {
		t.Fatalf("era %q, want the legacy fallback", s.c.Era())
	}
	fb := s.waitFor(t, "fallback note", isNote("falling back to initialize"))
	if !strings.Contains(fb.Life.Text, "after the server's last output") || strings.Contains(fb.Life.Text, "--timeout changes it") {
		t.Errorf("fallback note %q: want the probe's own rule, not the --timeout hint", fb.Life.Text)
	}
	s.mu.Lock()
	for _, ev := range s.ev {
		if ev.Life != nil && ev.Life.Kind == LifeHandshakeFailed {
			t.Errorf("the fallback is reported as a failed handshake: %q", ev.Life.Text)
		}
	}
	s.mu.Unlock()
	cancel := s.waitFor(t, "the probe's cancel", func(ev Event) bool {
		return ev.Dir == ClientToServer && ev.Kind == KindNotification && ev.Msg.Method == "notifications/cancelled"
	})
	if !strings.Contains(string(cancel.Raw), "probe gave up") {
		t.Errorf("the probe's cancel: %s", cancel.Raw)
	}
	late := s.waitFor(t, "late discover answer", func(ev Event) bool { return ev.Dir == ServerToClient && ev.Method == "server/discover" })
	if late.Kind != KindErrorResponse {
		t.Fatalf("late answer kind %v", late.Kind)
	}
	p := findProblem(late, CodeProbeLate)
	if p == nil || p.Severity != Info || !strings.Contains(p.Text, "legacy, as assumed") {
		t.Fatalf("late answer problems %+v, want an Info %s note", late.Problems, CodeProbeLate)
	}
	if w := s.warnings(); len(w) > 0 {
		t.Errorf("violations: %+v", w)
	}
	// The session goes on in the legacy era.
	if _, err := s.c.Request(context.Background(), "tools/list", nil, nil); err != nil {
		t.Errorf("tools/list after the fallback: %v", err)
	}
}

// A DiscoverResult that comes after the probe gave up says the server is modern after all
// and suggests --era modern.
func TestProbeLateDiscoverResult(t *testing.T) {
	s := startProbeFake(t, "probe-late-modern", 20*time.Second, fake.EnvDiscoverMS+"=1000")
	if _, err := s.c.connect(context.Background(), fastProbe); err != nil {
		t.Fatalf("connect: %v", err)
	}
	late := s.waitFor(t, "late discover answer", func(ev Event) bool { return ev.Dir == ServerToClient && ev.Method == "server/discover" })
	p := findProblem(late, CodeProbeLate)
	if p == nil || p.Severity != Info || !strings.Contains(p.Text, "modern after all") || !strings.Contains(p.Text, "--era modern") {
		t.Fatalf("late answer problems %+v", late.Problems)
	}
	if w := s.warnings(); len(w) > 0 {
		t.Errorf("violations: %+v", w)
	}
}

// A dual-era server that wrote a banner, then stayed silent past the window, answers the
// probe late and then refuses the fallback initialize (the go-sdk: duplicate "initialize"):
// its DiscoverResult is taken as the era and the session goes on, modern.
func TestProbeLateDiscoverThenInitializeRefused(t *testing.T) {
	s := startProbeFake(t, "probe-banner-slow", 20*time.Second, fake.EnvStartMS+"=1000")
	res, err := s.c.connect(context.Background(), fastProbe)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if res.Era != EraModern || s.c.Era() != EraModern || res.ServerInfo.Name != "fake-tasks" {
		t.Fatalf("era %q / %q, server %+v: want modern from the late DiscoverResult", res.Era, s.c.Era(), res.ServerInfo)
	}
	s.waitFor(t, "recovery note", isNote("continuing in the modern era"))
	resp, err := s.c.Request(context.Background(), "tools/list", nil, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if !strings.Contains(string(resp.Msg.Result), "task_greet") {
		t.Errorf("tools/list: %s", resp.Msg.Result)
	}
	if w := s.warnings(); len(w) > 0 {
		t.Errorf("violations: %+v", w)
	}
	// A recomputed pairing (an opened trace) agrees: same problems on every frame.
	s.mu.Lock()
	evs := append([]Event(nil), s.ev...)
	s.mu.Unlock()
	p := NewPairer()
	for _, ev := range evs {
		live := ev.Problems
		re := ev
		re.Problems = nil
		if ev.Dir == ServerToClient || ev.Dir == ClientToServer {
			_, _, re.Problems = Classify(ev.Raw)
		}
		p.Add(&re)
		if ev.Dir != Lifecycle && len(re.Problems) != len(live) {
			t.Errorf("#%d: live problems %+v, recomputed %+v", ev.Seq, live, re.Problems)
		}
	}
}

// A server that never writes anything is given the request timeout (Config.Timeout, which
// --timeout sets), then taken as legacy; the error names --timeout.
func TestProbeSilentServerUsesRequestTimeout(t *testing.T) {
	s := startProbeFake(t, "probe-silent", 600*time.Millisecond)
	start := time.Now()
	res, err := s.c.connect(context.Background(), fastProbe)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if took := time.Since(start); took < 600*time.Millisecond {
		t.Errorf("the probe gave up after %s, before the request timeout", took)
	}
	if res.Era == EraModern {
		t.Fatal("silent server taken as modern")
	}
	s.waitFor(t, "waiting note", isNote("waiting for it to start"))
	fb := s.waitFor(t, "fallback note", isNote("falling back to initialize"))
	if !strings.Contains(fb.Life.Text, "no output from the server") || !strings.Contains(fb.Life.Text, "--timeout changes it") {
		t.Errorf("fallback note %q", fb.Life.Text)
	}
}

// The probe's own give-up error is what discover reports, and a parent context's end stays
// the context's error (Connect then returns it instead of falling back).
func TestProbeParentCancel(t *testing.T) {
	s := startProbeFake(t, "probe-silent", 20*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := s.c.connect(ctx, probeTiming{quiet: time.Minute, poll: 10 * time.Millisecond})
	var pte *ProbeTimeoutError
	if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &pte) {
		t.Fatalf("connect: %v, want the context's deadline", err)
	}
}

func findProblem(ev Event, code ProblemCode) *Problem {
	for i := range ev.Problems {
		if ev.Problems[i].Code == code {
			return &ev.Problems[i]
		}
	}
	return nil
}

// pairAll runs events through a fresh Pairer, numbering them from 1.
func pairAll(evs []Event) []Event {
	p := NewPairer()
	for i := range evs {
		evs[i].Seq = uint64(i + 1)
		p.Add(&evs[i])
	}
	return evs
}

func msgEvent(dir Direction, raw string) Event {
	kind, msg, probs := Classify([]byte(raw + "\n"))
	return Event{Dir: dir, Kind: kind, Msg: msg, Problems: probs, Raw: []byte(raw + "\n")}
}

// Progress after the client cancelled (or timed out and cancelled) is expected for a while:
// an Info note linked to the request, not an unknown-token violation. Progress after a
// response stays a violation.
func TestPairerProgressAfterCancel(t *testing.T) {
	evs := pairAll([]Event{
		msgEvent(ClientToServer, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":7}}}`),
		msgEvent(ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1}}`),
		msgEvent(ClientToServer, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"cancelled by the user"}}`),
		msgEvent(ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":2}}`),
		msgEvent(ClientToServer, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"t8"}}}`),
		msgEvent(ClientToServer, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8,"reason":"timed out after 1s"}}`),
		msgEvent(ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t8","progress":1}}`),
		msgEvent(ClientToServer, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"fast","_meta":{"progressToken":9}}}`),
		msgEvent(ServerToClient, `{"jsonrpc":"2.0","id":9,"result":{"content":[]}}`),
		msgEvent(ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":9,"progress":1}}`),
	})
	if findProblem(evs[1], "unknown-progress-token") != nil || findProblem(evs[1], CodeProgressAfterCancel) != nil || evs[1].Pair != 1 {
		t.Fatalf("progress in flight: pair %d problems %+v", evs[1].Pair, evs[1].Problems)
	}
	p := findProblem(evs[3], CodeProgressAfterCancel)
	if p == nil || p.Severity != Info || !strings.Contains(p.Text, "after cancel of request id 7") || evs[3].Pair != 1 || evs[3].Method != "tools/call" {
		t.Errorf("progress after cancel: pair %d problems %+v", evs[3].Pair, evs[3].Problems)
	}
	if findProblem(evs[3], "unknown-progress-token") != nil {
		t.Error("progress after cancel still counted as unknown-progress-token")
	}
	p = findProblem(evs[6], CodeProgressAfterCancel)
	if p == nil || p.Severity != Info || !strings.Contains(p.Text, "timed out") || evs[6].Pair != 5 {
		t.Errorf("progress after timeout: pair %d problems %+v", evs[6].Pair, evs[6].Problems)
	}
	if q := findProblem(evs[9], "unknown-progress-token"); q == nil || q.Severity != Warning {
		t.Errorf("progress after the response: %+v, want the unknown-progress-token violation", evs[9].Problems)
	}
}

// A frame after the lifecycle exit event (as an opened trace has it) carries the after-exit
// note with the server's pid; frames before it do not.
func TestPairerAfterExit(t *testing.T) {
	exit := Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeExited, PID: 4242, Signal: "KILL"}}
	evs := pairAll([]Event{
		msgEvent(ClientToServer, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"other"}}`),
		msgEvent(ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`),
		exit,
		msgEvent(ServerToClient, `{"jsonrpc":"2.0","id":6,"result":{"content":[]}}`),
	})
	if findProblem(evs[1], CodeAfterExit) != nil {
		t.Error("a frame before the exit is marked")
	}
	p := findProblem(evs[3], CodeAfterExit)
	if p == nil || p.Severity != Info || !strings.Contains(p.Text, "pid 4242") || !strings.Contains(p.Text, "child") {
		t.Fatalf("after-exit frame problems %+v", evs[3].Problems)
	}
	if evs[3].Pair != 1 {
		t.Errorf("after-exit response pair %d, want 1", evs[3].Pair)
	}
}
