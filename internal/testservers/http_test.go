package testservers

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// exchange is one HTTP request to an MCP endpoint and what came back.
type exchange struct {
	resp   *http.Response
	frames []mcpclient.SSEFrame // the SSE frames read, when the body is an event stream
	msg    map[string]any       // the JSON-RPC response with the request's id, if any
}

// post sends one JSON-RPC message to url as a Streamable HTTP client does
// and reads the answer: a JSON body, or SSE frames up to the response with
// id wantID (0: read nothing).
func post(t *testing.T, url string, hdr map[string]string, body string, wantID float64) exchange {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	resp := send(t, ctx, http.MethodPost, url, hdr, body)
	defer resp.Body.Close()
	ex := exchange{resp: resp}
	if wantID == 0 {
		_, _ = io.Copy(io.Discard, resp.Body)
		return ex
	}
	switch ct := resp.Header.Get("Content-Type"); {
	case strings.HasPrefix(ct, "text/event-stream"):
		ex.frames, ex.msg = readUntilResponse(t, mcpclient.NewSSEReader(resp.Body), wantID)
	case strings.HasPrefix(ct, "application/json"):
		if err := json.NewDecoder(resp.Body).Decode(&ex.msg); err != nil {
			t.Fatalf("POST %s: status %s, JSON body: %v", url, resp.Status, err)
		}
	default:
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s: status %s, Content-Type %q, body %q", url, resp.Status, ct, b)
	}
	return ex
}

// send makes one request as a Streamable HTTP client does (Accept both
// JSON and SSE; a body is JSON) and returns the response.
func send(t *testing.T, ctx context.Context, method, url string, hdr map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	return resp
}

// readUntilResponse reads frames until one carries the JSON-RPC response
// with id wantID, and returns the frames read and that response.
func readUntilResponse(t *testing.T, sr *mcpclient.SSEReader, wantID float64) ([]mcpclient.SSEFrame, map[string]any) {
	t.Helper()
	var frames []mcpclient.SSEFrame
	for {
		f, err := sr.Next()
		if err != nil {
			t.Fatalf("SSE stream ended (%v) before the response to id %v; frames: %q", err, wantID, raws(frames))
		}
		frames = append(frames, f)
		if !f.Dispatches() || f.Data == "" {
			continue
		}
		var msg map[string]any
		if err := json.Unmarshal([]byte(f.Data), &msg); err != nil {
			t.Fatalf("SSE data is not JSON: %v: %q", err, f.Raw)
		}
		if id, ok := msg["id"].(float64); ok && id == wantID && msg["method"] == nil {
			return frames, msg
		}
	}
}

func raws(frames []mcpclient.SSEFrame) []string {
	var out []string
	for _, f := range frames {
		out = append(out, string(f.Raw))
	}
	return out
}

// checkLoopbackOnly fails the test if the server at addr also answers on
// one of the machine's other addresses.
func checkLoopbackOnly(t *testing.T, addr string) {
	t.Helper()
	_, port, _ := net.SplitHostPort(addr)
	ifaddrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range ifaddrs {
		ipnet, ok := a.(*net.IPNet)
		if !ok || ipnet.IP.IsLoopback() || ipnet.IP.IsLinkLocalUnicast() {
			continue
		}
		other := net.JoinHostPort(ipnet.IP.String(), port)
		if c, err := net.DialTimeout("tcp", other, 500*time.Millisecond); err == nil {
			c.Close()
			t.Errorf("the server also listens on %s; want 127.0.0.1 only", other)
		}
	}
}

func checkInitializeResult(t *testing.T, msg map[string]any, server string) {
	t.Helper()
	if got := field(t, msg, "result", "serverInfo", "name"); got != server {
		t.Errorf("serverInfo.name = %v, want %s; response: %v", got, server, msg)
	}
	if got := field(t, msg, "result", "protocolVersion"); got != "2025-11-25" {
		t.Errorf("protocolVersion = %v, want 2025-11-25", got)
	}
}

func TestServerEverythingHTTP(t *testing.T) {
	s := ServerEverythingHTTP(t)
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") || !strings.HasSuffix(s.URL, "/mcp") {
		t.Fatalf("URL = %q, want http://127.0.0.1:PORT/mcp", s.URL)
	}
	checkLoopbackOnly(t, s.Addr)

	ex := post(t, s.URL, nil, initialize, 1)
	if ex.resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize: status %s, want 200", ex.resp.Status)
	}
	checkInitializeResult(t, ex.msg, "mcp-servers/everything")
	sid := ex.resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatalf("initialize: no Mcp-Session-Id; headers %v", ex.resp.Header)
	}
	// The stream opens with a priming event (an id and empty data), which
	// a client resumes from with Last-Event-ID.
	if len(ex.frames) == 0 {
		t.Fatalf("initialize: answered %s, want an event stream", ex.resp.Header.Get("Content-Type"))
	}
	if p := ex.frames[0]; !p.Dispatches() || p.Data != "" || p.ID == "" {
		t.Errorf("first frame %q, want a priming event (id and empty data)", p.Raw)
	}

	ex = post(t, s.URL, map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"},
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0)
	if ex.resp.StatusCode != http.StatusAccepted {
		t.Errorf("notifications/initialized: status %s, want 202", ex.resp.Status)
	}
}

// TestServerEverythingHTTPResume cuts a tool call's event stream after its
// first progress notification and resumes it with GET and Last-Event-ID:
// server-everything keeps an event store, so the rest of the progress and the
// result are replayed. The fixture for a client's resumption.
func TestServerEverythingHTTPResume(t *testing.T) {
	s := ServerEverythingHTTP(t)
	ex := post(t, s.URL, nil, initialize, 1)
	sid := ex.resp.Header.Get("Mcp-Session-Id")
	if ex.resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: status %s, session id %q", ex.resp.Status, sid)
	}
	session := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	post(t, s.URL, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0)

	ctx, cut := context.WithCancel(t.Context())
	defer cut()
	resp := send(t, ctx, http.MethodPost, s.URL, session, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{`+
		`"name":"trigger-long-running-operation","arguments":{"duration":1,"steps":4},"_meta":{"progressToken":"p"}}}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("tools/call: status %s, want 200", resp.Status)
	}
	sr := mcpclient.NewSSEReader(resp.Body)
	var lastID string
	for lastID == "" {
		f, err := sr.Next()
		if err != nil {
			t.Fatalf("tools/call stream ended (%v) before any progress", err)
		}
		if f.Dispatches() && strings.Contains(f.Data, `"notifications/progress"`) {
			if got := field(t, decode(t, f.Data), "params", "progress"); got != float64(1) {
				t.Fatalf("first progress %v, want 1: %q", got, f.Raw)
			}
			lastID = f.LastEventID
			if lastID == "" {
				t.Fatalf("progress event without an event id: %q", f.Raw)
			}
		}
	}
	cut() // the client's connection drops
	resp.Body.Close()

	// Resume as a client does: GET with Last-Event-ID, and again from the
	// newest event id while the operation still runs (a replay sends only
	// the events stored so far; the stream then idles with keep-alives).
	var progress []any
	var msg map[string]any
	for attempt := 0; msg == nil; attempt++ {
		if attempt == 20 {
			t.Fatalf("no result after %d resumptions; progress so far %v", attempt, progress)
		}
		actx, cancel := context.WithTimeout(t.Context(), time.Second)
		resume := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25", "Last-Event-ID": lastID}
		resp := send(t, actx, http.MethodGet, s.URL, resume, "")
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
			t.Fatalf("GET with Last-Event-ID: %s, Content-Type %q; want 200 text/event-stream", resp.Status, ct)
		}
		sr := mcpclient.NewSSEReader(resp.Body)
		for msg == nil {
			f, err := sr.Next()
			if err != nil {
				break // the attempt's deadline
			}
			if f.HasID && f.ID != "" {
				lastID = f.ID
			}
			if !f.Dispatches() || f.Data == "" {
				continue
			}
			m := decode(t, f.Data)
			switch {
			case m["method"] == "notifications/progress":
				progress = append(progress, field(t, m, "params", "progress"))
			case m["id"] == float64(3):
				msg = m
			}
		}
		cancel()
		resp.Body.Close()
		t.Logf("attempt %d: progress %v, result %v", attempt, progress, msg != nil)
	}
	if want := []any{2.0, 3.0, 4.0}; !slices.Equal(progress, want) {
		t.Errorf("replayed progress %v, want %v", progress, want)
	}
	content, _ := field(t, msg, "result", "content").([]any)
	if len(content) == 0 || !strings.Contains(field(t, content[0], "text").(string), "completed") {
		t.Errorf("tools/call result %v, want the completed operation", msg)
	}
}

func decode(t *testing.T, data string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		t.Fatalf("%v: %q", err, data)
	}
	return m
}

func TestServerEverythingSSE(t *testing.T) {
	s := ServerEverythingSSE(t)
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") || !strings.HasSuffix(s.URL, "/sse") {
		t.Fatalf("URL = %q, want http://127.0.0.1:PORT/sse", s.URL)
	}
	checkLoopbackOnly(t, s.Addr)

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("GET %s: %s, Content-Type %q; want 200 text/event-stream", s.URL, resp.Status, ct)
	}
	sr := mcpclient.NewSSEReader(resp.Body)
	f, err := sr.Next()
	if err != nil {
		t.Fatal(err)
	}
	if f.Event != "endpoint" || !strings.HasPrefix(f.Data, "/message?sessionId=") || !f.Dispatches() {
		t.Fatalf("first frame %q, want event endpoint with /message?sessionId=…", f.Raw)
	}

	ex := post(t, "http://"+s.Addr+f.Data, nil, initialize, 0)
	if ex.resp.StatusCode != http.StatusAccepted {
		t.Fatalf("POST initialize to the endpoint: status %s, want 202", ex.resp.Status)
	}
	frames, msg := readUntilResponse(t, sr, 1)
	if last := frames[len(frames)-1]; last.Event != "message" {
		t.Errorf("the response came as event %q, want message", last.Event)
	}
	checkInitializeResult(t, msg, "mcp-servers/everything")
}

func TestGoEverythingHTTPStateful(t *testing.T) {
	s := GoEverythingHTTP(t, false)
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Fatalf("URL = %q, want http://127.0.0.1:PORT/…", s.URL)
	}
	checkLoopbackOnly(t, s.Addr)
	ex := post(t, s.URL, nil, initialize, 1)
	if ex.resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize: status %s, want 200", ex.resp.Status)
	}
	checkInitializeResult(t, ex.msg, "mcp-conformance-test-server")
	if ex.resp.Header.Get("Mcp-Session-Id") == "" {
		t.Errorf("initialize: no Mcp-Session-Id from the stateful server; headers %v", ex.resp.Header)
	}
}

func TestGoEverythingHTTPStateless(t *testing.T) {
	s := GoEverythingHTTP(t, true)
	checkLoopbackOnly(t, s.Addr)

	ex := post(t, s.URL, nil, initialize, 1)
	if ex.resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize: status %s, want 200", ex.resp.Status)
	}
	checkInitializeResult(t, ex.msg, "mcp-conformance-test-server")
	if sid := ex.resp.Header.Get("Mcp-Session-Id"); sid != "" {
		t.Errorf("initialize: Mcp-Session-Id %q from the stateless server, want none", sid)
	}

	const discover = `{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientCapabilities":{},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"testservers","version":"0"}}}}`
	modern := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}
	ex = post(t, s.URL, modern, discover, 2)
	if ex.resp.StatusCode != http.StatusOK {
		t.Fatalf("server/discover: status %s, want 200", ex.resp.Status)
	}
	versions, _ := field(t, ex.msg, "result", "supportedVersions").([]any)
	if !slices.Contains(versions, any("2026-07-28")) || !slices.Contains(versions, any("2025-11-25")) {
		t.Errorf("supportedVersions = %v, want both eras", versions)
	}

	// 2026-07-28 requires Mcp-Method on every POST: without it, HTTP 400
	// with JSON-RPC error -32020.
	ex = post(t, s.URL, map[string]string{"MCP-Protocol-Version": "2026-07-28"}, discover, 2)
	if ex.resp.StatusCode != http.StatusBadRequest {
		t.Errorf("server/discover without Mcp-Method: status %s, want 400", ex.resp.Status)
	}
	if code := field(t, ex.msg, "error", "code"); code != float64(-32020) {
		t.Errorf("server/discover without Mcp-Method: error code %v, want -32020; %v", code, ex.msg)
	}
}
