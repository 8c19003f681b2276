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
type AS struct {
	// Server is the httptest server; URL()+"/mcp" is the protected endpoint.
	Server *httptest.Server
	// Resource serves /mcp once the token is valid; nil answers "ok".
	Resource http.Handler

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
	counts             map[string]int // requests by path
	grants             []string       // grant_type of each /token request
	issued             []string       // every access and refresh token issued
}

// New starts an AS; it stops with the test.
func New(t testing.TB) *AS {
	f := &AS{codes: map[string]string{}, access: map[string]bool{}, refresh: map[string]bool{}, counts: map[string]int{}}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Server.Close)
	return f
}

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
	if r.URL.Path == "/mcp" {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		ok := f.access[tok] && !f.AlwaysUnauthorized
		res := f.Resource
		f.mu.Unlock()
		if !ok {
			challenge := `Bearer resource_metadata="` + f.Server.URL + `/.well-known/oauth-protected-resource/mcp"`
			if tok != "" {
				// RFC 6750 §3.1: a request with a token that is not accepted says why.
				challenge += `, error="invalid_token", error_description="The access token expired"`
			}
			w.Header().Set("WWW-Authenticate", challenge)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if res == nil {
			fmt.Fprint(w, "ok")
			return
		}
		res.ServeHTTP(w, r)
		return
	}
	defer f.mu.Unlock()
	base := f.Server.URL
	writeJSON := func(code int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(v)
	}
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		writeJSON(200, map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
	case "/.well-known/oauth-authorization-server":
		writeJSON(200, map[string]any{
			"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"},
			"grant_types_supported": []string{"authorization_code", "refresh_token"},
		})
	case "/register":
		var m map[string]any
		json.NewDecoder(r.Body).Decode(&m)
		m["client_id"] = "dyn-client"
		m["token_endpoint_auth_method"] = "none"
		writeJSON(201, m)
	case "/authorize":
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
			v.Set("code", code)
		}
		redirect.RawQuery = v.Encode()
		http.Redirect(w, r, redirect.String(), http.StatusFound)
	case "/token":
		r.ParseForm()
		f.grants = append(f.grants, r.Form.Get("grant_type"))
		switch r.Form.Get("grant_type") {
		case "authorization_code":
			ch, ok := f.codes[r.Form.Get("code")]
			sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
			if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != ch {
				writeJSON(400, map[string]string{"error": "invalid_grant"})
				return
			}
			delete(f.codes, r.Form.Get("code"))
		case "refresh_token":
			if !f.refresh[r.Form.Get("refresh_token")] {
				writeJSON(400, map[string]string{"error": "invalid_grant", "error_description": "refresh token revoked"})
				return
			}
			delete(f.refresh, r.Form.Get("refresh_token"))
		default:
			writeJSON(400, map[string]string{"error": "unsupported_grant_type"})
			return
		}
		at, rt := f.newToken("access"), f.newToken("refresh")
		f.access[at], f.refresh[rt] = true, true
		res := map[string]any{"access_token": at, "token_type": "Bearer", "refresh_token": rt}
		if f.ExpiresIn > 0 {
			res["expires_in"] = f.ExpiresIn
		}
		writeJSON(200, res)
	default:
		http.NotFound(w, r)
	}
}

// RevokeAll makes every issued token invalid.
func (f *AS) RevokeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.access)
	clear(f.refresh)
}
