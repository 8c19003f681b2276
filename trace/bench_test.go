package trace_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// benchEvent is a typical frame: a ~200-byte tools/call response.
func benchEvent(seq uint64, at time.Time) mcpclient.Event {
	raw := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"The weather in Lisbon is 21 degrees and sunny, with a light breeze from the west."}],"isError":false}}`+"\n", seq))
	return mcpclient.Event{Seq: seq, Time: at, Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Raw: raw, Size: int64(len(raw))}
}

// BenchmarkWrite measures events written per second to a real file, one write(2) per event,
// with and without the default redaction rules.
func BenchmarkWrite(b *testing.B) {
	for _, redact := range []bool{false, true} {
		b.Run(fmt.Sprintf("redact=%v", redact), func(b *testing.B) {
			var red *trace.Redactor
			if redact {
				red = mustRedactor(b, trace.RedactConfig{
					Env:       []string{"GITHUB_PERSONAL_ACCESS_TOKEN=" + b25Token, "DEMO_PASSWORD=" + b25Password},
					Inherited: []string{"OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuv", "HOME=/home/me"},
				})
			}
			w, err := trace.Create(filepath.Join(b.TempDir(), "bench.jsonl"), trace.Header{Tool: "bench"}, red)
			if err != nil {
				b.Fatal(err)
			}
			now := time.Now()
			ev := benchEvent(1, now)
			b.SetBytes(int64(len(ev.Raw)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ev.Seq = uint64(i + 1)
				if err := w.Write(ev); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
			w.Close()
		})
	}
}

// BenchmarkOpenMillion measures opening (indexing) a trace of one million events, and
// reading one event from its middle.
func BenchmarkOpenMillion(b *testing.B) {
	const n = 1_000_000
	path := filepath.Join(b.TempDir(), "million.jsonl")
	w, err := trace.Create(path, trace.Header{Tool: "bench"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	for i := 1; i <= n; i++ {
		if err := w.Write(benchEvent(uint64(i), now.Add(time.Duration(i)*time.Microsecond))); err != nil {
			b.Fatal(err)
		}
	}
	w.Close()
	b.Run("open", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tr, err := trace.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			if tr.Len() != n {
				b.Fatalf("Len %d", tr.Len())
			}
			b.SetBytes(tr.Size())
			tr.Close()
		}
	})
	b.Run("open+event", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tr, err := trace.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			ev, err := tr.Event(n / 2)
			if err != nil || ev.Kind != mcpclient.KindResponse {
				b.Fatal(err, ev.Kind)
			}
			tr.Close()
		}
	})
}
