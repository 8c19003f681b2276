// Package fakeas is a small OAuth 2.1 authorization server guarding an MCP endpoint, for
// tests on 127.0.0.1 (written here; no code is copied from go-sdk's internal oauthtest).
package fakeas

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// AS is a small authorization server and protected MCP endpoint on 127.0.0.1: RFC 9728
// metadata, RFC 8414 metadata, RFC 7591 registration, an /authorize that approves (or
// refuses) at once with a 302, and a /token endpoint checking PKCE and refresh tokens.
// Deviations make it answer as deviating servers in the wild do (docs/cases-remote.md R10…).
type AS struct {
	// Server is the httptest server (nil for NewHandler); URL()+"/mcp" is the protected
	// endpoint.
	Server *httptest.Server
	// Resource serves /mcp once the token is valid; nil answers "ok".
	Resource http.Handler
	// Deviations are the ways it breaks the rules; the zero value breaks none.
	Deviations Deviations

	mu sync.Mutex
	// Refuse makes /authorize answer error=access_denied.
	Refuse bool
	// ExpiresIn is the expires_in of issued tokens in seconds (0: none).
	ExpiresIn int
	// AlwaysUnauthorized makes /mcp answer 401 to every token.
	AlwaysUnauthorized bool
	codes              map[string]string // code → S256 challenge
	access             map[string]bool   // valid access tokens
	refresh            map[string]bool   // valid refresh tokens
	n                  int
	counts             map[string]int    // requests by path
	grants             []string          // grant_type of each /token request
	issued             []string          // every access and refresh token issued
	scopes             map[string]string // code or token → scopes granted
	registrations      int
}

// Deviations are what real authorization servers and protected resources get wrong.
type Deviations struct {
	// PRMHTML answers the path-inserted protected-resource metadata with a 200 HTML page
	// (a single-page app's catch-all route).
	PRMHTML bool
	// ASHTML answers the RFC 8414 authorization-server metadata with a 200 HTML page; the
	// metadata is at the OpenID Connect discovery path only.
	ASHTML bool
	// RootOnly serves the protected-resource metadata only at the root well-known path
	// (naming the /mcp URL as its resource) and leaves resource_metadata out of the
	// challenge.
	RootOnly bool
	// Issuer, when set, is the issuer the metadata states instead of the server's URL.
	Issuer string
	// Resource, when set, is the resource the protected-resource metadata states instead
	// of the /mcp URL; one starting with "/" is a path on the server's own URL.
	Resource string
	// ContentType, when set, is the Content-Type of the metadata answers.
	ContentType string
	// DoubledChallenge gives resource_metadata twice in the challenge: first a URL that
	// answers 404, then /metadata/mcp, the only place the metadata is.
	DoubledChallenge bool
	// SingleQuoted writes the challenge's values in single quotes.
	SingleQuoted bool
	// Scope, when set, is a scope /mcp requires: a token without it gets 403
	// insufficient_scope naming it (step-up).
	Scope string
	// Grant, when set, limits the scopes /authorize grants to these (space-separated); a
	// server whose Scope is not among them keeps asking.
	Grant string
}

// New starts an AS; it stops with the test.
func New(t testing.TB) *AS {
	f := NewHandler()
	f.Server = httptest.NewServer(f)
	t.Cleanup(f.Server.Close)
	return f
}

// NewHandler returns an AS to serve with a server of one's own; it finds its base URL in
// each request's Host.
func NewHandler() *AS {
	return &AS{codes: map[string]string{}, access: map[string]bool{}, refresh: map[string]bool{}, counts: map[string]int{}, scopes: map[string]string{}}
}

// ServeHTTP serves the AS and its protected endpoint.
func (f *AS) ServeHTTP(w http.ResponseWriter, r *http.Request) { f.serve(w, r) }

// URL is the server's base URL.
func (f *AS) URL() string { return f.Server.URL }

// Count is how many requests reached path.
func (f *AS) Count(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts[path]
}

func (f *AS) newToken(prefix string) string {
	f.n++
	tok := fmt.Sprintf("%s-%d-secretvalue", prefix, f.n)
	if prefix != "code" {
		f.issued = append(f.issued, tok)
	}
	return tok
}

// Grants lists the grant_type of every /token request.
func (f *AS) Grants() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.grants...)
}

// Issued lists every access and refresh token issued so far.
func (f *AS) Issued() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.issued...)
}

func (f *AS) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.counts[r.URL.Path]++
	base := "http://" + r.Host
	d := f.Deviations
	if r.URL.Path == "/mcp" {
		f.guard(w, r, base)
		return
	}
	defer f.mu.Unlock()
	writeJSON := func(code int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(v)
	}
	writeMeta := func(v any) {
		if d.ContentType != "" {
			w.Header()["Content-Type"] = strings.Split(d.ContentType, "\n")
			json.NewEncoder(w).Encode(v)
			return
		}
		writeJSON(200, v)
	}
	issuer, resource := base, base+"/mcp"
	if d.Issuer != "" {
		issuer = d.Issuer
	}
	if d.Resource != "" {
		resource = d.Resource
		if strings.HasPrefix(resource, "/") {
			resource = base + resource
		}
	}
	prm := map[string]any{"resource": resource, "authorization_servers": []string{base}}
	asm := map[string]any{
		"issuer": issuer, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
		"registration_endpoint": base + "/register", "response_types_supported": []string{"code"},
		"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"},
		"grant_types_supported": []string{"authorization_code", "refresh_token"},
	}
	switch {
	case r.URL.Path == "/.well-known/oauth-protected-resource/mcp" && d.PRMHTML:
		writeHTML(w)
	case r.URL.Path == "/.well-known/oauth-protected-resource/mcp" && !d.RootOnly && !d.DoubledChallenge,
		r.URL.Path == "/metadata/mcp" && d.DoubledChallenge,
		r.URL.Path == "/.well-known/oauth-protected-resource" && (d.RootOnly || d.PRMHTML):
		writeMeta(prm)
	case r.URL.Path == "/.well-known/oauth-authorization-server" && d.ASHTML:
		writeHTML(w)
	case r.URL.Path == "/.well-known/oauth-authorization-server",
		r.URL.Path == "/.well-known/openid-configuration" && d.ASHTML:
		writeMeta(asm)
	case r.URL.Path == "/register":
		f.registrations++
		var m map[string]any
		json.NewDecoder(r.Body).Decode(&m)
		m["client_id"] = fmt.Sprintf("dyn-client-%d", f.registrations)
		m["token_endpoint_auth_method"] = "none"
		writeJSON(201, m)
	case r.URL.Path == "/authorize":
		f.authorize(w, r, base)
	case r.URL.Path == "/token":
		f.token(w, r, writeJSON)
	default:
		http.NotFound(w, r)
	}
}

// writeHTML answers as a single-page app's catch-all route does.
func writeHTML(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, "<!doctype html><html><head><title>App</title></head><body><div id=root></div></body></html>")
}

// guard serves /mcp: the resource for a valid token with the scope required, else a
// challenge. f.mu is held and released here.
func (f *AS) guard(w http.ResponseWriter, r *http.Request, base string) {
	d := f.Deviations
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	ok := f.access[tok] && !f.AlwaysUnauthorized
	scoped := d.Scope == "" || strings.Contains(" "+f.scopes[tok]+" ", " "+d.Scope+" ")
	res := f.Resource
	f.mu.Unlock()
	q := func(v string) string {
		if d.SingleQuoted {
			return "'" + v + "'"
		}
		return `"` + v + `"`
	}
	switch {
	case ok && !scoped:
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope=`+q(d.Scope)+`, resource_metadata=`+q(base+"/.well-known/oauth-protected-resource/mcp"))
		w.WriteHeader(http.StatusForbidden)
		return
	case !ok:
		challenge := "Bearer"
		switch {
		case d.DoubledChallenge:
			challenge += ` resource_metadata=` + q(base+"/old/metadata") + `, resource_metadata=` + q(base+"/metadata/mcp")
		case !d.RootOnly:
			challenge += ` resource_metadata=` + q(base+"/.well-known/oauth-protected-resource/mcp")
		}
		if tok != "" {
			// RFC 6750 §3.1: a request with a token that is not accepted says why.
			challenge += `, error="invalid_token", error_description="The access token expired"`
		}
		w.Header().Set("WWW-Authenticate", strings.Replace(challenge, "Bearer, ", "Bearer ", 1))
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if res == nil {
		fmt.Fprint(w, "ok")
		return
	}
	res.ServeHTTP(w, r)
}

// authorize approves (or refuses) at once with a 302 to the loopback redirect.
func (f *AS) authorize(w http.ResponseWriter, r *http.Request, base string) {
	q := r.URL.Query()
	redirect, _ := url.Parse(q.Get("redirect_uri"))
	if redirect == nil || redirect.Hostname() != "127.0.0.1" || q.Get("code_challenge_method") != "S256" || q.Get("resource") != base+"/mcp" {
		http.Error(w, "bad authorization request", 400)
		return
	}
	v := url.Values{"state": {q.Get("state")}}
	if f.Refuse {
		v.Set("error", "access_denied")
		v.Set("error_description", "the user said no")
	} else {
		code := f.newToken("code")
		f.codes[code] = q.Get("code_challenge")
		f.scopes[code] = granted(q.Get("scope"), f.Deviations.Grant)
		v.Set("code", code)
	}
	redirect.RawQuery = v.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

// granted is the part of the asked scopes the AS grants: all of them, or those in grant.
func granted(asked, grant string) string {
	if grant == "" {
		return asked
	}
	var out []string
	for _, s := range strings.Fields(asked) {
		if strings.Contains(" "+grant+" ", " "+s+" ") {
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

// token exchanges a code (checking PKCE) or a refresh token.
func (f *AS) token(w http.ResponseWriter, r *http.Request, writeJSON func(int, any)) {
	r.ParseForm()
	f.grants = append(f.grants, r.Form.Get("grant_type"))
	var scope string
	switch r.Form.Get("grant_type") {
	case "authorization_code":
		code := r.Form.Get("code")
		ch, ok := f.codes[code]
		sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != ch {
			writeJSON(400, map[string]string{"error": "invalid_grant"})
			return
		}
		scope = f.scopes[code]
		delete(f.codes, code)
	case "refresh_token":
		rt := r.Form.Get("refresh_token")
		if !f.refresh[rt] {
			writeJSON(400, map[string]string{"error": "invalid_grant", "error_description": "refresh token revoked"})
			return
		}
		scope = f.scopes[rt]
		delete(f.refresh, rt)
	default:
		writeJSON(400, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	at, rt := f.newToken("access"), f.newToken("refresh")
	f.access[at], f.refresh[rt] = true, true
	f.scopes[at], f.scopes[rt] = scope, scope
	res := map[string]any{"access_token": at, "token_type": "Bearer", "refresh_token": rt}
	if scope != "" || f.Deviations.Grant != "" {
		res["scope"] = scope
	}
	if f.ExpiresIn > 0 {
		res["expires_in"] = f.ExpiresIn
	}
	writeJSON(200, res)
}

// Registrations is how many clients registered (RFC 7591).
func (f *AS) Registrations() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.registrations
}

// RevokeAll makes every issued token invalid.
func (f *AS) RevokeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.access)
	clear(f.refresh)
}
