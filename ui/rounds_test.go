package ui

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// roundsSession answers tools/call in three rounds, as Session.Request does for a modern
// server that answers input_required twice (MCP 2026-07-28 basic/patterns/mrtr): three
// requests are sent (Seqs 8, 15, 23), gap apart on the session's clock (the user's
// input), and the final response (#24) took last.
type roundsSession struct {
	*fakeSession
	gap, last time.Duration
	clock     stepClock
}

// stepClock is a clock that moves only when told (Options.Now).
type stepClock struct {
	mu sync.Mutex
	at time.Time
}

func (c *stepClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

func (c *stepClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(d)
}

func (s *roundsSession) Request(ctx context.Context, method string, params any, opt *mcpclient.RequestOptions) (*mcpclient.Response, error) {
	for i, seq := range []uint64{8, 15, 23} {
		if i > 0 {
			s.clock.add(s.gap)
		}
		opt.OnSent(seq, json.RawMessage("1"))
	}
	result, err := encodeResult(s.result)
	if err != nil {
		return nil, err
	}
	return &mcpclient.Response{Seq: 24, RequestSeq: 23, Elapsed: s.last,
		Msg: &mcpclient.Message{JSONRPC: "2.0", ID: json.RawMessage("3"), Result: result}}, nil
}

// A live multi-round call counts its time from the first request to the final response
// (the rounds between, user input included), as an opened trace does, and says the rounds
// and the first request; not only the last round's round trip.
func TestCallRoundsTotalTime(t *testing.T) {
	s := &roundsSession{fakeSession: greetSession(), gap: 40 * time.Millisecond, last: 34 * time.Millisecond}
	s.clock.at = t0
	m := newTestModel(t, s, 120, 40, func(o *Options) { o.Now = s.clock.now })
	exec(t, m, m.Init(), 0)
	keys(t, m, "enter") // add: a, b
	typeIn(t, m, "1")
	keys(t, m, "tab")
	typeIn(t, m, "2")
	keys(t, m, "ctrl+s")
	r := m.call.run
	if r == nil || !r.done || r.err != nil {
		t.Fatalf("call did not finish: %+v", r)
	}
	// Two gaps and the last round trip, exactly: the session's clock moved only by them.
	if want := 2*s.gap + s.last; r.elapsed != want {
		t.Errorf("elapsed %s, want %s (all rounds)", r.elapsed, want)
	}
	if r.rounds != 3 {
		t.Errorf("rounds %d, want 3", r.rounds)
	}
	took := "took " + r.elapsed.Round(time.Millisecond).String() + " over 3 rounds · request #8 → response #24"
	mustContain(t, "result", view(m), took)
	if st := m.call.callState(r, m.now()); !strings.HasSuffix(st, " (3 rounds)") || !strings.HasPrefix(st, "✓ ") {
		t.Errorf("calls list state %q", st)
	}
	if strings.Contains(view(m), "took 34ms") {
		t.Errorf("the last round's time is shown as the call's\n%s", view(m))
	}
}
