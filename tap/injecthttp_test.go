package tap

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-inspect/mcp-inspect/internal/listenguard"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestInjectHTTP: the go-sdk client, a real host, talks to a go-sdk Streamable HTTP server
// through an HTTP tap with rules: its tools/call is answered with the rule's error (the
// server never sees it), a corrupted tools/list answer is a broken frame to it, and a
// tools/list it sends later, matched by no rule, passes.
func TestInjectHTTP(t *testing.T) {
	h := startInjectHTTP(t, "dir:out tool:echo => error -32000 boom", "dir:in method:tools/list => corrupt", "method:never/called => drop")
	cs, cctx, calls, rec, stderr := h.cs, h.ctx, h.calls, h.rec, h.stderr
	var err error
	_, err = cs.CallTool(cctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hi"}})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("tools/call: %v, want the injected error boom", err)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the server ran the tool %d times; the tap answered in its place", n)
	}
	lctx, lcancel := context.WithTimeout(cctx, 3*time.Second)
	_, err = cs.ListTools(lctx, nil)
	lcancel()
	if err == nil {
		t.Errorf("tools/list succeeded; its answer was corrupted")
	}
	h.stop()
	tr := rec.String()
	for _, w := range []string{
		`"text":"inject rule 1 (dir:out tool:echo =\u003e error -32000 boom): answered request id 3 (tools/call echo) from the host with error -32000`,
		`{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32000,\"message\":\"boom\"}}`,
		`"text":"inject rule 2 (dir:in method:tools/list =\u003e corrupt): corrupted response id 4 (tools/list) from the server`,
		`"text":"inject rule 3 (method:never/called =\u003e drop) matched no message","cond":"unmatched"`,
		`not forwarded","cond":"injected"`, `not JSON)","cond":"edited"`,
		// The tap's own answer and its corrupted copy are marked as written by it.
		`\"message\":\"boom\"}}","size":65,"tap":"injected"}`,
		`,"tap":"edited"`,
		// The first answer (server/discover or initialize), which no rule can match: it
		// streams through unread.
		`"dir":"s2c","raw":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{`,
	} {
		if !strings.Contains(tr, w) {
			t.Errorf("the trace lacks %s", w)
		}
	}
	// The original answer, then the note, then what the host got.
	orig := strings.Index(tr, `"dir":"s2c","raw":"{\"jsonrpc\":\"2.0\",\"id\":4,\"result\"`)
	note := strings.Index(tr, `corrupted response id 4`)
	sent := strings.Index(tr, `"dir":"s2c","raw":"!\"jsonrpc\":\"2.0\",\"id\":4,`)
	if orig < 0 || !(orig < note && note < sent) {
		t.Errorf("trace order: original at %d, note at %d, forwarded at %d", orig, note, sent)
	}
	if !strings.Contains(stderr.String(), "mcp-inspect tap: inject rule 3 (method:never/called => drop) matched no message") {
		t.Errorf("stderr = %q", stderr.String())
	}
	if t.Failed() {
		t.Log(tr)
	}
}

// injectHTTP is a go-sdk client (the host) talking to a go-sdk Streamable HTTP server with
// one tool, echo (calls counts its runs), through an HTTP tap with --inject rules.
type injectHTTP struct {
	cs          *mcp.ClientSession
	ctx         context.Context
	calls       *atomic.Int32
	rec, stderr *lockedBuffer
	stop        func() // closes the client, then ends the tap
}

// echoUpstream starts a go-sdk Streamable HTTP server with one tool, echo, which hands its
// message to seen and returns it; it gives the server's MCP endpoint.
func echoUpstream(t *testing.T, seen func(string)) *url.URL {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo"}, func(ctx context.Context, req *mcp.CallToolRequest, in struct {
		Message string `json:"message"`
	}) (*mcp.CallToolResult, any, error) {
		seen(in.Message)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Message}}}, nil, nil
	})
	up := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL + "/mcp")
	return u
}

// tapListener is a loopback listener for an HTTP tap, and its guard.
func tapListener(t *testing.T) (net.Listener, *listenguard.Guard) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g, err := listenguard.New(listenguard.Options{Who: "mcp-inspect tap", Addr: ln.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	return ln, g
}

func startInjectHTTP(t *testing.T, ruleSrcs ...string) *injectHTTP {
	t.Helper()
	calls := new(atomic.Int32)
	u := echoUpstream(t, func(string) { calls.Add(1) })
	rules := mustRules(t, ruleSrcs...)
	ln, g := tapListener(t)
	var err error
	h := &injectHTTP{calls: calls, rec: new(lockedBuffer), stderr: new(lockedBuffer)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		_, _ = RunHTTP(ctx, HTTPOptions{Listener: ln, Upstream: u, Trace: h.rec, Stderr: h.stderr, SocketDir: "-", Header: trace.Header{Tool: "test"}, Guard: g, Inject: rules})
		close(done)
	}()
	cctx, ccancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(ccancel)
	h.ctx = cctx
	h.cs, err = mcp.NewClient(&mcp.Implementation{Name: "host", Version: "0"}, nil).Connect(cctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp"}, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	h.stop = func() {
		_ = h.cs.Close()
		cancel()
		<-done
	}
	return h
}

// TestInjectHTTPNamesResponse: the host's tools/call, which no rule can match, goes by
// unparsed; the note on its answer, which a rule edits, still names it.
func TestInjectHTTPNamesResponse(t *testing.T) {
	h := startInjectHTTP(t, "dir:in kind:response text:from-the-tool => error -32000 replaced")
	_, err := h.cs.CallTool(h.ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "from-the-tool"}})
	if err == nil || !strings.Contains(err.Error(), "replaced") {
		t.Errorf("tools/call: %v, want the rule's error", err)
	}
	h.stop()
	if tr := h.rec.String(); !regexp.MustCompile(`replaced response id \d+ \(tools/call echo\) from the server`).MatchString(tr) {
		t.Errorf("no note names the answer's request:\n%s", tr)
	}
}

// TestInjectHTTPJSONBody: a JSON response body (Content-Length, then chunked) edited by a
// rule reaches the host with its Content-Length set to the new body; a request a rule
// drops is answered 202 and never reaches the upstream; a response no rule matches keeps
// its bytes (chunked framing included).
func TestInjectHTTPJSONBody(t *testing.T) {
	upLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer upLn.Close()
	var served atomic.Int32
	go func() {
		for {
			c, err := upLn.Accept()
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
					b := make([]byte, h.contentLength)
					_, _ = io.ReadFull(br, b)
					served.Add(1)
					switch {
					case strings.Contains(string(b), `"tools/list"`):
						body := `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`
						_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + itoa(len(body)) + "\r\n\r\n" + body))
					default:
						_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
							"11\r\n{\"jsonrpc\":\"2.0\",\r\n" + "13\r\n\"id\":2,\"result\":{}}\r\n" + "0\r\n\r\n"))
					}
				}
			}()
		}
	}()
	rules := mustRules(t, `method:tools/list dir:in => replace {"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"no tools today"}}`, "method:ping => drop")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("http://" + upLn.Addr().String() + "/mcp")
	var rec lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		_, _ = RunHTTP(ctx, HTTPOptions{Listener: ln, Upstream: u, Trace: &rec, Stderr: io.Discard, SocketDir: "-", Header: trace.Header{Tool: "test"}, Inject: rules})
		close(done)
	}()
	defer func() { cancel(); <-done }()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	ask := func(body string) string {
		t.Helper()
		req := "POST /mcp HTTP/1.1\r\nHost: " + ln.Addr().String() + "\r\nContent-Type: application/json\r\nContent-Length: " + itoa(len(body)) + "\r\n\r\n" + body
		if _, err := c.Write([]byte(req)); err != nil {
			t.Fatal(err)
		}
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		h, err := readHead(br)
		if err != nil {
			t.Fatal(err)
		}
		if h.chunked {
			raw, _, err := readChunked(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			return string(h.raw) + string(raw)
		}
		b := make([]byte, max(h.contentLength, 0))
		if _, err := io.ReadFull(br, b); err != nil {
			t.Fatal(err)
		}
		return string(h.raw) + string(b)
	}
	want := `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"no tools today"}}`
	if got := ask(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); got != "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "+itoa(len(want))+"\r\n\r\n"+want {
		t.Errorf("edited answer:\n%q", got)
	}
	if got := ask(`{"jsonrpc":"2.0","id":9,"method":"ping"}`); got != "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n" {
		t.Errorf("dropped request answered:\n%q", got)
	}
	chunked := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"11\r\n{\"jsonrpc\":\"2.0\",\r\n" + "13\r\n\"id\":2,\"result\":{}}\r\n" + "0\r\n\r\n"
	if got := ask(`{"jsonrpc":"2.0","id":2,"method":"prompts/list"}`); got != chunked {
		t.Errorf("unmatched chunked answer changed:\n%q", got)
	}
	if n := served.Load(); n != 2 {
		t.Errorf("the upstream served %d requests, want 2 (the ping dropped)", n)
	}
}

// TestSSEData: the fast read of a frame's message agrees with the SSE reader on the usual
// frames and leaves every other frame to it.
func TestSSEData(t *testing.T) {
	for _, c := range []struct {
		frame, data string
		simple      bool
	}{
		{"event: message\ndata: {\"id\":1}\n\n", `{"id":1}`, true},
		{"id: 7\ndata:{\"id\":1}\n\n", `{"id":1}`, true},
		{"data: {\"id\":1}\r\n\r\n", "", false},
		{"data: a\ndata: b\n\n", "", false},
		{"event: ping\ndata: x\n\n", "", false},
		{": comment\ndata: x\n\n", "", false},
		{"data: x\n", "", false},
		{"data:\n\n", "", false},
	} {
		data, simple := sseData([]byte(c.frame))
		if simple != c.simple || string(data) != c.data {
			t.Errorf("%q: %q %v, want %q %v", c.frame, data, simple, c.data, c.simple)
		}
	}
}

// TestInjectHTTPCorruptRequest: a host's request the tap corrupted (no longer JSON) is in
// the trace as the message the server got, marked as the tap's edit, after the original.
func TestInjectHTTPCorruptRequest(t *testing.T) {
	h := startInjectHTTP(t, "dir:out method:tools/list => corrupt")
	lctx, lcancel := context.WithTimeout(h.ctx, 3*time.Second)
	_, err := h.cs.ListTools(lctx, nil)
	lcancel()
	if err == nil {
		t.Errorf("tools/list succeeded; the server got it corrupted")
	}
	h.stop()
	tr := h.rec.String()
	orig := strings.Index(tr, `"dir":"c2s","raw":"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"`)
	edit := regexp.MustCompile(`"dir":"c2s","raw":"!\\"jsonrpc[^\n]*"tap":"edited"`).FindStringIndex(tr)
	if orig < 0 || edit == nil || edit[0] < orig {
		t.Errorf("the trace lacks the original tools/list (at %d) followed by the corrupted copy marked edited (%v):\n%s", orig, edit, tr)
	}
}
