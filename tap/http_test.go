package tap

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/listenguard"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestHTTPTapBytes checks that the HTTP tap forwards both ways byte for byte (only Host is
// set to the upstream's), a chunked event stream included (odd header case, comments, a
// retry field, chunk boundaries inside frames), and records the exchange as a client trace
// has it (an SSE frame runs to its blank line, comments included).
func TestHTTPTapBytes(t *testing.T) {
	upLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer upLn.Close()
	const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}`
	const response = "HTTP/1.1 200 OK\r\ncontent-TYPE: text/event-stream\r\nX-Odd:  spaced \r\nTransfer-Encoding: chunked\r\n\r\n" +
		"5\r\n: hi\n\r\n" + "13\r\nretry: 10\nid: 1\ndat\r\n" + "29\r\na: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n\r\n" + "0\r\n\r\n"
	gotReq := make(chan []byte, 1)
	go func() {
		c, err := upLn.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		br := bufio.NewReader(c)
		h, err := readHead(br)
		if err != nil {
			return
		}
		b := make([]byte, h.contentLength)
		_, _ = io.ReadFull(br, b)
		gotReq <- append(h.raw, b...)
		// The answer in pieces, as a server flushing an event stream sends it.
		for _, part := range []string{response[:90], response[90:120], response[120:]} {
			_, _ = c.Write([]byte(part))
			time.Sleep(20 * time.Millisecond)
		}
		_, _ = io.Copy(io.Discard, c)
	}()
	addr, rec, stop := runTap(t, "http://"+upLn.Addr().String()+"/mcp")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	req := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nauthorization: Bearer tok-abcdef-123456\r\nContent-Length: " + itoa(len(body)) + "\r\nX-Case:  Kept \r\n\r\n" + body
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(response))
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatalf("reading the answer: %v (%q)", err, got)
	}
	if string(got) != response {
		t.Errorf("the host got\n%q\nwant\n%q", got, response)
	}
	want := strings.Replace(req, "Host: "+addr, "Host: "+upLn.Addr().String(), 1)
	if r := <-gotReq; string(r) != want {
		t.Errorf("the upstream got\n%q\nwant\n%q", r, want)
	}
	c.Close()
	stop()
	tr := rec.String()
	for _, w := range []string{`"dir":"c2s"`, `"dir":"http>"`, `"hk":"head"`, `"raw":": hi\nretry: 10\nid: 1\ndata: {`, `"dir":"s2c","raw":"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}"`, `"transport":"http"`} {
		if !strings.Contains(strings.ReplaceAll(tr, `\u003e`, ">"), strings.ReplaceAll(strings.ReplaceAll(w, "\n", `\n`), `\"`, `\"`)) {
			t.Errorf("the trace lacks %s:\n%s", w, tr)
		}
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// runTap starts RunHTTP on a loopback port in front of upstream (a URL ending in /mcp) and
// returns its address; stop ends it and waits, after which trace holds the recording.
func runTap(t *testing.T, upstream string) (addr string, rec *bytes.Buffer, stop func()) {
	t.Helper()
	return runTapGuarded(t, upstream, "")
}

// runTapGuarded is runTap with a guard that asks for token ("" asks for none).
func runTapGuarded(t *testing.T, upstream, token string) (addr string, rec *bytes.Buffer, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g, err := listenguard.New(listenguard.Options{Who: "mcp-inspect tap", Addr: ln.Addr().String(), Token: token})
	if err != nil {
		t.Fatal(err)
	}
	up, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	rec = new(bytes.Buffer)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		_, _ = RunHTTP(ctx, HTTPOptions{Listener: ln, Upstream: up, Trace: rec, SocketDir: "-", Header: trace.Header{Tool: "test"}, Guard: g})
		close(done)
	}()
	return ln.Addr().String(), rec, func() { cancel(); <-done }
}
