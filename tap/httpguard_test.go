package tap

import (
	"bufio"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// upstreamRecorder is an HTTP/1.1 upstream that answers every request 200 {} and keeps
// the heads it got and how many connections it accepted.
type upstreamRecorder struct {
	ln    net.Listener
	mu    sync.Mutex
	conns int
	heads []string
}

func newUpstreamRecorder(t *testing.T) *upstreamRecorder {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := &upstreamRecorder{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u.mu.Lock()
			u.conns++
			u.mu.Unlock()
			go u.serve(c)
		}
	}()
	return u
}

func (u *upstreamRecorder) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		h, err := readHead(br)
		if err != nil {
			return
		}
		if h.contentLength > 0 {
			if _, err := io.CopyN(io.Discard, br, h.contentLength); err != nil {
				return
			}
		}
		u.mu.Lock()
		u.heads = append(u.heads, string(h.raw))
		u.mu.Unlock()
		if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"); err != nil {
			return
		}
	}
}

func (u *upstreamRecorder) url() string { return "http://" + u.ln.Addr().String() + "/mcp" }

func (u *upstreamRecorder) seen() (conns int, heads []string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.conns, append([]string(nil), u.heads...)
}

// exchange sends one raw request to addr and returns the status line and body of the
// answer.
func exchange(t *testing.T, addr, req string) (status, body string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	h, err := readHead(br)
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", req, err)
	}
	b := make([]byte, max(h.contentLength, 0))
	if _, err := io.ReadFull(br, b); err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	return h.first, string(b)
}

const guardBody = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

func post(target, headers string) string {
	return "POST " + target + " HTTP/1.1\r\n" + headers + "Content-Type: application/json\r\nContent-Length: " + itoa(len(guardBody)) + "\r\n\r\n" + guardBody
}

// TestHTTPTapRefusesForeignHostAndOrigin: a request whose Host or Origin is not the tap's
// (DNS rebinding: a web page whose name now points at 127.0.0.1) gets 403 with a body
// saying which header and what is accepted, never reaches the upstream (which would
// otherwise get the upstream's own Host in its place), and leaves a note in the trace.
func TestHTTPTapRefusesForeignHostAndOrigin(t *testing.T) {
	up := newUpstreamRecorder(t)
	addr, rec, stop := runTapGuarded(t, up.url(), "")
	_, port, _ := net.SplitHostPort(addr)
	for _, c := range []struct{ headers, want string }{
		{"Host: evil.example:" + port + "\r\n", `the Host header "evil.example:` + port + `"`},
		{"Host: evil.example\r\n", `the Host header "evil.example"`},
		{"Host: " + addr + "\r\nHost: evil.example\r\n", "the Host header"},
		{"Host: " + addr + "\r\nOrigin: http://evil.example\r\n", `the Origin header "http://evil.example"`},
		{"Host: " + addr + "\r\nOrigin: null\r\n", `the Origin header "null"`},
		{"Host: " + addr + "\r\nOrigin: http://localhost:1\r\n", `the Origin header "http://localhost:1"`},
	} {
		status, body := exchange(t, addr, post("/mcp", c.headers))
		if !strings.Contains(status, " 403 ") || !strings.Contains(body, c.want) || !strings.Contains(body, "accepted: ") {
			t.Errorf("%q: %s %q", c.headers, status, body)
		}
	}
	// The absolute form names the host in the target, which wins over Host (RFC 9112 §3.2.2).
	if status, _ := exchange(t, addr, post("http://evil.example/mcp", "Host: "+addr+"\r\n")); !strings.Contains(status, " 403 ") {
		t.Errorf("absolute-form target on another host: %s", status)
	}
	if conns, heads := up.seen(); conns != 0 {
		t.Errorf("refused requests reached the upstream: %d connections, %q", conns, heads)
	}
	// Its own names pass: the listen address, localhost and an Origin on them.
	for _, h := range []string{
		"Host: " + addr + "\r\n",
		"Host: localhost:" + port + "\r\nOrigin: http://localhost:" + port + "\r\n",
		"Host: [::1]:" + port + "\r\nOrigin: https://127.0.0.1:" + port + "\r\n",
	} {
		if status, body := exchange(t, addr, post("/mcp", h)); !strings.Contains(status, " 200 ") {
			t.Errorf("%q: %s %q", h, status, body)
		}
	}
	stop()
	tr := rec.String()
	if !strings.Contains(tr, `refused POST /mcp with 403: the Host header \"evil.example:`+port) ||
		!strings.Contains(tr, `refused POST /mcp with 403: the Origin header \"http://evil.example\"`) {
		t.Errorf("the trace does not note the refusals:\n%s", tr)
	}
}

// TestHTTPTapToken: with a token, a request without it or with another gets 401 and does
// not reach the upstream; the token as Mcp-Inspect-Token, as ?token= or as a bearer is
// served, and taken out of what the upstream gets and the trace, while the host's own
// Authorization and the other query parameters pass as sent.
func TestHTTPTapToken(t *testing.T) {
	const token = "TOKENabcdefghijklmnopqrst"
	up := newUpstreamRecorder(t)
	addr, rec, stop := runTapGuarded(t, up.url(), token)
	host := "Host: " + addr + "\r\n"
	for _, req := range []string{
		post("/mcp", host),
		post("/mcp?token=nope", host),
		post("/mcp", host+"Mcp-Inspect-Token: nope\r\n"),
		post("/mcp", host+"Authorization: Bearer upstream-secret\r\n"),
	} {
		status, body := exchange(t, addr, req)
		if !strings.Contains(status, " 401 ") || !strings.Contains(body, "Mcp-Inspect-Token: TOKEN") || strings.Contains(body, token) {
			t.Errorf("%q: %s %q", req, status, body)
		}
	}
	if conns, heads := up.seen(); conns != 0 {
		t.Fatalf("requests without the token reached the upstream: %q", heads)
	}
	for _, c := range []struct{ req, want string }{
		{post("/mcp", host+"Mcp-Inspect-Token: "+token+"\r\nAuthorization: Bearer upstream-secret\r\n"), "POST /mcp HTTP/1.1\r\nHost: " + up.ln.Addr().String() + "\r\nAuthorization: Bearer upstream-secret\r\n"},
		{post("/mcp?a=1&token="+token+"&b=2", host), "POST /mcp?a=1&b=2 HTTP/1.1\r\n"},
		{post("/mcp?token="+token, host), "POST /mcp HTTP/1.1\r\n"},
		{post("/mcp?token=upstream-key", host+"Mcp-Inspect-Token: "+token+"\r\n"), "POST /mcp?token=upstream-key HTTP/1.1\r\n"},
		{post("/mcp", host+"authorization: bearer "+token+"\r\n"), "POST /mcp HTTP/1.1\r\nHost: " + up.ln.Addr().String() + "\r\nContent-Type"},
	} {
		if status, body := exchange(t, addr, c.req); !strings.Contains(status, " 200 ") {
			t.Errorf("%q: %s %q", c.req, status, body)
		}
		_, heads := up.seen()
		if len(heads) == 0 || !strings.HasPrefix(heads[len(heads)-1], c.want) {
			t.Errorf("%q reached the upstream as %q, want it to start %q", c.req, heads, c.want)
		}
	}
	stop()
	_, heads := up.seen()
	tr := strings.ReplaceAll(rec.String(), `\u0026`, "&")
	if strings.Contains(strings.Join(heads, ""), token) || strings.Contains(tr, token) {
		t.Errorf("the token reached the upstream or the trace:\n%q\n%s", heads, tr)
	}
	if !strings.Contains(tr, "refused POST /mcp with 401: no mcp-inspect token") || !strings.Contains(tr, "POST /mcp?a=1&b=2 HTTP/1.1") {
		t.Errorf("the trace lacks the refusal or the stripped request:\n%s", tr)
	}
}

// TestHTTPTapRefusalKeepsConnection: after a refusal the connection carries the next
// request (the refused body was read and dropped).
func TestHTTPTapRefusalKeepsConnection(t *testing.T) {
	up := newUpstreamRecorder(t)
	addr, _, stop := runTapGuarded(t, up.url(), "tok")
	defer stop()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	host := "Host: " + addr + "\r\n"
	if _, err := io.WriteString(c, post("/mcp", host)+post("/mcp?token=tok", host)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	for _, want := range []string{" 401 ", " 200 "} {
		h, err := readHead(br)
		if err != nil || !strings.Contains(h.first, want) {
			t.Fatalf("got %v %v, want %s", h, err, want)
		}
		_, _ = io.CopyN(io.Discard, br, h.contentLength)
	}
}
