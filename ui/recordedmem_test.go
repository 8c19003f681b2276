package ui

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestOfflineMemoryPerEvent measures what the model retains per event: with the bytes
// kept (a live session, or a trace opened without a loader) beyond the bytes themselves,
// and with a loader (mcp-inspect open: the timeline keeps a summary per event and reads
// the bytes back on demand). The bounds are several times the measured figures (about
// 120 and 90 bytes), so they catch a return to whole Events (about 1 KB), not noise.
func TestOfflineMemoryPerEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates ~50 MB")
	}
	const n = 100_000
	for _, tc := range []struct {
		name   string
		loader bool
		bound  float64 // bytes per event beyond the kept raw bytes
	}{
		{"bytes kept", false, 400},
		{"loader", true, 250},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestModel(t, nil, 120, 40)
			if tc.loader {
				m.tl.setLoader(func(uint64) (mcpclient.Event, error) { return mcpclient.Event{}, errors.New("not read in this test") })
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			var rawBytes int64
			for b := 0; b < n; b += maxBatch {
				evs := make([]mcpclient.Event, 0, maxBatch)
				for i := b; i < min(b+maxBatch, n); i++ {
					var raw string
					if i%2 == 0 {
						raw = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello number %d"}}}`+"\n", i, i)
						evs = append(evs, ev(uint64(i+1), mcpclient.ClientToServer, raw))
					} else {
						raw = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"echoed: hello number %d"}]}}`+"\n", i-1, i-1)
						e := ev(uint64(i+1), mcpclient.ServerToClient, raw)
						e.Pair, e.Method = uint64(i), "tools/call"
						evs = append(evs, e)
					}
					evs[len(evs)-1].Time = t0.Add(time.Duration(i) * time.Millisecond)
					if !tc.loader {
						rawBytes += int64(cap(evs[len(evs)-1].Raw))
					}
				}
				m.update(eventsMsg{events: evs})
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			per := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
			beyond := per - float64(rawBytes)/n
			t.Logf("%d events (%d raw bytes kept): %.0f bytes retained per event, %.0f beyond the raw bytes; %d past calls",
				n, rawBytes, per, beyond, m.recorded().Calls())
			if m.recorded().Calls() != n/2 {
				t.Errorf("%d past calls, want %d", m.recorded().Calls(), n/2)
			}
			if beyond > tc.bound {
				t.Errorf("%.0f bytes per event retained beyond the raw bytes, want at most %.0f", beyond, tc.bound)
			}
			runtime.KeepAlive(m)
		})
	}
}
