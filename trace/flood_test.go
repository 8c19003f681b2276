package trace_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/heappeak"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// floodNumber is the number a flood-notify notification carries ("flood 000123" → 123), 0
// for any other frame.
func floodNumber(raw []byte) int {
	s := string(raw)
	i := strings.Index(s, `"data":"flood `)
	if i < 0 {
		return 0
	}
	var n int
	if _, err := fmt.Sscanf(s[i+len(`"data":"flood `):], "%d", &n); err != nil {
		return 0
	}
	return n
}

// TestFloodSlowConsumerBounded: flood-notify sends 60,000 notifications through the real
// client into a recording while the reader of Events is far slower than the server. The
// client reads the server's stdout only as fast as the backlog drains (backpressure), so
// the heap stays bounded while nothing is lost: the slow reader receives every
// notification in order, the recording holds every one, and a ping sent in the middle of
// the flood pairs with its response. Without the bound the backlog held most of the flood
// (about 1.4 KB an event).
func TestFloodSlowConsumerBounded(t *testing.T) {
	const n = 60_000
	path := filepath.Join(t.TempDir(), "flood.jsonl")
	w, err := trace.Create(path, trace.Header{Tool: "test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fakeConfig(t, "flood-notify", fmt.Sprintf("FAKE_COUNT=%d", n))
	cfg.OnEvent = w.Observe
	cfg.Timeout = 2 * time.Minute
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop := heappeak.Start(5 * time.Millisecond)
	c, err := mcpclient.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The slow reader: every 100 events it sleeps 10 ms, so it takes at least 6 s where the
	// server needs well under that to write the flood.
	got := make(chan []int, 1)
	half := make(chan struct{})
	go func() {
		var nums []int
		i := 0
		for ev := range c.Events() {
			if k := floodNumber(ev.Raw); k > 0 && ev.Dir == mcpclient.ServerToClient {
				nums = append(nums, k)
				if k == n/2 {
					close(half)
				}
			}
			if i++; i%100 == 0 {
				time.Sleep(10 * time.Millisecond)
			}
			if strings.Contains(string(ev.Raw), fmt.Sprintf("flood done %d", n)) {
				break
			}
		}
		got <- nums
		for range c.Events() {
		}
	}()
	ctx := context.Background()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	// A request in the middle of the flood, while the reader is behind, is answered and
	// paired.
	<-half
	pingSeq := make(chan uint64, 1)
	go func() {
		resp, err := c.Request(ctx, "ping", nil, nil)
		if err != nil {
			t.Errorf("ping during the flood: %v", err)
			pingSeq <- 0
			return
		}
		pingSeq <- resp.RequestSeq
	}()
	var nums []int
	select {
	case nums = <-got:
	case <-time.After(2 * time.Minute):
		t.Fatal("the flood did not reach the slow reader within 2 minutes")
	}
	peak := stop()
	reqSeq := <-pingSeq
	c.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	growth := int64(peak) - int64(base.HeapAlloc)
	t.Logf("%d notifications to a slow reader: heap %d MiB before, peak %d MiB (+%d MiB)", n, base.HeapAlloc>>20, peak>>20, growth>>20)
	if len(nums) != n {
		t.Fatalf("the slow reader got %d notifications, want %d", len(nums), n)
	}
	for i, k := range nums {
		if k != i+1 {
			t.Fatalf("notification %d is number %d: lost or out of order", i+1, k)
		}
	}
	// Unbounded, the heap grew by 59 MiB here; bounded, by 7 MiB: the backlog bound (4,096
	// events) plus garbage.
	if growth > 24<<20 {
		t.Errorf("the heap grew by %d MiB during the flood, want at most 24 MiB: the client queued the flood instead of slowing the server", growth>>20)
	}
	evs := loadEvents(t, openTrace(t, path))
	next := 1
	var pinged, answered bool
	for _, ev := range evs {
		if k := floodNumber(ev.Raw); k > 0 && ev.Dir == mcpclient.ServerToClient {
			if k != next {
				t.Fatalf("the recording has notification %d where %d belongs", k, next)
			}
			next++
		}
		if ev.Seq == reqSeq && ev.Msg != nil && ev.Msg.Method == "ping" {
			pinged = true
		}
		if ev.Pair == reqSeq && ev.Kind == mcpclient.KindResponse {
			answered = true
		}
	}
	if next != n+1 {
		t.Fatalf("the recording holds %d notifications, want %d", next-1, n)
	}
	if !pinged || !answered {
		t.Errorf("the recording should hold the ping #%d (%v) and its paired response (%v)", reqSeq, pinged, answered)
	}
}
