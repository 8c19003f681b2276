package tap

import (
	"bufio"
	"bytes"
	"context"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	mcpsession "github.com/mcp-inspect/mcp-inspect/session"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// echoPeer is a host's view of an echo server (cat): write bytes, read them back. It is
// either the server directly or the server behind an in-process tap.
type echoPeer struct {
	w    *os.File
	r    *os.File
	stop func()
	sock string // the tap's attach socket ("" direct)
}

// directCat starts a cat (the test binary as one: catArgv) with pipes, as a host would.
func directCat(tb testing.TB) *echoPeer {
	tb.Helper()
	cmd := exec.Command(catArgv()[0], catArgv()[1:]...)
	w, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stdout = outW
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	outW.Close()
	return &echoPeer{w: w.(*os.File), r: outR, stop: func() {
		w.Close()
		_ = cmd.Wait()
		outR.Close()
	}}
}

// tappedCat starts a cat (catArgv) behind a tap that records to a file and publishes its socket.
func tappedCat(tb testing.TB) *echoPeer { return tapped(tb, nil, catArgv()...) }

// tapped starts argv behind a tap that records to a file (scrubbed by red, nil: not at
// all) and publishes its socket.
func tapped(tb testing.TB, red *trace.Redactor, argv ...string) *echoPeer {
	return tappedRules(tb, red, nil, argv...)
}

// tappedRules is tapped with --inject rules.
func tappedRules(tb testing.TB, red *trace.Redactor, rules []Rule, argv ...string) *echoPeer {
	tb.Helper()
	dir := tb.TempDir()
	inR, inW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	done := make(chan struct{})
	started := make(chan struct{})
	var sock string
	go func() {
		defer close(done)
		_, err := Run(context.Background(), Options{
			Argv: argv, Stdin: inR, Stdout: outW, Stderr: io.Discard, Redactor: red,
			TracePath: filepath.Join(dir, "t.jsonl"), SocketDir: filepath.Join(dir, "run"),
			Signals: []os.Signal{}, OnStart: func(_ int, s string) { sock = s; close(started) }, Inject: rules,
		})
		if err != nil {
			tb.Error(err)
		}
	}()
	<-started
	return &echoPeer{w: inW, r: outR, sock: sock, stop: func() {
		inW.Close()
		<-done
		inR.Close()
		outR.Close()
	}}
}

// tappedBreakpoints is tappedCat with an attach that set three breakpoints matching
// nothing the benchmark sends.
func tappedBreakpoints(tb testing.TB) *echoPeer { return tappedAttached(tb, true) }

// tappedAttached is tappedCat with an attach reading the trace, with three breakpoints that
// match nothing the benchmark sends when breakpoints is set, else none.
func tappedAttached(tb testing.TB, breakpoints bool) *echoPeer {
	p := tappedCat(tb)
	st, err := Attach(p.sock)
	if err != nil {
		tb.Fatal(err)
	}
	ch := st.Updates()
	go func() {
		for {
			if _, err := st.Next(); err != nil {
				return
			}
		}
	}()
	if breakpoints {
		if err := st.Set(mcpsession.BreakpointSet{Filters: []string{"method:tools/call", "dir:in kind:error", "tool:delete_*"}}); err != nil {
			tb.Fatal(err)
		}
		if u := <-ch; u.Set == nil {
			tb.Fatalf("breakpoints refused: %+v", u)
		}
	}
	stop := p.stop
	p.stop = func() {
		st.Close()
		stop()
	}
	return p
}

// roundTrip writes line and reads until it is back.
func (p *echoPeer) roundTrip(line, buf []byte) error {
	if _, err := p.w.Write(line); err != nil {
		return err
	}
	_, err := io.ReadFull(p.r, buf[:len(line)])
	return err
}

// latencies measures n round trips of a line of size bytes.
func latencies(tb testing.TB, p *echoPeer, n, size int) []time.Duration {
	line := append(bytes.Repeat([]byte("a"), size-1), '\n')
	buf := make([]byte, size)
	for range 200 { // warm up
		if err := p.roundTrip(line, buf); err != nil {
			tb.Fatal(err)
		}
	}
	out := make([]time.Duration, n)
	for i := range out {
		t0 := time.Now()
		if err := p.roundTrip(line, buf); err != nil {
			tb.Fatal(err)
		}
		out[i] = time.Since(t0)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func pct(d []time.Duration, p float64) time.Duration { return d[int(float64(len(d)-1)*p)] }

// throughput pushes total bytes in lines of size through p and reads them back
// concurrently; it returns bytes per second.
func throughput(tb testing.TB, p *echoPeer, total, size int) float64 {
	line := append(bytes.Repeat([]byte("b"), size-1), '\n')
	chunk := bytes.Repeat(line, (256<<10)/size)
	n := total / len(chunk)
	t0 := time.Now()
	errc := make(chan error, 1)
	go func() {
		for range n {
			if _, err := p.w.Write(chunk); err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	if _, err := io.CopyN(io.Discard, p.r, int64(n*len(chunk))); err != nil {
		tb.Fatal(err)
	}
	if err := <-errc; err != nil {
		tb.Fatal(err)
	}
	return float64(n*len(chunk)) / time.Since(t0).Seconds()
}

// BenchmarkRoundTrip is one 200-byte message to an echo server and back, directly and
// through the tap (recording to a file, socket published).
func BenchmarkRoundTrip(b *testing.B) {
	for _, bc := range []struct {
		name  string
		start func(testing.TB) *echoPeer
	}{{"direct", directCat}, {"tap", tappedCat}} {
		b.Run(bc.name, func(b *testing.B) {
			p := bc.start(b)
			defer p.stop()
			line := append(bytes.Repeat([]byte("a"), 199), '\n')
			buf := make([]byte, len(line))
			b.ResetTimer()
			for b.Loop() {
				if err := p.roundTrip(line, buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRoundTripInject is one 200-byte JSON-RPC request to an echo server and back
// (cat: both directions see a tools/list request), directly, through the tap, and
// through the tap with three --inject rules that match nothing, with an attach reading the
// trace, and with that attach's three breakpoints that match nothing; p50-ns is the median
// round trip. What the rules add is (inject3 - direct) / (tap - direct) at p50, what the
// breakpoints add (break3 - direct) / (attached - direct):
//
//	go test ./tap -run '^$' -bench RoundTripInject -count 6 | tee /tmp/b.txt; benchstat /tmp/b.txt
func BenchmarkRoundTripInject(b *testing.B) {
	rules := benchRules(b)
	line := benchLine()
	for _, bc := range []struct {
		name  string
		start func(testing.TB) *echoPeer
	}{
		{"direct", directCat},
		{"tap", tappedCat},
		{"inject3", func(tb testing.TB) *echoPeer { return tappedRules(tb, nil, rules, catArgv()...) }},
		{"attached", func(tb testing.TB) *echoPeer { return tappedAttached(tb, false) }},
		{"break3", tappedBreakpoints},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := bc.start(b)
			defer p.stop()
			buf := make([]byte, len(line))
			for range 200 { // warm up
				if err := p.roundTrip(line, buf); err != nil {
					b.Fatal(err)
				}
			}
			var took []time.Duration
			b.ResetTimer()
			for b.Loop() {
				t0 := time.Now()
				if err := p.roundTrip(line, buf); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(t0))
			}
			sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
			b.ReportMetric(float64(pct(took, .5).Nanoseconds()), "p50-ns")
		})
	}
}

// BenchmarkThroughput streams 4 KB lines both ways, directly and through the tap.
func BenchmarkThroughput(b *testing.B) {
	for _, bc := range []struct {
		name  string
		start func(testing.TB) *echoPeer
	}{{"direct", directCat}, {"tap", tappedCat}} {
		b.Run(bc.name, func(b *testing.B) {
			p := bc.start(b)
			defer p.stop()
			const size = 4096
			line := append(bytes.Repeat([]byte("b"), size-1), '\n')
			chunk := bytes.Repeat(line, 64)
			b.SetBytes(int64(len(chunk)))
			errc := make(chan error, 1)
			b.ResetTimer()
			go func() {
				for range b.N {
					if _, err := p.w.Write(chunk); err != nil {
						errc <- err
						return
					}
				}
				errc <- nil
			}()
			if _, err := io.CopyN(io.Discard, p.r, int64(b.N*len(chunk))); err != nil {
				b.Fatal(err)
			}
			if err := <-errc; err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkMCPThroughput is tools/call traffic to the fake minimal server with 32 requests
// in flight, directly and through the tap recording with the default redaction (what
// `mcp-inspect tap --record` does); an op is one request and its response. For profiles
// of the tap's side of the cost:
//
//	go test ./tap -run '^$' -bench MCPThroughput/tap -cpuprofile cpu.out
func BenchmarkMCPThroughput(b *testing.B) {
	srv := fake.Binary(b)
	red, err := trace.NewRedactor(trace.RedactConfig{Inherited: os.Environ(), Argv: []string{srv}})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		start func(testing.TB) *echoPeer
	}{
		{"direct", func(tb testing.TB) *echoPeer { return direct(tb, srv, "--scenario", "minimal") }},
		{"tap", func(tb testing.TB) *echoPeer { return tapped(tb, red, srv, "--scenario", "minimal") }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := bc.start(b)
			defer p.stop()
			r := bufio.NewReaderSize(p.r, 64<<10)
			if _, err := p.w.Write([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n")); err != nil {
				b.Fatal(err)
			}
			if _, err := r.ReadSlice('\n'); err != nil {
				b.Fatal(err)
			}
			sem := make(chan struct{}, 32)
			errc := make(chan error, 1)
			b.ResetTimer()
			go func() {
				var line []byte
				for i := range b.N {
					sem <- struct{}{}
					line = append(line[:0], `{"jsonrpc":"2.0","id":`...)
					line = strconv.AppendInt(line, int64(i+1), 10)
					line = append(line, `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a message of the benchmark, about a hundred bytes of payload to echo"}}}`+"\n"...)
					if _, err := p.w.Write(line); err != nil {
						errc <- err
						return
					}
				}
				errc <- nil
			}()
			for range b.N {
				if _, err := r.ReadSlice('\n'); err != nil {
					b.Fatal(err)
				}
				<-sem
			}
			if err := <-errc; err != nil {
				b.Fatal(err)
			}
		})
	}
}

// direct starts argv with pipes, as a host would.
func direct(tb testing.TB, argv ...string) *echoPeer {
	tb.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	w, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stdout = outW
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	outW.Close()
	return &echoPeer{w: w.(*os.File), r: outR, stop: func() {
		w.Close()
		_ = cmd.Wait()
		outR.Close()
	}}
}

// TestOverhead measures what the tap adds, in-process: round-trip latency percentiles and
// throughput, direct versus through the tap. It asserts only loose bounds (the machine is
// shared); the numbers are logged, and README's "Tap" section quotes a quiet run.
func TestOverhead(t *testing.T) {
	const n, size = 2000, 200
	d := directCat(t)
	dl := latencies(t, d, n, size)
	dt := throughput(t, d, 64<<20, 4096)
	d.stop()
	tp := tappedCat(t)
	tl := latencies(t, tp, n, size)
	tt := throughput(t, tp, 64<<20, 4096)
	tp.stop()
	t.Logf("round trip of %d B, %d samples: direct p50 %v p99 %v; tap p50 %v p99 %v; added p50 %v p99 %v",
		size, n, pct(dl, .5), pct(dl, .99), pct(tl, .5), pct(tl, .99), pct(tl, .5)-pct(dl, .5), pct(tl, .99)-pct(dl, .99))
	t.Logf("throughput (4 KB lines, both ways): direct %.0f MB/s, tap %.0f MB/s (%.0f%%)", dt/1e6, tt/1e6, 100*tt/dt)
	if added := pct(tl, .5) - pct(dl, .5); added > 5*time.Millisecond {
		t.Errorf("the tap adds %v per round trip at p50", added)
	}
	if tt < 10e6 {
		t.Errorf("throughput through the tap %.0f MB/s (direct %.0f MB/s): the stream is held up", tt/1e6, dt/1e6)
	}
}

// BenchmarkMatchNothing is one frame (a 200-byte tools/list request) matched against three
// rules that match nothing: the per-frame cost of rules and breakpoints on the forward path.
func BenchmarkMatchNothing(b *testing.B) {
	line := benchLine()
	line = line[:len(line)-1]
	rules := benchRules(b)
	bps := make([]string, len(rules))
	for i, r := range rules {
		bps[i] = r.Filter.String()
	}
	for _, bc := range []struct {
		name string
		in   func() *injector
	}{
		{"rules", func() *injector { return newInjector(rules, time.Now(), false, nil) }},
		{"breakpoints", func() *injector {
			in := newInjector(nil, time.Now(), true, nil)
			if _, _, err := in.holds.table.Set(bps, 0); err != nil {
				b.Fatal(err)
			}
			return in
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			in := bc.in()
			b.ReportAllocs()
			for b.Loop() {
				for _, dir := range []mcpclient.Direction{mcpclient.ClientToServer, mcpclient.ServerToClient} {
					if _, ok := in.match(dir, line, nil); ok {
						b.Fatal("a rule matched")
					}
				}
			}
		})
	}
}
