package cmd

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// host is a process started the way a host starts a server: pipes on stdin and stdout.
type hostSide struct {
	cmd *exec.Cmd
	w   io.WriteCloser
	r   *bufio.Reader
}

func startHostSide(t testing.TB, env []string, argv ...string) *hostSide {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &hostSide{cmd: cmd, w: w, r: bufio.NewReaderSize(out, 1<<20)}
}

func (h *hostSide) close() {
	h.w.Close()
	io.Copy(io.Discard, h.r)
	_ = h.cmd.Wait()
}

// line sends one line and reads one line back.
func (h *hostSide) line(t testing.TB, b []byte) []byte {
	if _, err := h.w.Write(b); err != nil {
		t.Fatal(err)
	}
	got, err := h.r.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	return got
}

type percentiles struct{ p50, p99 time.Duration }

func measure(d []time.Duration) percentiles {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return percentiles{d[len(d)/2], d[len(d)*99/100]}
}

// roundTrips measures n round trips of a request line through h.
func roundTrips(t testing.TB, h *hostSide, n int, req func(i int) []byte) percentiles {
	for i := range 100 { // warm up
		h.line(t, req(-i-1))
	}
	d := make([]time.Duration, n)
	for i := range d {
		b := req(i)
		t0 := time.Now()
		h.line(t, b)
		d[i] = time.Since(t0)
	}
	return measure(d)
}

// pipelined sends n requests keeping window of them outstanding and returns messages per
// second (requests and responses both counted once per request).
func pipelined(t testing.TB, h *hostSide, n, window int, req func(i int) []byte) float64 {
	sem := make(chan struct{}, window)
	errc := make(chan error, 1)
	t0 := time.Now()
	go func() {
		for i := range n {
			sem <- struct{}{}
			if _, err := h.w.Write(req(i)); err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	for range n {
		if _, err := h.r.ReadBytes('\n'); err != nil {
			t.Fatal(err)
		}
		<-sem
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	return float64(n) / time.Since(t0).Seconds()
}

// bulk pushes total bytes of lines of size through h while reading them back, in bytes per
// second.
func bulk(t testing.TB, h *hostSide, total, size int) float64 {
	line := append(bytes.Repeat([]byte("b"), size-1), '\n')
	chunk := bytes.Repeat(line, (256<<10)/size)
	n := total / len(chunk)
	t0 := time.Now()
	go func() {
		for range n {
			if _, err := h.w.Write(chunk); err != nil {
				return
			}
		}
	}()
	if _, err := io.CopyN(io.Discard, h.r, int64(n*len(chunk))); err != nil {
		t.Fatal(err)
	}
	return float64(n*len(chunk)) / time.Since(t0).Seconds()
}

// TestTapOverhead measures, with the real binary recording to a file, what the tap adds
// between a host and a server, compared with the host talking to the server directly, in
// three alternating rounds (medians reported, since the machine may be shared):
//
//   - latency of one tools/call round trip (two messages: request and response) to the Go
//     fake server and to server-everything, and of one 200-byte line to cat; p50 and p99;
//   - MCP throughput: tools/call messages per second with 32 requests in flight, to the fake
//     server and to server-everything;
//   - raw throughput: 4 KB lines streamed through cat both ways (every byte is also
//     JSON-escaped, redacted and written to the trace).
//
// The numbers go to the test log (docs/tap.md quotes them); the assertions are loose and
// catch only a tap that blocks or serialises the stream.
func TestTapOverhead(t *testing.T) {
	bin := testservers.BuildInspector(t)
	srv := fake.Binary(t)
	se := testservers.ServerEverything(t)
	env := tapEnv(t)
	srvEnv := append(append([]string(nil), env...), fake.EnvScenario+"=minimal")

	initMCP := func(h *hostSide) {
		h.line(t, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n"))
		h.w.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	}
	call := func(arg string) func(int) []byte {
		return func(i int) []byte {
			return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{%q:"message %d of the benchmark, about a hundred bytes of payload to echo back"}}}`+"\n", i+1_000_000, arg, i))
		}
	}
	line200 := func(int) []byte { return append(bytes.Repeat([]byte("a"), 199), '\n') }

	type sample struct {
		fakeRT, seRT, catRT []percentiles
		fakeMsgs, seMsgs    []float64
		bytes               []float64
	}
	var direct, viaTap sample
	round := func(r *sample, wrap func(name string, argv ...string) []string) {
		h := startHostSide(t, srvEnv, wrap("fake", srv)...)
		initMCP(h)
		r.fakeRT = append(r.fakeRT, roundTrips(t, h, 1000, call("text")))
		r.fakeMsgs = append(r.fakeMsgs, 2*pipelined(t, h, 10000, 32, call("text")))
		h.close()
		e := startHostSide(t, env, wrap("everything", se...)...)
		initMCP(e)
		r.seRT = append(r.seRT, roundTrips(t, e, 500, call("message")))
		r.seMsgs = append(r.seMsgs, 2*pipelined(t, e, 4000, 32, call("message")))
		e.close()
		c := startHostSide(t, env, wrap("cat", "cat")...)
		r.catRT = append(r.catRT, roundTrips(t, c, 2000, line200))
		r.bytes = append(r.bytes, bulk(t, c, 32<<20, 4096))
		c.close()
	}
	for range 3 {
		round(&direct, func(_ string, argv ...string) []string { return argv })
		round(&viaTap, func(name string, argv ...string) []string {
			return append([]string{bin, "tap", "--name", name, "--record", filepath.Join(t.TempDir(), name+".jsonl"), "--"}, argv...)
		})
	}

	medD := func(p []percentiles, f func(percentiles) time.Duration) time.Duration {
		d := make([]time.Duration, len(p))
		for i := range p {
			d[i] = f(p[i])
		}
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2]
	}
	medF := func(x []float64) float64 {
		y := append([]float64(nil), x...)
		sort.Float64s(y)
		return y[len(y)/2]
	}
	p50 := func(p percentiles) time.Duration { return p.p50 }
	p99 := func(p percentiles) time.Duration { return p.p99 }

	var b strings.Builder
	fmt.Fprintf(&b, "%-40s %10s %10s %14s\n", "median of 3 rounds", "direct", "tap", "added / ratio")
	row := func(name string, d, v []percentiles, f func(percentiles) time.Duration) {
		dd, vv := medD(d, f), medD(v, f)
		fmt.Fprintf(&b, "%-40s %10v %10v %14v\n", name, dd.Round(time.Microsecond), vv.Round(time.Microsecond), (vv - dd).Round(time.Microsecond))
	}
	row("tools/call round trip, fake server, p50", direct.fakeRT, viaTap.fakeRT, p50)
	row("tools/call round trip, fake server, p99", direct.fakeRT, viaTap.fakeRT, p99)
	row("tools/call round trip, everything, p50", direct.seRT, viaTap.seRT, p50)
	row("tools/call round trip, everything, p99", direct.seRT, viaTap.seRT, p99)
	row("200 B line through cat, p50", direct.catRT, viaTap.catRT, p50)
	row("200 B line through cat, p99", direct.catRT, viaTap.catRT, p99)
	ratio := func(name string, d, v []float64, scale float64) {
		fmt.Fprintf(&b, "%-40s %10.0f %10.0f %13.0f%%\n", name, medF(d)/scale, medF(v)/scale, 100*medF(v)/medF(d))
	}
	ratio("messages/s, fake server, 32 in flight", direct.fakeMsgs, viaTap.fakeMsgs, 1)
	ratio("messages/s, everything, 32 in flight", direct.seMsgs, viaTap.seMsgs, 1)
	ratio("MB/s, 4 KB lines through cat", direct.bytes, viaTap.bytes, 1e6)
	t.Logf("tap overhead (a round trip is two messages through the tap):\n%s", b.String())
	if out := os.Getenv("MCP_INSPECT_TAP_BENCH_OUT"); out != "" {
		_ = os.WriteFile(out, []byte(b.String()), 0o644)
	}

	if added := medD(viaTap.fakeRT, p50) - medD(direct.fakeRT, p50); added > 5*time.Millisecond {
		t.Errorf("the tap adds %v to a tools/call round trip at p50", added)
	}
	if medF(viaTap.fakeMsgs) < medF(direct.fakeMsgs)/5 {
		t.Errorf("MCP throughput through the tap %.0f msg/s is under a fifth of direct %.0f", medF(viaTap.fakeMsgs), medF(direct.fakeMsgs))
	}
}

// BenchmarkTapVsDirect is the tap measurement as a benchmark, with the real binary
// recording to a file (default redaction) and the host talking to a server directly,
// interleaved op by op (alternating which goes first) so that a busy machine slows both
// alike. Each op is, once directly and once through the tap:
//
//   - fake-32: 1000 tools/call requests to the Go fake server with 32 in flight;
//   - cat-4KB: 4 MB of 4 KB lines streamed through cat both ways;
//   - roundtrip: 200 tools/call round trips to the fake server, one at a time (p50 and p99
//     of the added time are reported).
//
// vs-direct is the tap's throughput over direct (target: at least 0.9); added-p50-µs the
// tap's extra round-trip time at the median (target: under 100 µs).
//
//	go test ./cmd -run '^$' -bench TapVsDirect -benchtime 10x -count 6
//
// MCP_INSPECT_TAP_BIN names another mcp-inspect binary to measure instead of this tree's
// (to compare two builds in one interleaved run).
func BenchmarkTapVsDirect(b *testing.B) {
	bin := os.Getenv("MCP_INSPECT_TAP_BIN")
	if bin == "" {
		bin = testservers.BuildInspector(b)
	}
	srv := fake.Binary(b)
	env := tapEnv(b)
	srvEnv := append(append([]string(nil), env...), fake.EnvScenario+"=minimal")
	req := func(i int) []byte {
		return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"message %d of the benchmark, about a hundred bytes of payload to echo back"}}}`+"\n", i+1_000_000, i))
	}
	start := func(b *testing.B, env []string, argv ...string) (direct, tapped *hostSide) {
		direct = startHostSide(b, env, argv...)
		tapped = startHostSide(b, env, append([]string{bin, "tap", "--name", "bench", "--record", filepath.Join(b.TempDir(), "t.jsonl"), "--"}, argv...)...)
		b.Cleanup(func() { direct.close(); tapped.close() })
		return direct, tapped
	}
	initMCP := func(h *hostSide) {
		h.line(b, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n"))
		h.w.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	}
	// interleave runs op on both sides b.N times and returns the time each side took.
	interleave := func(b *testing.B, d, t *hostSide, op func(h *hostSide)) (time.Duration, time.Duration) {
		var td, tt time.Duration
		timed := func(h *hostSide) time.Duration { t0 := time.Now(); op(h); return time.Since(t0) }
		b.ResetTimer()
		for i := range b.N {
			if i%2 == 0 {
				td += timed(d)
				tt += timed(t)
			} else {
				tt += timed(t)
				td += timed(d)
			}
		}
		b.StopTimer()
		return td, tt
	}
	b.Run("fake-32", func(b *testing.B) {
		d, t := start(b, srvEnv, srv)
		initMCP(d)
		initMCP(t)
		const n = 1000
		td, tt := interleave(b, d, t, func(h *hostSide) { pipelined(b, h, n, 32, req) })
		b.ReportMetric(2*n*float64(b.N)/td.Seconds(), "direct-msgs/s")
		b.ReportMetric(2*n*float64(b.N)/tt.Seconds(), "tap-msgs/s")
		b.ReportMetric(td.Seconds()/tt.Seconds(), "vs-direct")
	})
	b.Run("cat-4KB", func(b *testing.B) {
		d, t := start(b, env, "cat")
		const total = 4 << 20
		td, tt := interleave(b, d, t, func(h *hostSide) { bulk(b, h, total, 4096) })
		b.ReportMetric(total*float64(b.N)/td.Seconds()/1e6, "direct-MB/s")
		b.ReportMetric(total*float64(b.N)/tt.Seconds()/1e6, "tap-MB/s")
		b.ReportMetric(td.Seconds()/tt.Seconds(), "vs-direct")
	})
	b.Run("roundtrip", func(b *testing.B) {
		d, t := start(b, srvEnv, srv)
		initMCP(d)
		initMCP(t)
		for i := range 200 { // warm up
			d.line(b, req(-i-1))
			t.line(b, req(-i-1))
		}
		var ds, ts []time.Duration
		interleave(b, d, t, func(h *hostSide) {
			for i := range 200 {
				t0 := time.Now()
				h.line(b, req(i))
				if h == d {
					ds = append(ds, time.Since(t0))
				} else {
					ts = append(ts, time.Since(t0))
				}
			}
		})
		pd, pt := measure(ds), measure(ts)
		b.ReportMetric(float64((pt.p50 - pd.p50).Microseconds()), "added-p50-µs")
		b.ReportMetric(float64((pt.p99 - pd.p99).Microseconds()), "added-p99-µs")
		b.ReportMetric(float64(pd.p50.Microseconds()), "direct-p50-µs")
	})
}
