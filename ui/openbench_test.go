package ui

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	trace "github.com/mcp-inspect/mcp-inspect/recorder"
)

// BenchmarkOpenMillionUI measures `open` on a trace of one million events end to end: index
// the file, stream every event (classified and paired) into an offline model, as cmd/open
// does. It reports the time per open and the heap the model retains per event (today the
// timeline keeps whole Events, so this grows with the trace).
//
//	go test ./ui/ -run '^$' -bench OpenMillionUI -benchtime 1x
func BenchmarkOpenMillionUI(b *testing.B) {
	const n = 1_000_000
	path := filepath.Join(b.TempDir(), "million.jsonl")
	w, err := trace.Create(path, trace.Header{Tool: "bench"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		var raw string
		dir := mcpclient.ClientToServer
		if i%2 == 0 {
			raw = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello number %d"}}}`+"\n", i, i)
		} else {
			raw = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"echoed: hello number %d"}]}}`+"\n", i-1, i-1)
			dir = mcpclient.ServerToClient
		}
		e := ev(uint64(i+1), dir, raw)
		e.Time = t0.Add(time.Duration(i) * time.Microsecond)
		if err := w.Write(e); err != nil {
			b.Fatal(err)
		}
	}
	w.Close()
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		tr, err := trace.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		m := newTestModel(b, nil, 120, 40)
		batch := make([]mcpclient.Event, 0, maxBatch)
		for e, err := range tr.Events() {
			if err != nil {
				b.Fatal(err)
			}
			batch = append(batch, e)
			if len(batch) == maxBatch {
				m.Update(eventsMsg{events: batch})
				batch = make([]mcpclient.Event, 0, maxBatch)
			}
		}
		m.Update(eventsMsg{events: batch})
		_ = m.render()
		elapsed := time.Since(start)
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(elapsed.Milliseconds()), "ms/open")
		b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/n, "B-retained/event")
		b.ReportMetric(float64(tr.Size())/n, "trace-B/event")
		if len(m.tl.events) != n {
			b.Fatalf("%d events in the timeline", len(m.tl.events))
		}
		tr.Close()
		runtime.KeepAlive(m)
	}
}
