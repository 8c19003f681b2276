package ui

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestOfflineMemoryPerEvent measures what the model retains per event of an opened trace
// (the timeline keeps whole Events: Raw bytes, the parsed envelope, indexes). It reports the
// number; the bound only catches a regression far beyond it.
func TestOfflineMemoryPerEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates ~100 MB")
	}
	const n = 100_000
	m := newTestModel(t, nil, 120, 40)
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
			rawBytes += int64(len(raw))
		}
		m.Update(eventsMsg{events: evs})
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
	t.Logf("offline model: %d events (%d raw bytes, %.0f per event): %.0f bytes retained per event (%.0f beyond the raw bytes); %d past calls",
		n, rawBytes, float64(rawBytes)/n, per, per-float64(rawBytes)/n, len(m.offline.calls))
	if per > 8192 {
		t.Errorf("%.0f bytes per event retained", per)
	}
	runtime.KeepAlive(m)
}
