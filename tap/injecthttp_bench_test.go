package tap

import (
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"net"
	"net/url"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/trace"
)

// sseUpstream is a loopback server answering every POST as the go-sdk's Streamable HTTP
// server answers a tools/call: a chunked event stream with one frame (head and frame in
// one write), then the last chunk in a second write.
func sseUpstream(tb testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	frame := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"This is a simple text response for testing.\"}]}}\n\n"
	first := []byte("HTTP/1.1 200 OK\r\nCache-Control: no-cache, no-transform\r\nConnection: keep-alive\r\nContent-Type: text/event-stream\r\nMcp-Session-Id: S1\r\nDate: Sun, 06 Dec 2026 02:10:42 GMT\r\nTransfer-Encoding: chunked\r\n\r\n" +
		strconv.FormatInt(int64(len(frame)), 16) + "\r\n" + frame + "\r\n")
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					h, err := readHead(br)
					if err != nil {
						return
					}
					if _, err := io.CopyN(io.Discard, br, max(h.contentLength, 0)); err != nil {
						return
					}
					_, _ = c.Write(first)
					_, _ = c.Write([]byte("0\r\n\r\n"))
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/mcp"
}

// httpTapTB runs an HTTP tap (no trace file, attach off) with rules in front of upstream
// and returns its address.
func httpTapTB(tb testing.TB, upstream string, rules ...string) string {
	rs := mustRules(tb, rules...)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	u, _ := url.Parse(upstream)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		_, _ = RunHTTP(ctx, HTTPOptions{Listener: ln, Upstream: u, Trace: io.Discard, Stderr: io.Discard, SocketDir: "-", Header: trace.Header{Tool: "bench"}, Inject: rs})
		close(done)
	}()
	tb.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// rawHost posts one tools/call over a kept-alive connection and reads the answer whole.
type rawHost struct {
	c   net.Conn
	br  *bufio.Reader
	req []byte
}

func newRawHost(tb testing.TB, addr string) *rawHost {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_simple_text","arguments":{}}}`
	req := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: S1\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	return &rawHost{c: c, br: bufio.NewReader(c), req: []byte(req)}
}

func (h *rawHost) call(tb testing.TB) {
	if _, err := h.c.Write(h.req); err != nil {
		tb.Fatal(err)
	}
	rh, err := readHead(h.br)
	if err != nil {
		tb.Fatal(err)
	}
	if _, _, err := readChunked(h.br, nil); err != nil || !rh.chunked {
		tb.Fatalf("answer: chunked %v, %v", rh.chunked, err)
	}
}

// BenchmarkHTTPInjectPath interleaves, in shuffled blocks of 50, calls through two HTTP taps
// without rules (a and b: their ratio is the noise) and one with three rules that match
// nothing, in one process, in front of an upstream that answers as the go-sdk does. For
// profiling the rules' path (-cpuprofile); the end-to-end figure is cmd's
// BenchmarkHTTPTapInject.
//
//	go test ./tap -run '^$' -bench HTTPInjectPath -benchtime 6000x -count 7
func BenchmarkHTTPInjectPath(b *testing.B) {
	up := sseUpstream(b)
	hosts := []*rawHost{
		newRawHost(b, httpTapTB(b, up)),
		newRawHost(b, httpTapTB(b, up)),
		newRawHost(b, httpTapTB(b, up, "method:tools/list => delay 2s", "dir:in kind:error => drop", "tool:delete_* => error -32000 no")),
	}
	lat := make([][]time.Duration, len(hosts))
	perm := []int{0, 1, 2}
	order := rand.New(rand.NewPCG(1, 2))
	const block = 50
	b.ResetTimer()
	for done := 0; done < b.N; done += block {
		order.Shuffle(len(perm), func(x, y int) { perm[x], perm[y] = perm[y], perm[x] })
		for _, j := range perm {
			for range min(block, b.N-done) {
				t0 := time.Now()
				hosts[j].call(b)
				lat[j] = append(lat[j], time.Since(t0))
			}
		}
	}
	b.StopTimer()
	p50 := func(d []time.Duration) float64 {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return float64(d[len(d)/2])
	}
	b.ReportMetric(p50(lat[2])/p50(lat[0]), "inject-vs-tap")
	b.ReportMetric(p50(lat[1])/p50(lat[0]), "tap-vs-tap")
	b.ReportMetric(p50(lat[0])/1e3, "tap-p50-us")
}
