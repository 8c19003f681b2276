package ui

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// BenchmarkFloodNotify measures the flood of issue 8 end to end: one op is one
// notifications/message from the flood-notify fake server, framed and classified by
// mcpclient and absorbed by the model's Update the way the event pump delivers it (what is
// ready, up to maxBatch per Update). Run it with -benchtime=100000x for the issue's
// 100,000 notifications; msgs/s is the throughput.
func BenchmarkFloodNotify(b *testing.B) {
	m := newTestModel(b, nil, 160, 50)
	c := floodClient(b, "flood-notify", b.N, nil)
	errc := connect(c)
	b.ReportAllocs()
	b.ResetTimer()
	absorb(b, m, c, notifyDone(b.N), nil)
	b.StopTimer()
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// floodEvents builds n events as flood-notify's notifications arrive (classified like the
// client does), numbered from seq on.
func floodEvents(seq uint64, n int) []mcpclient.Event {
	evs := make([]mcpclient.Event, n)
	for i := range evs {
		s := seq + uint64(i)
		evs[i] = ev(s, mcpclient.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"flood %06d"}}`+"\n", s))
	}
	return evs
}

// BenchmarkKeyUnderFlood splits a keypress's latency while a flood is absorbed, on a model
// that already holds 100,000 flood notifications (wire pane focused):
//
//   - absorb-batch: one Update with a full batch (maxBatch events), the longest a key can
//     wait behind the flood in the event pump;
//   - key+view: the key's own Update (j/k in the wire pane) and the View that shows it.
//
// The keypress's cost under flood is their sum; the 100 ms target of issue 8 is for it.
func BenchmarkKeyUnderFlood(b *testing.B) {
	const held = 100_000
	setup := func(b *testing.B) (*model, uint64) {
		m := newTestModel(b, nil, 160, 50)
		for s := uint64(1); s <= held; s += maxBatch {
			m.Update(eventsMsg{events: floodEvents(s, min(maxBatch, held+1-int(s)))})
		}
		keys(b, m, "3")
		_ = m.View()
		return m, held + 1
	}
	b.Run("absorb-batch", func(b *testing.B) {
		m, next := setup(b)
		batches := make([][]mcpclient.Event, b.N)
		for i := range batches {
			batches[i] = floodEvents(next, maxBatch)
			next += maxBatch
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			m.Update(eventsMsg{events: batches[i]})
			batches[i] = nil
		}
	})
	b.Run("key+view", func(b *testing.B) {
		m, _ := setup(b)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if i%2 == 0 {
				m.Update(keyMsg("k"))
			} else {
				m.Update(keyMsg("j"))
			}
			_ = m.View()
		}
	})
}

// BenchmarkFloodHeap reports what the model retains per line of a flood from the real
// client (B/line: heap after a GC, less the heap before, over the lines): stderr lines from
// flood-stderr, notifications/message from flood-notify. One op is one flood of 20,000.
func BenchmarkFloodHeap(b *testing.B) {
	const n = 20_000
	for _, kind := range []string{"stderr", "notify"} {
		b.Run(kind, func(b *testing.B) {
			var per float64
			for i := 0; i < b.N; i++ {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				m := newTestModel(b, nil, 120, 40)
				if kind == "stderr" {
					c := floodClient(b, "flood-stderr", n, nil, "FAKE_RATE=0")
					absorb(b, m, c, stderrDone(n), nil)
					c.Close()
				} else {
					c := floodClient(b, "flood-notify", n, nil)
					errc := connect(c)
					absorb(b, m, c, notifyDone(n), nil)
					if err := <-errc; err != nil {
						b.Fatal(err)
					}
					c.Close()
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				per += float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
				runtime.KeepAlive(m)
			}
			b.ReportMetric(per/float64(b.N), "B/line")
		})
	}
}
