package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// millionEvent is event i of the benchmarks' sessions: tools/call requests and their
// results, alternating, with a stderr line every 1000 events and a bad frame every 10,000
// (so each wire filter has rows).
func millionEvent(i int) mcpclient.Event {
	var e mcpclient.Event
	switch {
	case i%10_000 == 9_999:
		e = ev(uint64(i+1), mcpclient.ServerToClient, fmt.Sprintf("not json %d\n", i))
	case i%1000 == 999:
		e = ev(uint64(i+1), mcpclient.Stderr, fmt.Sprintf("log line %d\n", i))
	case i%2 == 0:
		e = ev(uint64(i+1), mcpclient.ClientToServer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello number %d"}}}`+"\n", i, i))
	default:
		e = ev(uint64(i+1), mcpclient.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"echoed: hello number %d"}]}}`+"\n", i-1, i-1))
	}
	e.Time = t0.Add(time.Duration(i) * time.Microsecond)
	return e
}

// writeMillion writes a trace of n millionEvents.
func writeMillion(b *testing.B, n int) string {
	path := filepath.Join(b.TempDir(), "million.jsonl")
	w, err := trace.Create(path, trace.Header{Tool: "bench"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if err := w.Write(millionEvent(i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// openMillion opens a trace into an offline model as cmd/open does: events streamed in
// batches, their bytes read back on demand through the trace's index.
func openMillion(b *testing.B, tr *trace.Trace) *model {
	m := newTestModel(b, nil, 120, 40)
	m.tl.setLoader(tr.EventBySeq)
	batch := make([]mcpclient.Event, 0, maxBatch)
	for e, err := range tr.Events() {
		if err != nil {
			b.Fatal(err)
		}
		batch = append(batch, e)
		if len(batch) == maxBatch {
			feed(m, eventsMsg{events: batch})
			batch = make([]mcpclient.Event, 0, maxBatch)
		}
	}
	feed(m, eventsMsg{events: batch})
	_ = m.render()
	return m
}

// feed applies msg and the loads it asks for, as the runtime would (the load Cmd reads
// the trace; its answer is applied at once).
func feed(m *model, msg tea.Msg) {
	m.update(msg)
	if cmd := m.loadShown(); cmd != nil {
		m.update(cmd())
	}
}

// BenchmarkOpenMillionUI measures `open` on a trace of one million events end to end: index
// the file, stream every event (classified and paired) into an offline model, as cmd/open
// does, and draw the first screen. It reports the time per open and the heap the model
// retains per event.
//
//	go test ./ui/ -run '^$' -bench OpenMillionUI -benchtime 1x
func BenchmarkOpenMillionUI(b *testing.B) {
	const n = 1_000_000
	path := writeMillion(b, n)
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
		m := openMillion(b, tr)
		elapsed := time.Since(start)
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(elapsed.Milliseconds()), "ms/open")
		b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/n, "B-retained/event")
		b.ReportMetric(float64(tr.Size())/n, "trace-B/event")
		if m.tl.len() != n {
			b.Fatalf("%d events in the timeline", m.tl.len())
		}
		tr.Close()
		runtime.KeepAlive(m)
	}
}

// BenchmarkLiveMillionUI feeds one million events to a live model (bytes kept, as a live
// session keeps them) and reports the heap retained per event beyond the bytes (#8: memory
// proportional to what is kept).
//
//	go test ./ui/ -run '^$' -bench LiveMillionUI -benchtime 1x
func BenchmarkLiveMillionUI(b *testing.B) {
	const n = 1_000_000
	for it := 0; it < b.N; it++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m := newTestModel(b, nil, 120, 40)
		// A live session (no Conn: nothing is sent): no recorded calls to derive.
		m.sess = session.NewLive(context.Background(), nil, session.ClientFeatures{}, nil, nil)
		m.c.session, m.call.past = m.sess, nil
		var rawBytes int64
		for k := 0; k < n; k += maxBatch {
			batch := make([]mcpclient.Event, 0, maxBatch)
			for i := k; i < min(k+maxBatch, n); i++ {
				e := millionEvent(i)
				rawBytes += int64(cap(e.Raw))
				batch = append(batch, e)
			}
			m.update(eventsMsg{events: batch})
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		per := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
		b.ReportMetric(per, "B-retained/event")
		b.ReportMetric(per-float64(rawBytes)/n, "B-beyond-raw/event")
		runtime.KeepAlive(m)
	}
}

// BenchmarkWireKeyMillion is a keypress and the screen drawn after it with one million
// events in the wire list, on an opened trace (bytes read back on demand) and on a live
// session (bytes in memory). Each key is pressed on the model as it was left by the
// previous press, so G and g alternate.
//
//	go test ./ui/ -run '^$' -bench WireKeyMillion
func BenchmarkWireKeyMillion(b *testing.B) {
	const n = 1_000_000
	path := writeMillion(b, n)
	tr, err := trace.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	models := map[string]*model{"open": openMillion(b, tr)}
	live := newTestModel(b, nil, 120, 40)
	for k := 0; k < n; k += maxBatch {
		batch := make([]mcpclient.Event, 0, maxBatch)
		for i := k; i < min(k+maxBatch, n); i++ {
			batch = append(batch, millionEvent(i))
		}
		live.update(eventsMsg{events: batch})
	}
	models["live"] = live
	for _, name := range []string{"open", "live"} {
		m := models[name]
		feed(m, keyMsg("3"))
		feed(m, keyMsg("g"))
		_ = m.render()
		for _, keys := range [][]string{{"j"}, {"down"}, {"pgdown"}, {"G", "g"}, {"f"}} {
			b.Run(name+"/"+keys[0], func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					feed(m, keyMsg(keys[i%len(keys)]))
					_ = m.render()
				}
				if m.tl.len() != n {
					b.Fatalf("%d events", m.tl.len())
				}
			})
		}
	}
}
