// Package listenguard decides who may talk to the HTTP servers mcp-inspect runs itself on
// loopback (mock --listen and the HTTP tap). MCP 2025-11-25 basic/transports, §Streamable
// HTTP, Security Warning: servers MUST validate the Origin header of every connection to
// prevent DNS rebinding (403 Forbidden when it is present and invalid), SHOULD bind only to
// localhost when running locally, and SHOULD authenticate every connection. So a request is
// served only when
//
//   - its Host is the listen address (for a loopback one also localhost, 127.0.0.1 or [::1]
//     with the same port): a web page that rebinds its own name to 127.0.0.1 sends its own
//     name as Host, and gets 403;
//   - its Origin, when there is one, is http:// or https:// followed by such a Host (a
//     browser sends one; other clients need not): 403 otherwise;
//   - it carries the per-run token, unless the user turned the token off: as the header
//     Mcp-Inspect-Token, as Authorization: Bearer, or as the query parameter token (an MCP
//     host's config often holds only a URL): 401 otherwise. Another local user can reach a
//     loopback port; only the user who started mcp-inspect knows the token.
//
// Guard.Check makes the decision from a few header values, so that a server that reads HTTP
// at the byte level (the tap) decides exactly as one on net/http (Guard.Handler, the mock).
package listenguard

import (
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// TokenHeader is the header that carries the per-run token. A dedicated header leaves
// Authorization to the host: through the tap, the host's own bearer token for the upstream
// passes untouched.
const TokenHeader = "Mcp-Inspect-Token"

// TokenParam is the query parameter that carries the per-run token, for hosts whose config
// takes only a URL: http://127.0.0.1:PORT/mcp?token=TOKEN.
const TokenParam = "token"

// Guard checks the requests of one listener. The zero Guard refuses everything; make one
// with New.
type Guard struct {
	who      string   // who refuses, for the bodies: "mcp-inspect tap"
	hosts    []string // accepted Host values, lower case host:port
	token    string   // "" when no token is asked for
	tokenURL string   // where the URL with the token is kept, for the 401 body ("" when not kept)
}

// Options configure a Guard.
type Options struct {
	// Who names the server in refusals ("mcp-inspect mock").
	Who string
	// Addr is the listen address, host:port (a net.Listener's Addr().String()).
	Addr string
	// Token is the per-run token; "" serves without one (--no-token).
	Token string
	// TokenFile, when set, is where the URL with the token is kept; a 401 names it.
	TokenFile string
}

// New makes the guard of a listener on o.Addr.
func New(o Options) (*Guard, error) {
	host, port, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", o.Addr, err)
	}
	g := &Guard{who: o.Who, token: o.Token, tokenURL: o.TokenFile}
	if g.who == "" {
		g.who = "mcp-inspect"
	}
	g.hosts = []string{strings.ToLower(net.JoinHostPort(host, port))}
	if ip := net.ParseIP(host); strings.EqualFold(host, "localhost") || ip != nil && ip.IsLoopback() {
		for _, h := range []string{"127.0.0.1", "localhost", "::1"} {
			if hp := net.JoinHostPort(h, port); hp != g.hosts[0] {
				g.hosts = append(g.hosts, hp)
			}
		}
	}
	return g, nil
}

// NewToken is a fresh per-run token: 26 characters of base32, 130 random bits.
func NewToken() string { return rand.Text() }

// TokenRequired reports whether requests must carry the token.
func (g *Guard) TokenRequired() bool { return g.token != "" }

// Request is what the guard looks at in a request.
type Request struct {
	// Host is the request's authority: the target's in absolute form, else the Host header.
	Host string
	// Origin are the Origin header's values (none: not sent).
	Origin []string
	// Token are the values of TokenHeader.
	Token []string
	// Authorization are the Authorization header's values.
	Authorization []string
	// RawQuery is the request target's query, without the '?'.
	RawQuery string
}

// Refusal is the answer to a request the guard refuses.
type Refusal struct {
	// Status is 403 (Host or Origin) or 401 (token).
	Status int
	// Reason says why in one line, for a note or a log; it never holds the token.
	Reason string
	// Body is the plain-text body of the answer.
	Body string
}

// Check returns nil for a request to serve, else the refusal to answer.
func (g *Guard) Check(r *Request) *Refusal {
	if !g.ownHost(r.Host, "") {
		return g.forbidden(fmt.Sprintf("the Host header %q is not this server's address", r.Host),
			"accepted: "+strings.Join(g.hosts, ", "))
	}
	if len(r.Origin) > 1 {
		return g.forbidden("more than one Origin header", "accepted: none, or one")
	}
	if len(r.Origin) == 1 && !g.ownOrigin(r.Origin[0]) {
		return g.forbidden(fmt.Sprintf("the Origin header %q is not this server's", r.Origin[0]),
			"accepted: none (clients that are not browsers), or http:// or https:// followed by "+strings.Join(g.hosts, ", "))
	}
	if g.token == "" {
		return nil
	}
	given := false
	for _, v := range r.Token {
		given = true
		if g.IsToken(strings.TrimSpace(v)) {
			return nil
		}
	}
	for _, v := range r.Authorization {
		// Another bearer is not counted as a wrong token: through the tap it may be the
		// host's own credential for the upstream.
		if g.BearerIsToken(v) {
			return nil
		}
	}
	if q, err := url.ParseQuery(r.RawQuery); err == nil {
		for _, v := range q[TokenParam] {
			given = true
			if g.IsToken(v) {
				return nil
			}
		}
	}
	why := "no mcp-inspect token"
	if given {
		why = "the mcp-inspect token does not match this run's"
	}
	body := fmt.Sprintf("%s: refused: %s. Send the token printed at start as the header %s: TOKEN (or Authorization: Bearer TOKEN), or add ?%s=TOKEN to the URL",
		g.who, why, TokenHeader, TokenParam)
	if g.tokenURL != "" {
		body += " (the URL with it is in " + g.tokenURL + ")"
	}
	body += "; --no-token serves without one.\n"
	return &Refusal{Status: http.StatusUnauthorized, Reason: why, Body: body}
}

func (g *Guard) forbidden(why, accepted string) *Refusal {
	return &Refusal{
		Status: http.StatusForbidden,
		Reason: why + " (" + accepted + ")",
		Body:   fmt.Sprintf("%s: refused: %s; %s (DNS rebinding protection).\n", g.who, why, accepted),
	}
}

// ownHost reports whether hostport, a Host value (the port defaults to defPort, else 80),
// is one the guard accepts.
func (g *Guard) ownHost(hostport, defPort string) bool {
	if hostport == "" {
		return false
	}
	h, p, err := net.SplitHostPort(hostport)
	if err != nil {
		// No port: the scheme's default.
		h, p = strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]"), defPort
		if p == "" {
			p = "80"
		}
	}
	hp := strings.ToLower(net.JoinHostPort(h, p))
	for _, a := range g.hosts {
		if hp == a {
			return true
		}
	}
	return false
}

// ownOrigin reports whether origin is http(s):// followed by an accepted host (an origin
// has no path, query or user).
func (g *Guard) ownOrigin(origin string) bool {
	scheme, rest, ok := strings.Cut(origin, "://")
	if !ok || strings.ContainsAny(rest, "/?#@") {
		return false
	}
	switch strings.ToLower(scheme) {
	case "http":
		return g.ownHost(rest, "80")
	case "https":
		return g.ownHost(rest, "443")
	}
	return false
}

// IsToken reports whether s is this run's token (in constant time). It is false for
// every s when no token is asked for.
func (g *Guard) IsToken(s string) bool {
	return g.token != "" && subtle.ConstantTimeCompare([]byte(s), []byte(g.token)) == 1
}

// BearerIsToken reports whether an Authorization value is "Bearer TOKEN" with this run's
// token: such a header is the guard's, not the upstream's.
func (g *Guard) BearerIsToken(authorization string) bool {
	tok, ok := bearer(authorization)
	return ok && g.IsToken(tok)
}

// bearer is the token of an Authorization value with the Bearer scheme (RFC 6750 §2.1).
func bearer(v string) (string, bool) {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return "", false
	}
	return strings.TrimSpace(tok), true
}

// StripQuery removes the token=TOKEN pairs carrying this run's token from a raw query, the
// other pairs kept as sent; changed is false when there was none.
func (g *Guard) StripQuery(rawQuery string) (out string, changed bool) {
	if g.token == "" || !strings.Contains(rawQuery, TokenParam+"=") {
		return rawQuery, false
	}
	pairs := strings.Split(rawQuery, "&")
	kept := pairs[:0]
	for _, p := range pairs {
		k, v, _ := strings.Cut(p, "=")
		if k == TokenParam {
			if dv, err := url.QueryUnescape(v); err == nil && g.IsToken(dv) {
				changed = true
				continue
			}
		}
		kept = append(kept, p)
	}
	return strings.Join(kept, "&"), changed
}

// URL is base (an http URL without a query) with the token as the query parameter; base
// itself when no token is asked for.
func (g *Guard) URL(base string) string {
	if g.token == "" {
		return base
	}
	return base + "?" + TokenParam + "=" + url.QueryEscape(g.token)
}

// Handler serves r with next when the guard accepts it, after taking the guard's token
// out of it (the query parameter, TokenHeader, an Authorization: Bearer with the token),
// and answers the refusal otherwise. refused, when set, is told of each refusal.
func (g *Guard) Handler(next http.Handler, refused func(*http.Request, *Refusal)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ref := g.Check(FromHTTP(r)); ref != nil {
			if refused != nil {
				refused(r, ref)
			}
			Write(w, ref)
			return
		}
		if q, changed := g.StripQuery(r.URL.RawQuery); changed {
			r.URL.RawQuery = q
			r.RequestURI = r.URL.RequestURI()
		}
		r.Header.Del(TokenHeader)
		if g.BearerIsToken(r.Header.Get("Authorization")) {
			r.Header.Del("Authorization")
		}
		next.ServeHTTP(w, r)
	})
}

// FromHTTP is what the guard looks at in a net/http server request.
func FromHTTP(r *http.Request) *Request {
	return &Request{
		Host:          r.Host,
		Origin:        r.Header.Values("Origin"),
		Token:         r.Header.Values(TokenHeader),
		Authorization: r.Header.Values("Authorization"),
		RawQuery:      r.URL.RawQuery,
	}
}

// Write answers a refusal on a net/http server: its status and plain-text body; a 401
// names its scheme in WWW-Authenticate (RFC 9110 §11.6.1) as TokenHeader, not Bearer, so
// that a client does not take it for an OAuth challenge.
func Write(w http.ResponseWriter, ref *Refusal) {
	for k, v := range ref.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(ref.Status)
	_, _ = fmt.Fprint(w, ref.Body)
}

// Header are the response headers of the refusal (without Content-Length).
func (ref *Refusal) Header() http.Header {
	h := http.Header{}
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	if ref.Status == http.StatusUnauthorized {
		h.Set("WWW-Authenticate", TokenHeader+` realm="mcp-inspect"`)
	}
	return h
}

// Response is the refusal as a whole HTTP/1.1 response, for a server that writes bytes
// (the tap); closeConn adds Connection: close.
func (ref *Refusal) Response(closeConn bool) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", ref.Status, http.StatusText(ref.Status))
	_ = ref.Header().Write(&b)
	fmt.Fprintf(&b, "Content-Length: %d\r\n", len(ref.Body))
	if closeConn {
		b.WriteString("Connection: close\r\n")
	}
	b.WriteString("\r\n")
	b.WriteString(ref.Body)
	return []byte(b.String())
}
