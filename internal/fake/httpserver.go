package fake

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/fakeas"
)

// HTTP scenarios: Streamable HTTP servers as they sit behind proxies and frameworks in the
// wild (docs/cases-remote.md R01…), each a well-behaved MCP server at /mcp (initialize,
// tools/list [echo], tools/call echo; 202 for notifications; no GET stream) behind one
// misbehaviour:
//
//	http-minimal        none
//	http-redirect-307   POST /start answers 307 to /mcp (R01); 308 for http-redirect-308
//	http-redirect-302   POST /start answers 302 Found to /mcp (R02)
//	http-redirect-loop  /start → /loop → /start, each 307 (R03)
//	http-redirect-away  /start answers 307 to Options.Away+"/mcp", another origin (R04)
//	http-gzip, http-deflate, http-deflate-raw, http-br, http-zstd
//	                    every answer body compressed so, whatever the request asked (R06);
//	                    -sse after the name (http-gzip-sse, …) answers requests with an SSE
//	                    stream compressed so, flushed event by event
//	http-compress       Content-Encoding: compress, which nobody decodes (R07)
//	http-session-404, http-session-400, http-session-401, http-session-200
//	                    sessions (Mcp-Session-Id s1, s2, …); the first one is forgotten after
//	                    one request: every later one in it is answered 404 (the spec's), or 400
//	                    / 401 / 200 with {"error":{"code":-32000,"message":"Bad Request: No
//	                    valid session ID provided"},"id":null} (the TypeScript SDK's) (R08)
//	http-guarded        stateful, and keeps the transport rules mcp-inspect check probes: a
//	                    foreign Origin or Host gets 403, an unknown session 404, a
//	                    notification 202 with no body, a GET 405 with Allow (httpguard.go)
//	http-lax, http-lax-get
//	                    stateful, and breaks them: any Origin and Host accepted, an unknown
//	                    session 400, a notification 200 with a body, a GET 405 without Allow
//	                    (http-lax) or 200 application/json (http-lax-get)
//	http-oauth          /mcp guarded by OAuth 2.1 (internal/fakeas: metadata, registration,
//	                    an /authorize that approves at once, PKCE-checked tokens); with a
//	                    suffix the authorization deviates (R10…): -as-html (RFC 8414 metadata
//	                    is an HTML page; OpenID Connect discovery has it), -prm-html (the
//	                    protected-resource metadata is an HTML page; the root has it),
//	                    -root-only (metadata only at the root, no resource_metadata),
//	                    -issuer (issuer https://login.example.com), -resource-slash
//	                    (resource /mcp/), -content-type (metadata as text/plain),
//	                    -doubled (resource_metadata twice, single-quoted, the first 404),
//	                    -step-up (403 insufficient_scope for tools:write), -step-up-denied
//	                    (asks for admin, which is never granted)
//
// The URL to connect to is the server's URL plus Path(scenario).

// HTTPOptions tune an HTTP scenario.
type HTTPOptions struct {
	// Away is the base URL of another server (another origin) for http-redirect-away.
	Away string
	// Seen, when set, is called with every request the server gets (method, path and
	// headers), before it answers.
	Seen func(r *http.Request)
}

// HTTPScenarios lists the HTTP scenario names.
var HTTPScenarios = []string{"http-minimal", "http-redirect-307", "http-redirect-308", "http-redirect-302", "http-redirect-loop", "http-redirect-away",
	"http-gzip", "http-deflate", "http-deflate-raw", "http-br", "http-zstd",
	"http-gzip-sse", "http-deflate-sse", "http-br-sse", "http-zstd-sse", "http-compress",
	"http-session-404", "http-session-400", "http-session-401", "http-session-200",
	"http-guarded", "http-lax", "http-lax-get", "http-modern", "http-modern-lax",
	"http-oauth", "http-oauth-as-html", "http-oauth-prm-html", "http-oauth-root-only", "http-oauth-issuer", "http-oauth-resource-slash",
	"http-oauth-content-type", "http-oauth-doubled", "http-oauth-step-up", "http-oauth-step-up-denied"}

// oauthDeviation is the authorization server of an http-oauth scenario; ok is false for
// another name.
func oauthDeviation(scenario string) (d fakeas.Deviations, ok bool) {
	switch strings.TrimPrefix(scenario, "http-oauth") {
	case "":
	case "-as-html":
		d.ASHTML = true
	case "-prm-html":
		d.PRMHTML = true
	case "-root-only":
		d.RootOnly = true
	case "-issuer":
		d.Issuer = "https://login.example.com"
	case "-resource-slash":
		d.Resource = "/mcp/"
	case "-content-type":
		d.ContentType = "text/plain"
	case "-doubled":
		d.DoubledChallenge, d.SingleQuoted = true, true
	case "-step-up":
		d.Scope = "tools:write"
	case "-step-up-denied":
		d.Scope, d.Grant = "admin", "read"
	default:
		return d, false
	}
	return d, strings.HasPrefix(scenario, "http-oauth")
}

// Path is where a client connects for scenario: /mcp, or /start for the redirects.
func Path(scenario string) string {
	if strings.HasPrefix(scenario, "http-redirect-") {
		return "/start"
	}
	return "/mcp"
}

// HTTPHandler is the handler of an HTTP scenario; ok is false for an unknown name.
func HTTPHandler(scenario string, opt HTTPOptions) (h http.Handler, ok bool) {
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) { serveMCP(w, r, false) })
	redirect := func(path, to string, code int) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			http.Redirect(w, r, to, code)
		})
	}
	if d, ok := oauthDeviation(scenario); ok {
		// The whole server is the authorization server with /mcp behind it.
		as := fakeas.NewHandler()
		as.Deviations = d
		as.Resource = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { serveMCP(w, r, false) })
		mux = http.NewServeMux()
		mux.Handle("/", as)
	}
	switch scenario {
	case "http-minimal":
	case "http-redirect-307":
		redirect("/start", "/mcp", http.StatusTemporaryRedirect)
	case "http-redirect-308":
		redirect("/start", "/mcp", http.StatusPermanentRedirect)
	case "http-redirect-302":
		redirect("/start", "/mcp", http.StatusFound)
	case "http-redirect-loop":
		redirect("/start", "/loop", http.StatusTemporaryRedirect)
		redirect("/loop", "/start", http.StatusTemporaryRedirect)
	case "http-redirect-away":
		redirect("/start", strings.TrimSuffix(opt.Away, "/")+"/mcp", http.StatusTemporaryRedirect)
	case "http-session-404", "http-session-400", "http-session-401", "http-session-200":
		mux = http.NewServeMux()
		mux.Handle("/mcp", newForgetful(strings.TrimPrefix(scenario, "http-session-")))
	case "http-guarded", "http-lax", "http-lax-get":
		mux = http.NewServeMux()
		mux.Handle("/mcp", newGuard(scenario == "http-guarded", scenario == "http-lax-get"))
	case "http-modern", "http-modern-lax":
		mux = http.NewServeMux()
		mux.Handle("/mcp", modern{strict: scenario == "http-modern"})
	default:
		if _, ok := oauthDeviation(scenario); ok {
			break
		}
		coding, sse := strings.CutSuffix(strings.TrimPrefix(scenario, "http-"), "-sse")
		if _, ok := encoders[coding]; !ok || !strings.HasPrefix(scenario, "http-") {
			return nil, false
		}
		mux = http.NewServeMux()
		mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
			ew := newEncodingWriter(w, coding)
			defer ew.close()
			serveMCP(ew, r, sse)
		})
	}
	if opt.Seen == nil {
		return mux, true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		opt.Seen(r)
		mux.ServeHTTP(w, r)
	}), true
}

// HTTPServer starts scenario on 127.0.0.1 for the test (closed when it ends) and returns
// the URL to connect to.
func HTTPServer(t testing.TB, scenario string, opt HTTPOptions) (srv *httptest.Server, connect string) {
	t.Helper()
	h, ok := HTTPHandler(scenario, opt)
	if !ok {
		t.Fatalf("fake.HTTPServer: unknown scenario %q", scenario)
	}
	srv = httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, srv.URL + Path(scenario)
}

// rpc is the part of a POSTed JSON-RPC message the fake servers read.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Name            string          `json:"name"`
		Arguments       json.RawMessage `json:"arguments"`
	} `json:"params"`
}

// readRPC reads the message a POST carries; ok is false (the answer written: 405 with
// Allow: POST for another method, 400 for a body that is not one) when there is none.
func readRPC(w http.ResponseWriter, r *http.Request) (m rpc, ok bool) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		w.WriteHeader(http.StatusMethodNotAllowed)
		return m, false
	}
	body, _ := io.ReadAll(r.Body)
	if json.Unmarshal(body, &m) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return m, false
	}
	return m, true
}

// serveMCP is the well-behaved server: JSON answers (an SSE stream of one event when sse is
// set), 202 for what is not a request.
func serveMCP(w http.ResponseWriter, r *http.Request, sse bool) {
	if m, ok := readRPC(w, r); ok {
		answerRPC(w, m, sse)
	}
}

// answerRPC answers m as the well-behaved server does.
func answerRPC(w http.ResponseWriter, m rpc, sse bool) {
	if m.ID == nil || m.Method == "" { // a notification or a response: accepted
		w.WriteHeader(http.StatusAccepted)
		return
	}
	var result string
	switch m.Method {
	case "initialize":
		// A dated revision is echoed; another (a future one) gets the newest this server has.
		pv := m.Params.ProtocolVersion
		if !slices.Contains([]string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}, pv) {
			pv = "2025-11-25"
		}
		v, _ := json.Marshal(pv)
		result = `{"protocolVersion":` + string(v) + `,"capabilities":{"tools":{}},"serverInfo":{"name":"fake-http","version":"0.0.1"}}`
	case "tools/list":
		result = `{"tools":[{"name":"echo","description":"Echo the text back","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}`
	case "tools/call":
		if m.Params.Name != "echo" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32602,"message":"unknown tool"}}`))
			return
		}
		var a struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(m.Params.Arguments, &a)
		t, _ := json.Marshal(a.Text)
		result = `{"content":[{"type":"text","text":` + string(t) + `}]}`
	case "ping":
		result = `{}`
	default:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"method not found"}}`))
		return
	}
	resp := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `}`
	if sse {
		w.Header().Set("Content-Type", "text/event-stream")
		// A log notification first (not before initialize is answered), flushed, then
		// the response: the stream is decoded event by event.
		if m.Method != "initialize" {
			_, _ = w.Write([]byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"working\"}}\n\n"))
		}
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		_, _ = w.Write([]byte("event: message\ndata: " + resp + "\n\n"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(resp))
}
