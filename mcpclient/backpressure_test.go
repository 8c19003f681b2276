package mcpclient_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// floodConfig runs the fake flood-notify server with n notifications.
func floodConfig(t *testing.T, n int) mcpclient.Config {
	return mcpclient.Config{
		Command:       fake.Binary(t),
		Args:          []string{"--scenario", "flood-notify"},
		Env:           []string{fmt.Sprintf("FAKE_COUNT=%d", n)},
		Timeout:       time.Minute,
		ShutdownGrace: 300 * time.Millisecond,
	}
}

// countFlood counts the flood's notifications among evs and reports whether the last one
// ("flood done n") is there.
func countFlood(evs []mcpclient.Event, n int) (count int, done bool) {
	last := fmt.Sprintf(`"data":"flood done %d"`, n)
	for _, ev := range evs {
		s := string(ev.Raw)
		switch {
		case ev.Dir != mcpclient.ServerToClient:
		case strings.Contains(s, last):
			done = true
		case strings.Contains(s, `"data":"flood `):
			count++
		}
	}
	return count, done
}

// TestUnreadEventsDoNotStall: a client whose Events nobody calls (a helper that only makes
// requests, with a recorder) is not slowed by the backlog bound: through a flood five
// times over it, requests are answered and the flood ends, and a reader who comes after
// Close still gets every event, in order.
func TestUnreadEventsDoNotStall(t *testing.T) {
	const n = 20_000
	cfg := floodConfig(t, n)
	done := make(chan struct{})
	last := fmt.Sprintf(`"data":"flood done %d"`, n)
	cfg.OnEvent = func(ev mcpclient.Event) {
		if strings.Contains(string(ev.Raw), last) {
			close(done)
		}
	}
	c, err := mcpclient.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if _, err := c.Ping(ctx); err != nil {
			t.Fatalf("ping %d during a flood nobody reads: %v", i+1, err)
		}
	}
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the flood stalled: its last notification never came")
	}
	c.Close()
	var evs []mcpclient.Event
	for ev := range c.Events() {
		evs = append(evs, ev)
	}
	if got, end := countFlood(evs, n); got != n || !end {
		t.Fatalf("the late reader got %d of %d notifications (the last: %v)", got, n, end)
	}
	for i, ev := range evs {
		if ev.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d: an event was lost", i+1, ev.Seq)
		}
	}
}

// TestQuitDuringFloodEnds: the reader of Events stops in the middle of a million-
// notification flood (the UI quit) with the client blocked on the backlog; Close still
// shuts the server down the MCP way and returns, no process of the group is left, the
// recorder (OnEvent) has every event the client read, and the Events channel, drained
// now, ends.
func TestQuitDuringFloodEnds(t *testing.T) {
	const n = 1_000_000
	cfg := floodConfig(t, n)
	var observed, last atomic.Uint64
	cfg.OnEvent = func(ev mcpclient.Event) {
		observed.Add(1)
		last.Store(ev.Seq)
	}
	c, err := mcpclient.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	events := c.Events()
	connected := make(chan error, 1)
	go func() {
		_, err := c.Connect(context.Background())
		connected <- err
	}()
	// Read until 10,000 notifications came, then stop reading.
	received := uint64(0)
	for seen := 0; seen < 10_000; received++ {
		ev, ok := <-events
		if !ok {
			t.Fatal("the events ended early")
		}
		if ev.Dir == mcpclient.ServerToClient && strings.Contains(string(ev.Raw), `"data":"flood `) {
			seen++
		}
	}
	if err := <-connected; err != nil {
		t.Fatal(err)
	}
	// Let the backlog fill past the bound (4,096 events), so the reader is held back.
	for observed.Load() < received+4096+256 {
		time.Sleep(time.Millisecond)
	}
	closeWithinAMinute(t, c, "Close hung on a flood nobody reads any more")
	if serverTreeAlive(c.PID()) {
		t.Errorf("the server's process tree (pid %d) outlived Close", c.PID())
	}
	if s := c.Shutdown(); s.Step == "" {
		t.Errorf("Close should have ended the server, report %+v", s)
	}
	select {
	case <-c.Observed():
	case <-time.After(time.Minute):
		t.Fatal("the recorder's queue never ended: the stdout reader is still blocked")
	}
	rest := 0
	for range events {
		rest++
	}
	if o, l := observed.Load(), last.Load(); o != l || o == 0 {
		t.Errorf("the recorder saw %d events, the last #%d: some were skipped", o, l)
	}
	t.Logf("stopped reading after 10,000 notifications; %d events queued then, %d observed in all, shutdown %+v", rest, observed.Load(), c.Shutdown())
}

// closeWithinAMinute closes c and fails the test with why when Close has not returned
// within a minute (the backpressure tests' "Close never hangs on a stalled reader").
func closeWithinAMinute(t *testing.T, c *mcpclient.Client, why string) {
	t.Helper()
	closed := make(chan struct{})
	go func() {
		c.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal(why)
	}
}
