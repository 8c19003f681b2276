package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// The benchmarks below call the echo tool of the fake "minimal" server, which answers each
// request at once, one at a time (concurrency 1), so they measure the client and the pipes:
//
//	go test ./cmd -run '^$' -bench 'Bare|BenchCall|GoSDK' -benchtime 3s
//
// BenchmarkBareLoopBlocking is the ceiling: one request line written, one response line
// read, over the same pipes, with blocking write(2) and read(2) and nothing else
// (BenchmarkBareLoop is the same through the runtime's poller, slower here). `mcp-inspect
// bench call` should reach at least 0.8 of it; docs/performance.md has the numbers
// measured here.

// startMinimal spawns the fake minimal server with raw pipes.
func startMinimal(b *testing.B) (io.WriteCloser, io.ReadCloser, func()) {
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
	return in, out, func() {
		in.Close()
		_ = cmd.Wait()
	}
}

// bareSession starts the minimal server, does the handshake by hand and returns a round
// trip: write one line, read one line over the same pipes, nothing else. With blocking, the
// round trip is write(2) and read(2) on blocking descriptors, nothing of Go's runtime in
// between (the faster floor on this machine); without, it goes through *os.File and the
// runtime's poller.
func bareSession(b *testing.B, blocking bool) (roundTrip func(line []byte), stop func()) {
	in, rawOut, stop := startMinimal(b)
	out := bufio.NewReaderSize(rawOut, 64<<10)
	roundTrip = func(line []byte) {
		if _, err := in.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := out.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	if blocking {
		roundTrip = blockingRoundTrip(b, in, rawOut, roundTrip)
	}
	roundTrip([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}` + "\n"))
	roundTrip([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + `{"jsonrpc":"2.0","id":-1,"method":"ping"}` + "\n"))
	return roundTrip, stop
}

// bareLine is the request line of the n-th bare round trip: byte for byte the line `bench
// call echo -a text=x` writes for its n-th call, progress token included (every tools/call
// carries one, cases.md B11). The floor is the same request, not a shorter one: the minimal
// server parses the token's 26 bytes too, and without them the bare loop made 1.1 to 1.25
// times the calls/s here, a cost of the server's that no client sending a token can avoid.
func bareLine(line []byte, n int) []byte {
	line = append(line[:0], `{"jsonrpc":"2.0","id":`...)
	line = strconv.AppendInt(line, int64(n), 10)
	line = append(line, `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"_meta":{"progressToken":`...)
	line = strconv.AppendInt(line, int64(n), 10)
	return append(line, "}}}\n"...)
}

// BenchmarkBareLoop writes one tools/call line and reads one response line per iteration
// through *os.File (the runtime's poller): what a plain Go loop gets.
func BenchmarkBareLoop(b *testing.B) { benchBare(b, false) }

// BenchmarkBareLoopBlocking is BenchmarkBareLoop with write(2) and read(2) on blocking
// descriptors: the fastest any client can go against this server on this machine, the
// floor `bench call` is held to.
func BenchmarkBareLoopBlocking(b *testing.B) { benchBare(b, true) }

func benchBare(b *testing.B, blocking bool) {
	roundTrip, stop := bareSession(b, blocking)
	defer stop()
	line := make([]byte, 0, 256)
	b.ReportAllocs()
	r := startRate()
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		line = bareLine(line, i)
		roundTrip(line)
	}
	b.StopTimer()
	r.report(b)
}

// connectFake starts the fake server of scenario and connects to it, its events drained as
// the headless commands drain them; the session is closed when the test ends.
func connectFake(t testing.TB, scenario string) *mcpclient.Client {
	t.Helper()
	c, err := mcpclient.Start(mcpclient.Config{Command: fake.Binary(t), Args: []string{"--scenario", scenario}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	go func() {
		for range c.Events() {
		}
	}()
	if _, err := c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c
}

// BenchmarkClientCallTool is what `bench call -c 1` does per call: mcpclient.CallTool on one
// session, the events drained as the headless commands drain them.
func BenchmarkClientCallTool(b *testing.B) {
	c := connectFake(b, "minimal")
	ctx := context.Background()
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
// (bench.call) on one session, at the command's GOMAXPROCS (benchProcs) and with its pass
// through the scheduler (schedPass), the
// events drained as the headless commands drain them. Compare it with
// BenchmarkBareLoopBlocking in the same run (target: at least 0.8 of its calls/s).
func BenchmarkBenchCall(b *testing.B) { benchCall(b, false) }

// BenchmarkBenchCallRecord is BenchmarkBenchCall with the session recorded to a file with
// the default redaction, as --record does (target: at most 10% fewer calls/s).
func BenchmarkBenchCallRecord(b *testing.B) { benchCall(b, true) }

func benchCall(b *testing.B, record bool) {
	bc := benchSession(b, record)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(benchProcs(1, bc.client.CallerReading())))
	ctx := context.Background()
	pass := schedPass{on: bc.client.CallerReading() && runtime.GOMAXPROCS(0) > 1}
	b.ReportAllocs()
	r := startRate()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pass.maybe(time.Now())
		if err := bc.call(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	r.report(b)
}

// benchSession starts a connected session with the minimal server configured as bench call
// configures it, recorded as --record records when record is set, its events drained as
// the headless commands drain them.
func benchSession(b *testing.B, record bool) *bench {
	return benchSessionMode(b, record, true)
}

// benchSessionMode is benchSession with caller-reads mode on or off (off: the reader
// goroutine reads stdout, as at -c 2 and more).
func benchSessionMode(b *testing.B, record, callerReads bool) *bench {
	ctx := context.Background()
	cfg := mcpclient.Config{Command: fake.Binary(b), Args: []string{"--scenario", "minimal"}}
	benchClientConfig(&cfg, 1)
	cfg.CallerReads = callerReads
	cfg.EventFilter = drainWants // as the headless session sets it
	if record {
		red, err := trace.NewRedactor(trace.RedactConfig{Inherited: os.Environ(), Argv: append([]string{cfg.Command}, cfg.Args...)})
		if err != nil {
			b.Fatal(err)
		}
		w, err := trace.Create(filepath.Join(b.TempDir(), "bench.jsonl"), trace.Header{Tool: "bench"}, red)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { w.Close() })
		cfg.OnEvents = w.ObserveAll // as --record does
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

// BenchmarkCallVsBare interleaves the measured loops in blocks of callVsBareBlock calls:
// each round makes, in a shuffled order, a block of bare round trips on blocking
// descriptors (as BenchmarkBareLoopBlocking), one through the runtime's poller (as
// BenchmarkBareLoop), one of `bench call` calls (as BenchmarkBenchCall), one with the
// session recorded to a file with the default redaction (as --record), and one of go-sdk
// CallTool (as BenchmarkGoSDKCallTool), and one of `bench call` calls with caller-reads mode
// off (the reader goroutine reads stdout), each against its own minimal server, timing each
// separately. A busy machine then slows all of them alike, so the ratios hold still where
// separate benchmarks vary by 2x between runs:
//
//	go test ./cmd -run '^$' -bench CallVsBare -benchtime 20000x -count 6 -cpu 2
//
// (`bench call -c 1` runs at GOMAXPROCS 2, benchProcs: -cpu 2; its calls pass through the
// scheduler as the command's do, schedPass.) vs-bare is bench call's calls/s over
// the blocking bare loop's, the honest floor (target: at least 0.8), vs-bare-poller over
// the poller bare loop's; record-cost the share of calls/s --record takes (at most 0.1);
// vs-gosdk bench call over the go-sdk client (at least 5); reader-vs-bare the reader
// goroutine's calls/s over the blocking bare loop, vs-reader caller-reads mode's over it.
func BenchmarkCallVsBare(b *testing.B) {
	if b.N < callVsBareBlock {
		b.N = callVsBareBlock // whole blocks; the rates are per call anyway
	}
	roundTrip, stop := bareSession(b, true)
	defer stop()
	pollerTrip, stopPoller := bareSession(b, false)
	defer stopPoller()
	ctx := context.Background()
	plain, recorded := benchSession(b, false), benchSession(b, true)
	reader := benchSessionMode(b, false, false)
	sdk, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: exec.Command(fake.Binary(b), "--scenario", "minimal")}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer sdk.Close()
	sdkParams := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "x"}}
	line := make([]byte, 0, 256)
	id := 0
	pass := schedPass{on: plain.client.CallerReading() && runtime.GOMAXPROCS(0) > 1} // as the command's caller at -c 1
	loops := [6]func(){
		func() {
			id++
			line = bareLine(line, id)
			roundTrip(line)
		},
		func() {
			id++
			line = bareLine(line, id)
			pollerTrip(line)
		},
		func() {
			pass.maybe(time.Now())
			if err := plain.call(ctx, nil); err != nil {
				b.Fatal(err)
			}
		},
		func() {
			pass.maybe(time.Now())
			if err := recorded.call(ctx, nil); err != nil {
				b.Fatal(err)
			}
		},
		func() {
			if _, err := sdk.CallTool(ctx, sdkParams); err != nil {
				b.Fatal(err)
			}
		},
		func() {
			pass.maybe(time.Now())
			if err := reader.call(ctx, nil); err != nil {
				b.Fatal(err)
			}
		},
	}
	var spent [6]time.Duration
	b.ResetTimer()
	// Each round runs the loops in a new order: in a fixed cyclic order each loop always
	// follows the same one, and the second of two mcpclient sessions in a row measured up
	// to 40% slower whichever it was (so --record seemed to cost that much).
	order := rand.New(rand.NewPCG(1, 2))
	perm := []int{0, 1, 2, 3, 4, 5}
	for done := 0; done < b.N; done += callVsBareBlock {
		n := min(callVsBareBlock, b.N-done)
		order.Shuffle(len(perm), func(x, y int) { perm[x], perm[y] = perm[y], perm[x] })
		for _, j := range perm {
			t0 := time.Now()
			for range n {
				loops[j]()
			}
			spent[j] += time.Since(t0)
		}
	}
	b.StopTimer()
	rate := func(j int) float64 { return float64(b.N) / spent[j].Seconds() }
	b.ReportMetric(rate(0), "bare-calls/s")
	b.ReportMetric(rate(1), "bare-poller-calls/s")
	b.ReportMetric(rate(2), "calls/s")
	b.ReportMetric(rate(4), "gosdk-calls/s")
	b.ReportMetric(rate(2)/rate(0), "vs-bare")
	b.ReportMetric(rate(2)/rate(1), "vs-bare-poller")
	b.ReportMetric(1-rate(3)/rate(2), "record-cost")
	b.ReportMetric(rate(2)/rate(4), "vs-gosdk")
	b.ReportMetric(rate(5)/rate(0), "reader-vs-bare")
	b.ReportMetric(rate(2)/rate(5), "vs-reader")
}

// callVsBareBlock is how many calls each loop of BenchmarkCallVsBare makes in a row: one
// call each in turn would measure how fast a server that sleeps between calls wakes up (all
// loops then run at a third of their speed), not calls per second of a loop; a block lasts
// about 10 ms, short enough that the machine's load changes little between blocks.
const callVsBareBlock = 200

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
func cpuTime() time.Duration { return platformtest.ProcessCPU() }

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

// TestBareLineIsBenchLine holds the bare loops to the bytes `bench call` writes: the floor is
// only a floor for the same request (bareLine).
func TestBareLineIsBenchLine(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bench.jsonl")
	r := inspect(t, nil, cmdline([]string{"bench", "call", "echo", "-a", "text=x", "-n", "5", "--warmup", "2", "--record", path}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, 0)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, row := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var ev struct {
			Dir string `json:"dir"`
			Raw string `json:"raw"`
		}
		if err := json.Unmarshal(row, &ev); err != nil {
			t.Fatalf("trace row %s: %v", row, err)
		}
		var req struct {
			ID     int    `json:"id"`
			Method string `json:"method"`
		}
		if ev.Dir != "c2s" || json.Unmarshal([]byte(ev.Raw), &req) != nil || req.Method != "tools/call" {
			continue
		}
		calls++
		if want := string(bareLine(nil, req.ID)); ev.Raw != want {
			t.Fatalf("bench call wrote\n%q\nthe bare loops write\n%q", ev.Raw, want)
		}
	}
	if calls != 7 {
		t.Fatalf("%d tools/call requests in the trace, want 7 (5 and 2 of warmup)", calls)
	}
}
