package trace_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// BenchmarkEncode is the recorder's CPU per event without the file: one event encoded
// (JSON-escaped raw bytes) and redacted, written to io.Discard. Frames: a 200-byte
// tools/call response and a 4 KB line of JSON text; redaction off, the default rules with
// no secret in the environment (the tap's usual case), and two -e secrets.
func BenchmarkEncode(b *testing.B) {
	small := benchEvent(1, time.Now()).Raw
	big := append([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"`), bytes.Repeat([]byte(`lorem ipsum \"dolor\" sit amet, 12 + 30 = 42; `), 85)...)
	big = append(big, "\"}}\n"...)
	for _, frame := range []struct {
		name string
		raw  []byte
	}{{"200B", small}, {"4KB", big}} {
		for _, red := range []struct {
			name string
			cfg  *trace.RedactConfig
		}{
			{"off", nil},
			{"default", &trace.RedactConfig{Inherited: []string{"HOME=/home/me", "PATH=/usr/bin"}, Argv: []string{"server", "--stdio"}}},
			{"secrets", &trace.RedactConfig{Env: []string{"GITHUB_PERSONAL_ACCESS_TOKEN=" + b25Token, "DEMO_PASSWORD=" + b25Password}}},
		} {
			b.Run(fmt.Sprintf("%s/redact=%s", frame.name, red.name), func(b *testing.B) {
				var r *trace.Redactor
				if red.cfg != nil {
					r = mustRedactor(b, *red.cfg)
				}
				w, err := trace.NewWriter(io.Discard, trace.Header{Tool: "bench"}, r)
				if err != nil {
					b.Fatal(err)
				}
				ev := mcpclient.Event{Time: time.Now(), Dir: mcpclient.ServerToClient, Raw: frame.raw, Size: int64(len(frame.raw))}
				b.SetBytes(int64(len(frame.raw)))
				b.ReportAllocs()
				cpu0 := processCPU()
				for i := 0; b.Loop(); i++ {
					ev.Seq = uint64(i + 1)
					if err := w.Write(ev); err != nil {
						b.Fatal(err)
					}
				}
				// CPU time moves much less than the wall clock on a shared machine.
				b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// processCPU is the CPU time (user and system) this process has used so far, in ns.
func processCPU() int64 { return int64(platformtest.ProcessCPU()) }

// BenchmarkNewRedactorManySecrets builds a Redactor over 1 500 inherited secrets (a CI
// runner's environment can hold hundreds of *_TOKEN variables): the prefilter's tables
// are built once, not per clue (which took 9 s here where this takes about 40 ms).
func BenchmarkNewRedactorManySecrets(b *testing.B) {
	var env []string
	for i := range 1500 {
		env = append(env, fmt.Sprintf("X%d_TOKEN=secret-value-%d+/=%%x", i, i*7919))
	}
	for b.Loop() {
		mustRedactor(b, trace.RedactConfig{Inherited: env})
	}
}
