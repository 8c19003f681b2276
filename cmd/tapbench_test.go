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
// The numbers go to the test log (README "Tap" quotes them); the assertions are loose and
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
