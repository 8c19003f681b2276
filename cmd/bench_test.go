package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/recorder"
)

// The benchmarks below call the echo tool of the fake "minimal" server, which answers each
// request at once, one at a time (concurrency 1), so they measure the client and the pipes:
//
//	go test ./cmd -run '^$' -bench 'Bare|Client|GoSDK' -benchtime 3s
//
// BenchmarkBareLoop is the ceiling: one request line written, one response line read, over
// the same pipes, with nothing else. `mcp-inspect bench call` should reach at least half of
// it; README.md "Performance" has the numbers measured here.

// startMinimal spawns the fake minimal server with raw pipes.
func startMinimal(b *testing.B) (io.WriteCloser, *bufio.Reader, func()) {
	b.Helper()
	cmd := exec.Command(fake.Binary(b), "--scenario", "minimal")
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return in, bufio.NewReaderSize(out, 64<<10), func() {
		in.Close()
		_ = cmd.Wait()
	}
}

// bareSession starts the minimal server, does the handshake by hand and returns a round
// trip: write one line, read one line over the same pipes, nothing else.
func bareSession(b *testing.B) (roundTrip func(line []byte), stop func()) {
	in, out, stop := startMinimal(b)
	roundTrip = func(line []byte) {
		if _, err := in.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := out.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	roundTrip([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}` + "\n"))
	if _, err := in.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
		b.Fatal(err)
	}
	return roundTrip, stop
}

// BenchmarkBareLoop writes one tools/call line and reads one response line per iteration:
// the fastest any client can go against this server on this machine.
func BenchmarkBareLoop(b *testing.B) {
	roundTrip, stop := bareSession(b)
	defer stop()
	line := make([]byte, 0, 256)
	b.ReportAllocs()
	r := startRate()
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		line = append(line[:0], `{"jsonrpc":"2.0","id":`...)
		line = strconv.AppendInt(line, int64(i), 10)
		line = append(line, `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`+"\n"...)
		roundTrip(line)
	}
	b.StopTimer()
	r.report(b)
}

// BenchmarkClientCallTool is what `bench call -c 1` does per call: mcpclient.CallTool on one
// session, the events drained as the headless commands drain them.
func BenchmarkClientCallTool(b *testing.B) {
	c, err := mcpclient.Start(mcpclient.Config{Command: fake.Binary(b), Args: []string{"--scenario", "minimal"}})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	go func() {
		for range c.Events() {
		}
	}()
	ctx := context.Background()
	if _, err := c.Connect(ctx); err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"text":"x"}`)
	b.ReportAllocs()
	r := startRate()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := c.CallTool(ctx, "echo", args); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	r.report(b)
}

// BenchmarkBenchCall is one call of `bench call echo -a text=x -c 1`: the command's own call
// (bench.call) on one session, at GOMAXPROCS 1 as the command runs at concurrency 1, the
// events drained as the headless commands drain them. Compare it with BenchmarkBareLoop
// in the same run (target: at least half its calls/s).
func BenchmarkBenchCall(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	c, err := mcpclient.Start(mcpclient.Config{Command: fake.Binary(b), Args: []string{"--scenario", "minimal"}})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	go func() {
		for range c.Events() {
		}
	}()
	ctx := context.Background()
	if _, err := c.Connect(ctx); err != nil {
		b.Fatal(err)
	}
	bc, err := newBench(c, "echo", json.RawMessage(`{"text":"x"}`))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	r := startRate()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := bc.call(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	r.report(b)
}

// BenchmarkCallVsBare interleaves the measured loops call by call: each iteration makes one
// bare round trip (as BenchmarkBareLoop), one `bench call` call (as BenchmarkBenchCall), one
// with the session recorded to a file with the default redaction (as --record), and one
// go-sdk CallTool (as BenchmarkGoSDKCallTool), each against its own minimal server, in an
// order that rotates, timing each separately. A busy machine then slows all of them alike,
// so the ratios hold still where separate benchmarks vary by 2x between runs:
//
//	go test ./cmd -run '^$' -bench CallVsBare -benchtime 5000x -count 6 -cpu 1,2
//
// (`bench call -c 1` runs at GOMAXPROCS 1: -cpu 1.) vs-bare is bench call's calls/s over
// the bare loop's (target: at least 0.5); record-cost the share of calls/s --record takes
// (at most 0.2); vs-gosdk bench call over the go-sdk client (at least 5).
func BenchmarkCallVsBare(b *testing.B) {
	roundTrip, stop := bareSession(b)
	defer stop()
	ctx := context.Background()
	session := func(record bool) *bench {
		cfg := mcpclient.Config{Command: fake.Binary(b), Args: []string{"--scenario", "minimal"}}
		if record {
			red, err := recorder.NewRedactor(recorder.RedactConfig{Inherited: os.Environ(), Argv: append([]string{cfg.Command}, cfg.Args...)})
			if err != nil {
				b.Fatal(err)
			}
			w, err := recorder.Create(filepath.Join(b.TempDir(), "bench.jsonl"), recorder.Header{Tool: "bench"}, red)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { w.Close() })
			cfg.OnEvent = w.Observe
		}
		c, err := mcpclient.Start(cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Close() })
		go func() {
			for range c.Events() {
			}
		}()
		if _, err := c.Connect(ctx); err != nil {
			b.Fatal(err)
		}
		bc, err := newBench(c, "echo", json.RawMessage(`{"text":"x"}`))
		if err != nil {
			b.Fatal(err)
		}
		return bc
	}
	plain, recorded := session(false), session(true)
	sdk, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: exec.Command(fake.Binary(b), "--scenario", "minimal")}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer sdk.Close()
	sdkParams := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "x"}}
	line := make([]byte, 0, 256)
	id := 0
	loops := [4]func(){
		func() {
			id++
			line = append(line[:0], `{"jsonrpc":"2.0","id":`...)
			line = strconv.AppendInt(line, int64(id), 10)
			line = append(line, `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`+"\n"...)
			roundTrip(line)
		},
		func() {
			if err := plain.call(ctx, nil); err != nil {
				b.Fatal(err)
			}
		},
		func() {
			if err := recorded.call(ctx, nil); err != nil {
				b.Fatal(err)
			}
		},
		func() {
			if _, err := sdk.CallTool(ctx, sdkParams); err != nil {
				b.Fatal(err)
			}
		},
	}
	var spent [4]time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range loops {
			j := (i + k) % len(loops)
			t0 := time.Now()
			loops[j]()
			spent[j] += time.Since(t0)
		}
	}
	b.StopTimer()
	rate := func(j int) float64 { return float64(b.N) / spent[j].Seconds() }
	b.ReportMetric(rate(0), "bare-calls/s")
	b.ReportMetric(rate(1), "calls/s")
	b.ReportMetric(rate(3), "gosdk-calls/s")
	b.ReportMetric(rate(1)/rate(0), "vs-bare")
	b.ReportMetric(1-rate(2)/rate(1), "record-cost")
	b.ReportMetric(rate(1)/rate(3), "vs-gosdk")
}

// BenchmarkGoSDKCallTool is the official go-sdk client against the same server.
func BenchmarkGoSDKCallTool(b *testing.B) {
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil)
	ctx := context.Background()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(fake.Binary(b), "--scenario", "minimal")}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer session.Close()
	params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "x"}}
	b.ReportAllocs()
	r := startRate()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := session.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	r.report(b)
}

// cpuTime is the CPU time (user and system) this test process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rate measures calls/s and the client's CPU time per call (µs), which a busy machine
// disturbs much less than the wall clock. Call it right before b.ResetTimer; report after
// b.StopTimer.
type rate struct{ cpu0 time.Duration }

func startRate() rate { return rate{cpuTime()} }

func (r rate) report(b *testing.B) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(b.N)/s, "calls/s")
	}
	b.ReportMetric(float64((cpuTime()-r.cpu0).Microseconds())/float64(b.N), "cpu-µs/call")
}
