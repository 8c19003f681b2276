package fake

import (
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// guard is a stateful Streamable HTTP server that either keeps
// every transport rule mcp-inspect check probes (strict: http-guarded) or breaks each
// (http-lax, http-lax-get):
//
//	                          strict (http-guarded)          lax
//	Origin not its own        403 + JSON-RPC error, no id    accepted
//	Host not its own          403                            accepted
//	unknown Mcp-Session-Id    404                            400 (the TypeScript SDK's body)
//	notification, response    202, no body                   200 {"ok":true}
//	GET                       405, Allow: POST, DELETE       405 without Allow; with getJSON
//	                                                         200 application/json
//	MCP-Protocol-Version      400                            served
//	  no revision has
//	session ids               g1, g2, …                      "lax session 1", … (spaces)
//
// Its own Origin and Host are http://127.0.0.1:PORT, http://localhost:PORT and
// http://[::1]:PORT, PORT the one the request came in on.
type guard struct {
	strict, getJSON bool

	mu       sync.Mutex
	next     int
	sessions map[string]bool
}

// legacyVersions are the revisions the legacy fakes speak.
var legacyVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

func newGuard(strict, getJSON bool) *guard {
	return &guard{strict: strict, getJSON: getJSON, sessions: map[string]bool{}}
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.strict && !ownHostAndOrigin(r) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Forbidden: Host or Origin not allowed"}}`)
		return
	}
	sid := r.Header.Get("Mcp-Session-Id")
	switch r.Method {
	case http.MethodGet:
		g.get(w)
		return
	case http.MethodDelete:
		if !g.end(sid) {
			w.WriteHeader(http.StatusNotFound)
		}
		return
	}
	m, ok := readRPC(w, r)
	if !ok {
		return
	}
	if m.Method == "initialize" {
		w.Header().Set("Mcp-Session-Id", g.open())
	} else if !g.has(sid) {
		g.unknown(w, sid)
		return
	} else if v := r.Header.Get("MCP-Protocol-Version"); g.strict && v != "" && !slices.Contains(legacyVersions, v) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "Unsupported protocol version: %s", v)
		return
	}
	if (m.ID == nil || m.Method == "") && !g.strict { // a notification or a response
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
		return
	}
	answerRPC(w, m, false)
}

// get answers a GET: there is no GET stream.
func (g *guard) get(w http.ResponseWriter) {
	switch {
	case g.strict:
		w.Header().Set("Allow", "POST, DELETE")
		w.WriteHeader(http.StatusMethodNotAllowed)
	case g.getJSON:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"message":"no stream here"}`)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// unknown answers a request outside any session the server has.
func (g *guard) unknown(w http.ResponseWriter, sid string) {
	switch {
	case g.strict && sid == "":
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, "Mcp-Session-Id required")
	case g.strict:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "session not found")
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}`)
	}
}

func (g *guard) open() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.next++
	sid := "g" + strconv.Itoa(g.next)
	if !g.strict {
		sid = "lax session " + strconv.Itoa(g.next) // spaces: not visible ASCII
	}
	g.sessions[sid] = true
	return sid
}

func (g *guard) has(sid string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.sessions[sid]
}

func (g *guard) end(sid string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	ok := g.sessions[sid]
	delete(g.sessions, sid)
	return ok
}

// ownHostAndOrigin reports whether the Host header, and the Origin header when there is
// one, name this server on a loopback name and the port the request came in on.
func ownHostAndOrigin(r *http.Request) bool {
	port := ""
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		_, port, _ = net.SplitHostPort(a.String())
	}
	own := func(hostport string) bool {
		h, p, err := net.SplitHostPort(hostport)
		return err == nil && p == port && (h == "127.0.0.1" || h == "localhost" || h == "::1")
	}
	if !own(r.Host) {
		return false
	}
	origin := r.Header.Get("Origin")
	rest, ok := strings.CutPrefix(origin, "http://")
	return origin == "" || ok && own(rest)
}
