package cmd

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// BenchmarkTapOTLP measures what --otlp adds to the tap (issue 28: at most 10% of the tap's
// added round-trip time at p50): 200 tools/call round trips to the fake server one at a
// time, directly, through the tap, and through the tap exporting to an OTLP receiver (a
// local one that takes every export), interleaved op by op so a busy machine slows all
// three alike. otlp-vs-tap-added is (tap+otlp p50 − direct p50) / (tap p50 − direct p50).
//
//	go test ./cmd -run '^$' -bench TapOTLP -benchtime 10x -count 6
func BenchmarkTapOTLP(b *testing.B) {
	bin := testservers.BuildInspector(b)
	srv := fake.Binary(b)
	env := append(tapEnv(b), fake.EnvScenario+"=minimal")
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	b.Cleanup(receiver.Close)
	req := func(i int) []byte {
		return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"message %d of the benchmark, about a hundred bytes of payload to echo back"}}}`+"\n", i+1_000_000, i))
	}
	tapArgs := func(name string, extra ...string) []string {
		args := append([]string{bin, "tap", "--name", name, "--record", filepath.Join(b.TempDir(), name+".jsonl")}, extra...)
		return append(append(args, "--"), srv)
	}
	sides := []*hostSide{
		startHostSide(b, env, srv),
		startHostSide(b, env, tapArgs("bench")...),
		startHostSide(b, env, tapArgs("bench-otlp", "--otlp", receiver.URL)...),
	}
	b.Cleanup(func() {
		for _, h := range sides {
			h.close()
		}
	})
	for _, h := range sides {
		h.line(b, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n"))
		_, _ = h.w.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
		for i := range 200 { // warm up
			h.line(b, req(-i-1))
		}
	}
	times := make([][]time.Duration, len(sides))
	b.ResetTimer()
	for n := range b.N {
		for k := range sides {
			s := (k + n) % len(sides) // rotate which side goes first
			h := sides[s]
			for i := range 200 {
				t0 := time.Now()
				h.line(b, req(i))
				times[s] = append(times[s], time.Since(t0))
			}
		}
	}
	b.StopTimer()
	d, t, o := measure(times[0]), measure(times[1]), measure(times[2])
	b.ReportMetric(float64((t.p50 - d.p50).Microseconds()), "tap-added-p50-µs")
	b.ReportMetric(float64((o.p50 - d.p50).Microseconds()), "otlp-added-p50-µs")
	if t.p50 > d.p50 {
		b.ReportMetric(float64(o.p50-d.p50)/float64(t.p50-d.p50), "otlp-vs-tap-added")
	}
}
