package cmd

import (
	"io"
	"net"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// startCopyRelay runs a bare TCP relay on 127.0.0.1 in front of upstream (host:port): per
// connection it dials upstream and io.Copies both ways, nothing parsed or recorded. It
// returns the relay's address.
func startCopyRelay(b testing.TB, upstream string, blocking bool) string {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	b.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", upstream)
			if err != nil {
				in.Close()
				continue
			}
			if blocking {
				go relayBlocking(in.(*net.TCPConn), out.(*net.TCPConn))
				continue
			}
			pipe := func(dst, src net.Conn) {
				_, _ = io.Copy(dst, src)
				in.Close()
				out.Close()
			}
			go pipe(out, in)
			go pipe(in, out)
		}
	}()
	return ln.Addr().String()
}

// relayBlocking copies both ways with blocking read(2)/write(2) on the raw fds, one
// locked-free goroutine per direction (each blocks its thread, outside the netpoller).
func relayBlocking(in, out *net.TCPConn) {
	fin, err1 := in.File() // File dups the fd and leaves it in blocking mode
	fout, err2 := out.File()
	in.Close()
	out.Close()
	if err1 != nil || err2 != nil {
		return
	}
	a, c := int(fin.Fd()), int(fout.Fd())
	_ = syscall.SetNonblock(a, false)
	_ = syscall.SetNonblock(c, false)
	pipe := func(dst, src int) {
		buf := make([]byte, 64<<10)
		for {
			n, err := syscall.Read(src, buf)
			if n <= 0 || err != nil {
				break
			}
			for p := buf[:n]; len(p) > 0; {
				m, err := syscall.Write(dst, p)
				if err != nil {
					_ = syscall.Shutdown(src, syscall.SHUT_RDWR)
					return
				}
				p = p[m:]
			}
		}
		_ = syscall.Shutdown(dst, syscall.SHUT_RDWR)
		_ = syscall.Shutdown(src, syscall.SHUT_RDWR)
	}
	go func() { pipe(c, a); fin.Close() }()
	go func() { pipe(a, c); fout.Close() }()
}

// BenchmarkHTTPRelayFloor interleaves, in shuffled blocks, the bare keep-alive POST loop
// against a go-sdk everything-server (stateful) made directly, through a bare io.Copy TCP
// relay, through a relay doing blocking read/write on raw fds, and through the HTTP tap
// (--no-save), so the tap's added p50 can be set against the floor of any relay:
//
//	go test ./cmd -run '^$' -bench HTTPRelayFloor -benchtime 3000x -count 3
func BenchmarkHTTPRelayFloor(b *testing.B) {
	srv := testservers.GoEverythingHTTP(b, false)
	const tool = "test_simple_text"
	tapURL := startTapTB(b, srv.URL, "--no-save")
	relayURL := "http://" + startCopyRelay(b, srv.Addr, false) + "/mcp"
	blockURL := "http://" + startCopyRelay(b, srv.Addr, true) + "/mcp"
	clients := []*bareHTTP{newBareHTTP(b, srv.URL, tool), newBareHTTP(b, relayURL, tool), newBareHTTP(b, blockURL, tool), newBareHTTP(b, tapURL, tool)}
	loops := make([]func(), len(clients))
	for i, c := range clients {
		loops[i] = func() { c.call(b) }
	}
	lat := make([][]time.Duration, len(loops))
	interleave(b, loops, lat)
	p50 := func(d []time.Duration) time.Duration {
		d = append([]time.Duration(nil), d...)
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2]
	}
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	direct := p50(lat[0])
	b.ReportMetric(us(direct), "direct-p50-us")
	b.ReportMetric(us(p50(lat[1])-direct), "relay-p50-us")
	b.ReportMetric(us(p50(lat[2])-direct), "blockrelay-p50-us")
	b.ReportMetric(us(p50(lat[3])-direct), "tap-p50-us")
}
