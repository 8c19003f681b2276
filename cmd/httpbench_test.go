package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/tap"
)

// bareHTTP is the ceiling of any client of a Streamable HTTP server: a net/http keep-alive
// client that opens a session by hand, then POSTs a fixed tools/call body and reads the
// whole answer, nothing parsed.
type bareHTTP struct {
	url, sid string
	client   *http.Client
	body     []byte
}

func newBareHTTP(b testing.TB, url, tool string) *bareHTTP {
	b.Helper()
	h := &bareHTTP{url: url, client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}}
	resp := h.post(b, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bare","version":"0"}}}`))
	h.sid = resp.Get("Mcp-Session-Id")
	h.post(b, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	h.body = []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":` + strconv.Quote(tool) + `,"arguments":{}}}`)
	return h
}

func (h *bareHTTP) post(b testing.TB, body []byte) http.Header {
	req, err := http.NewRequest(http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if h.sid != "" {
		req.Header.Set("Mcp-Session-Id", h.sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := h.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b.Fatalf("bare POST: %s", resp.Status)
	}
	return resp.Header
}

func (h *bareHTTP) call(b testing.TB) { h.post(b, h.body) }

// httpBenchSession is `bench call` over HTTP: a connected mcpclient session configured as
// bench call configures it.
func httpBenchSession(b testing.TB, url, tool string) *bench {
	b.Helper()
	cfg := mcpclient.Config{URL: url}
	benchClientConfig(&cfg, 1)
	c, err := mcpclient.Start(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	go func() {
		for range c.Events() {
		}
	}()
	if _, err := c.Connect(context.Background()); err != nil {
		b.Fatal(err)
	}
	bc, err := newBench(c, tool, json.RawMessage(`{}`))
	if err != nil {
		b.Fatal(err)
	}
	return bc
}

// BenchmarkHTTPCallVsBare interleaves, in shuffled blocks of httpBlock calls, the bare
// keep-alive POST loop, `bench call` over HTTP and the go-sdk's own HTTP client
// (StreamableClientTransport, CallTool), all against one go-sdk everything-server (stateful,
// Mcp-Session-Id) calling test_simple_text:
//
//	go test ./cmd -run '^$' -bench HTTPCallVsBare -benchtime 3000x -count 3
//
// vs-bare is bench call's calls/s over the bare loop's (target: at least 0.8), vs-gosdk
// bench call's over the go-sdk client's (target: above 1).
func BenchmarkHTTPCallVsBare(b *testing.B) {
	callVsBare(b, testservers.GoEverythingHTTP(b, false).URL)
}

// BenchmarkHTTPCallVsBareGzip is BenchmarkHTTPCallVsBare through a reverse proxy that
// gzips every answer, SSE events flushed one by one (internal/fake.Compressing over
// net/http/httputil.ReverseProxy, in the benchmark's process), whatever the client asked:
// the bare loop and the go-sdk client ask for gzip and net/http decodes it for them;
// mcp-inspect asks for nothing and decodes what comes.
//
//	go test ./cmd -run '^$' -bench HTTPCallVsBareGzip -benchtime 3000x -count 3
func BenchmarkHTTPCallVsBareGzip(b *testing.B) {
	srv := testservers.GoEverythingHTTP(b, false)
	up, err := url.Parse(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(up)
	rp.FlushInterval = -1
	rp.ErrorLog = log.New(io.Discard, "", 0) // the go-sdk client's closed streams
	proxy := httptest.NewServer(fake.Compressing(rp, "gzip"))
	b.Cleanup(proxy.Close)
	callVsBare(b, proxy.URL+up.Path)
}

// callVsBare is the interleaved run of both benchmarks against the server at u.
func callVsBare(b *testing.B, u string) {
	const tool = "test_simple_text"
	bare := newBareHTTP(b, u, tool)
	plain := httpBenchSession(b, u, tool)
	ctx := context.Background()
	sdk, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: u}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer sdk.Close()
	sdkParams := &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}}
	loops := [3]func(){
		func() { bare.call(b) },
		func() {
			if err := plain.call(ctx, nil); err != nil {
				b.Fatal(err)
			}
		},
		func() {
			if _, err := sdk.CallTool(ctx, sdkParams); err != nil {
				b.Fatal(err)
			}
		},
	}
	spent := interleave(b, loops[:], nil)
	rate := func(j int) float64 { return float64(b.N) / spent[j].Seconds() }
	b.ReportMetric(rate(0), "bare-calls/s")
	b.ReportMetric(rate(1), "calls/s")
	b.ReportMetric(rate(2), "gosdk-calls/s")
	b.ReportMetric(rate(1)/rate(0), "vs-bare")
	b.ReportMetric(rate(1)/rate(2), "vs-gosdk")
	b.ReportMetric(rate(2)/rate(0), "gosdk-vs-bare")
}

// httpBlock is how many calls each loop makes in a row (see callVsBareBlock).
const httpBlock = 100

// interleave runs b.N calls of each loop in shuffled blocks and returns the time each
// spent; with lat set, it also keeps every call's latency per loop.
func interleave(b *testing.B, loops []func(), lat [][]time.Duration) []time.Duration {
	if b.N < httpBlock {
		b.N = httpBlock
	}
	spent := make([]time.Duration, len(loops))
	order := rand.New(rand.NewPCG(1, 2))
	perm := make([]int, len(loops))
	for i := range perm {
		perm[i] = i
	}
	b.ResetTimer()
	for done := 0; done < b.N; done += httpBlock {
		n := min(httpBlock, b.N-done)
		order.Shuffle(len(perm), func(x, y int) { perm[x], perm[y] = perm[y], perm[x] })
		for _, j := range perm {
			t0 := time.Now()
			for range n {
				if lat != nil {
					c0 := time.Now()
					loops[j]()
					lat[j] = append(lat[j], time.Since(c0))
				} else {
					loops[j]()
				}
			}
			spent[j] += time.Since(t0)
		}
	}
	b.StopTimer()
	return spent
}

// startTapTB runs the HTTP tap binary in front of upstream and returns its URL.
func startTapTB(b testing.TB, upstream string, extra ...string) string {
	b.Helper()
	return startTapBinTB(b, testservers.BuildInspector(b), upstream, extra...)
}

// startTapBinTB runs the HTTP tap of the mcp-inspect binary bin in front of upstream and
// returns its URL.
func startTapBinTB(b testing.TB, bin, upstream string, extra ...string) string {
	b.Helper()
	u, _ := startTapRunTB(b, bin, upstream, extra...)
	return u
}

// startTapRunTB is startTapBinTB also giving the tap's runtime directory (where its attach
// socket is, under mcp-inspect/).
func startTapRunTB(b testing.TB, bin, upstream string, extra ...string) (url, run string) {
	b.Helper()
	run = b.TempDir()
	env := append(os.Environ(), "XDG_STATE_HOME="+b.TempDir(), "XDG_RUNTIME_DIR="+run)
	cmd := exec.Command(bin, append([]string{"tap", "--listen", "127.0.0.1:0", "--upstream", upstream}, extra...)...)
	cmd.Env = env
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sc := bufio.NewScanner(errPipe)
	for sc.Scan() {
		if _, u, ok := strings.Cut(sc.Text(), "serving "); ok {
			go func() {
				for sc.Scan() {
				}
			}()
			return strings.TrimSpace(u), run
		}
	}
	b.Fatal("the tap did not start")
	return "", ""
}

// BenchmarkHTTPTapVsDirect interleaves calls to a go-sdk everything-server (stateful)
// made directly and through the HTTP tap (recording to a file, attach socket up), in
// shuffled blocks, with the bare keep-alive POST loop and with `bench call`:
//
//	go test ./cmd -run '^$' -bench HTTPTapVsDirect -benchtime 3000x -count 3
//
// tap-p50-us is the tap's added latency at p50 (target: under 200 µs), from the bare loop;
// the ratios are tapped calls/s over direct. record writes the trace to a file, no-save
// keeps none (the attach socket is up in both).
func BenchmarkHTTPTapVsDirect(b *testing.B) {
	srv := testservers.GoEverythingHTTP(b, false)
	b.Run("record", func(b *testing.B) { tapVsDirect(b, srv.URL, "--record", b.TempDir()+"/tap.jsonl") })
	b.Run("no-save", func(b *testing.B) { tapVsDirect(b, srv.URL, "--no-save") })
}

func tapVsDirect(b *testing.B, upstream string, tapArgs ...string) {
	const tool = "test_simple_text"
	tapURL := startTapTB(b, upstream, tapArgs...)
	direct, tapped := newBareHTTP(b, upstream, tool), newBareHTTP(b, tapURL, tool)
	bcDirect, bcTapped := httpBenchSession(b, upstream, tool), httpBenchSession(b, tapURL, tool)
	ctx := context.Background()
	call := func(bc *bench) func() {
		return func() {
			if err := bc.call(ctx, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	loops := []func(){func() { direct.call(b) }, func() { tapped.call(b) }, call(bcDirect), call(bcTapped)}
	lat := make([][]time.Duration, len(loops))
	spent := interleave(b, loops, lat)
	p50 := func(d []time.Duration) time.Duration {
		d = append([]time.Duration(nil), d...)
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2]
	}
	rate := func(j int) float64 { return float64(b.N) / spent[j].Seconds() }
	b.ReportMetric(float64(p50(lat[0]).Microseconds()), "bare-direct-p50-us")
	b.ReportMetric(float64(p50(lat[1]).Microseconds()), "bare-tapped-p50-us")
	b.ReportMetric(float64((p50(lat[1]) - p50(lat[0])).Microseconds()), "tap-p50-us")
	b.ReportMetric(float64((p50(lat[3]) - p50(lat[2])).Microseconds()), "tap-p50-bench-us")
	b.ReportMetric(rate(1)/rate(0), "bare-tapped-vs-direct")
	b.ReportMetric(rate(3)/rate(2), "bench-tapped-vs-direct")
}

// BenchmarkHTTPTapInject interleaves bare keep-alive calls to a go-sdk everything-server
// made directly, through two HTTP taps without rules, through one with three --inject
// rules that match nothing, one of which may match any answer of the server (so each
// message both ways is matched), and through one with rules on the host's messages only
// (so answers stream through unread), all --no-save, in shuffled blocks:
//
//	go test ./cmd -run '^$' -bench HTTPTapInject -benchtime 3000x -count 9
//
// inject-vs-tap and inject-out-vs-tap are the added latency at p50 with those rules over
// without (target: ≤ 1.10); tap-vs-tap is the second rule-less tap's over the first's: the
// noise of such a ratio.
func BenchmarkHTTPTapInject(b *testing.B) {
	const tool = "test_simple_text"
	srv := testservers.GoEverythingHTTP(b, false)
	tapURL := startTapTB(b, srv.URL, "--no-save", "--name", "plain")
	tap2URL := startTapTB(b, srv.URL, "--no-save", "--name", "plain2")
	injURL := startTapTB(b, srv.URL, "--no-save", "--name", "inject",
		"--inject", "method:tools/list => delay 2s", "--inject", "dir:in kind:error => drop", "--inject", "tool:delete_* => error -32000 no")
	outURL := startTapTB(b, srv.URL, "--no-save", "--name", "inject-out",
		"--inject", "dir:out method:tools/list => delay 2s", "--inject", "dir:out tool:delete_* => error -32000 no", "--inject", "dir:out method:notifications/cancelled => drop")
	added := interleavedAdded(b, []*bareHTTP{newBareHTTP(b, srv.URL, tool), newBareHTTP(b, tapURL, tool), newBareHTTP(b, injURL, tool), newBareHTTP(b, tap2URL, tool), newBareHTTP(b, outURL, tool)})
	b.ReportMetric(added(1)/1e3, "tap-p50-us")
	b.ReportMetric(added(2)/1e3, "inject-p50-us")
	b.ReportMetric(added(2)/added(1), "inject-vs-tap")
	b.ReportMetric(added(4)/added(1), "inject-out-vs-tap")
	b.ReportMetric(added(3)/added(1), "tap-vs-tap")
}

// BenchmarkHTTPTapBreakpoints is BenchmarkHTTPTapInject for breakpoints: bare keep-alive
// tools/calls directly, through an HTTP tap with an attach reading its trace, and through
// one whose attach set three breakpoints that match nothing (every frame both ways is then
// matched), interleaved. break-vs-attached is the second's added p50 over the first's.
//
//	go test ./cmd -run '^$' -bench HTTPTapBreakpoints -benchtime 3000x -count 9
func BenchmarkHTTPTapBreakpoints(b *testing.B) {
	const tool = "test_simple_text"
	srv := testservers.GoEverythingHTTP(b, false)
	bin := testservers.BuildInspector(b)
	attached := func(name string, filters ...string) string {
		u, run := startTapRunTB(b, bin, srv.URL, "--no-save", "--name", name)
		taps, err := tap.List(filepath.Join(run, "mcp-inspect"))
		if err != nil || len(taps) != 1 {
			b.Fatalf("taps %+v, %v", taps, err)
		}
		st, err := tap.Attach(taps[0].Socket)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		ups := st.Updates()
		go func() {
			for {
				if _, err := st.Next(); err != nil {
					return
				}
			}
		}()
		if len(filters) > 0 {
			if err := st.Set(session.BreakpointSet{Filters: filters}); err != nil {
				b.Fatal(err)
			}
			if u := <-ups; u.Set == nil {
				b.Fatalf("breakpoints refused: %+v", u)
			}
		}
		return u
	}
	plainURL := attached("plain")
	bpURL := attached("bp", "method:tools/list", "dir:in kind:error", "tool:delete_*")
	added := interleavedAdded(b, []*bareHTTP{newBareHTTP(b, srv.URL, tool), newBareHTTP(b, plainURL, tool), newBareHTTP(b, bpURL, tool)})
	b.ReportMetric(added(1)/1e3, "attached-p50-us")
	b.ReportMetric(added(2)/1e3, "break-p50-us")
	b.ReportMetric(added(2)/added(1), "break-vs-attached")
}

// interleavedAdded runs the hosts' calls interleaved (interleave) and returns what host i
// adds at p50 over hosts[0] (the direct one), in nanoseconds.
func interleavedAdded(b *testing.B, hosts []*bareHTTP) func(i int) float64 {
	loops := make([]func(), len(hosts))
	for i, h := range hosts {
		loops[i] = func() { h.call(b) }
	}
	lat := make([][]time.Duration, len(loops))
	interleave(b, loops, lat)
	p50 := func(d []time.Duration) time.Duration {
		d = append([]time.Duration(nil), d...)
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2]
	}
	return func(i int) float64 { return float64(p50(lat[i]) - p50(lat[0])) }
}
