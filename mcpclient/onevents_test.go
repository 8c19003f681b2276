package mcpclient

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// startEcho starts a connected session with the test binary's own echo server
// (leaderServer) configured by cfg; read takes its Events (nil: they are drained).
func startEcho(t *testing.T, cfg Config, read func(<-chan Event)) *Client {
	t.Helper()
	cfg.Command, cfg.Env, cfg.ShutdownGrace = os.Args[0], []string{"MCPCLIENT_LEADER_SERVER=1"}, 300*time.Millisecond
	c, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if read == nil {
		read = func(evs <-chan Event) {
			for range evs {
			}
		}
	}
	go read(c.Events())
	if _, err := c.Connect(context.Background()); err != nil {
		c.Close()
		t.Fatal(err)
	}
	return c
}

// callEcho makes n tools/call requests of the echo tool.
func callEcho(t *testing.T, c *Client, n int) {
	t.Helper()
	for range n {
		if _, err := c.Request(context.Background(), "tools/call", json.RawMessage(`{"name":"echo","arguments":{"text":"x"}}`), nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOnEventsSeesEveryEventOnce holds Config.OnEvents (runs of events, as a recorder takes
// them) to OnEvent: every event of the session once, in order, each run before OnEvent is
// called for its events.
func TestOnEventsSeesEveryEventOnce(t *testing.T) {
	var runs, ones []uint64
	pendingRun := 0 // events of the last run not yet seen by OnEvent
	cfg := Config{
		OnEvents: func(evs []Event) {
			if pendingRun != 0 {
				t.Errorf("a run of %d events came before OnEvent saw %d of the last one", len(evs), pendingRun)
			}
			pendingRun = len(evs)
			for _, ev := range evs {
				runs = append(runs, ev.Seq)
			}
		},
		OnEvent: func(ev Event) {
			pendingRun--
			ones = append(ones, ev.Seq)
		},
	}
	c := startEcho(t, cfg, nil)
	callEcho(t, c, 20)
	c.Close()
	<-c.Observed()
	if !slices.Equal(runs, ones) {
		t.Fatalf("OnEvents saw %v, OnEvent %v", runs, ones)
	}
	for i, s := range runs {
		if s != uint64(i+1) {
			t.Fatalf("event %d has Seq %d: %v", i, s, runs)
		}
	}
	if len(runs) < 44 {
		t.Errorf("%d events, want at least 44 (start, handshake, 20 calls, exit)", len(runs))
	}
}

// TestEventFilter holds Config.EventFilter to its word: Events leaves out what the filter
// refuses, in order otherwise, while OnEvent still gets every event of the session.
func TestEventFilter(t *testing.T) {
	var all []Event
	cfg := Config{
		OnEvent:     func(ev Event) { all = append(all, ev) },
		EventFilter: func(ev Event) bool { return ev.Kind != KindResponse || ev.Method == "initialize" },
	}
	got := make(chan []Event)
	c := startEcho(t, cfg, func(events <-chan Event) {
		var evs []Event
		for ev := range events {
			evs = append(evs, ev)
		}
		got <- evs
	})
	callEcho(t, c, 5)
	c.Close()
	<-c.Observed()
	evs := <-got
	var want []uint64
	responses := 0
	for _, ev := range all {
		if ev.Kind == KindResponse && ev.Method == "tools/call" {
			responses++
		}
		if ev.Kind != KindResponse || ev.Method == "initialize" {
			want = append(want, ev.Seq)
		}
	}
	var seqs []uint64
	for _, ev := range evs {
		seqs = append(seqs, ev.Seq)
	}
	if responses != 5 {
		t.Fatalf("OnEvent saw %d tools/call responses, want 5", responses)
	}
	if !slices.Equal(seqs, want) {
		t.Fatalf("Events delivered %v, want every event but the tools/call responses: %v", seqs, want)
	}
}

// TestObserveGather holds Config.ObserveGather to delivering every event while the session
// runs, in order, a gathering later: a response reaches OnEvents without waiting for Close,
// and each run carries the events that waited together.
func TestObserveGather(t *testing.T) {
	seen := make(chan uint64, 1024)
	cfg := Config{
		ObserveGather: 20 * time.Millisecond,
		OnEvents: func(evs []Event) {
			for _, ev := range evs {
				if ev.Kind == KindResponse && ev.Method == "tools/call" {
					seen <- ev.Seq
				}
			}
		},
	}
	c := startEcho(t, cfg, nil)
	defer c.Close()
	ctx := context.Background()
	var last uint64
	for i := range 3 {
		resp, err := c.Request(ctx, "tools/call", json.RawMessage(`{"name":"echo","arguments":{"text":"x"}}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		select {
		case seq := <-seen:
			if seq <= last || seq != resp.Seq {
				t.Fatalf("call %d: OnEvents got response seq %d, want %d after %d", i, seq, resp.Seq, last)
			}
			last = seq
		case <-time.After(5 * time.Second):
			t.Fatalf("call %d: its response never reached OnEvents while the session ran", i)
		}
	}
}

// TestCallerReading holds Client.CallerReading to the mode in effect: asked for and on a
// platform that has it, not otherwise.
func TestCallerReading(t *testing.T) {
	for _, asked := range []bool{false, true} {
		c := startEcho(t, Config{CallerReads: asked}, nil)
		if got, want := c.CallerReading(), asked && platform.PollSupported; got != want {
			t.Errorf("CallerReads %v: CallerReading() = %v, want %v", asked, got, want)
		}
		c.Close()
	}
}
