package cmd

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
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

// BenchmarkHTTPRelayFloor interleaves, in shuffled blocks, the bare keep-alive POST loop
// against a go-sdk everything-server (stateful) made directly, through a bare io.Copy TCP
// relay in the benchmark's own process, through a relay doing blocking read/write on raw
// fds (also in-process), through the same io.Copy relay run as a process of its own, and
// through the HTTP tap (--no-save), so the tap's added p50 can be set against the floor of
// any relay. The tap is a process of its own: the in-process relays share the client's Go
// runtime, which wakes them without a process wake-up, so the separate-process relay is the
// floor the tap is comparable with.
//
// With MCP_INSPECT_BASELINE set to another mcp-inspect binary (say one built from main), its
// tap runs in the same blocks too (base-tap-p50-us), for a before/after comparison in one
// run:
//
//	go test ./cmd -run '^$' -bench HTTPRelayFloor -benchtime 3000x -count 3
func BenchmarkHTTPRelayFloor(b *testing.B) {
	srv := testservers.GoEverythingHTTP(b, false)
	const tool = "test_simple_text"
	urls := []string{
		srv.URL,
		"http://" + startCopyRelay(b, srv.Addr, false) + "/mcp",
		"http://" + startCopyRelay(b, srv.Addr, true) + "/mcp",
		"http://" + startRelayProcess(b, srv.Addr) + "/mcp",
		startTapTB(b, srv.URL, "--no-save"),
	}
	names := []string{"direct", "relay", "blockrelay", "procrelay", "tap"}
	if base := os.Getenv("MCP_INSPECT_BASELINE"); base != "" {
		urls = append(urls, startTapBinTB(b, base, srv.URL, "--no-save"))
		names = append(names, "base-tap")
	}
	loops := make([]func(), len(urls))
	for i, u := range urls {
		c := newBareHTTP(b, u, tool)
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
	for i := 1; i < len(names); i++ {
		b.ReportMetric(us(p50(lat[i])-direct), names[i]+"-p50-us")
	}
}

// relayEnv, when set in the environment of the test binary, makes it the relay process of
// startRelayProcess: it relays to the address it names (see TestMain).
const relayEnv = "MCP_INSPECT_TEST_RELAY_UPSTREAM"

// TestMain runs the test binary as a relay process when relayEnv says so, else the tests.
func TestMain(m *testing.M) {
	if up := os.Getenv(relayEnv); up != "" {
		runRelayProcess(up)
		return
	}
	// No test reads the user's own settings file: an empty config directory unless a test
	// points elsewhere (its subprocesses inherit this).
	dir, err := os.MkdirTemp("", "mcp-inspect-cmdtest-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Unsetenv("MCP_INSPECT_CONFIG")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runRelayProcess is the separate-process io.Copy relay: it listens on 127.0.0.1, prints
// its address on stdout and relays each connection to upstream until killed.
func runRelayProcess(upstream string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	for {
		in, err := ln.Accept()
		if err != nil {
			os.Exit(1)
		}
		out, err := net.Dial("tcp", upstream)
		if err != nil {
			in.Close()
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
}

// startRelayProcess starts the test binary as a relay process in front of upstream and
// returns its address.
func startRelayProcess(b testing.TB, upstream string) string {
	b.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), relayEnv+"="+upstream)
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(outPipe).ReadString('\n')
	if err != nil {
		b.Fatalf("the relay process did not start: %v", err)
	}
	return strings.TrimSpace(addr)
}
