package oauth

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

// fakeAS is a small authorization server and protected MCP endpoint on 127.0.0.1: RFC 9728
// metadata, RFC 8414 metadata, RFC 7591 registration, an /authorize that approves (or
// refuses) at once with a 302, and a /token endpoint checking PKCE and refresh tokens.
type fakeAS struct {
	srv *httptest.Server

	mu        sync.Mutex
	refuse    bool              // /authorize answers error=access_denied
	expiresIn int               // expires_in of issued tokens (0: none)
	codes     map[string]string // code → S256 challenge
	access    map[string]bool   // valid access tokens
	refresh   map[string]bool   // valid refresh tokens
	n         int
	counts    map[string]int // requests by path
	grants    []string       // grant_type of each /token request
}

func newFakeAS(t *testing.T) *fakeAS {
	f := &fakeAS{codes: map[string]string{}, access: map[string]bool{}, refresh: map[string]bool{}, counts: map[string]int{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAS) url() string { return f.srv.URL }

func (f *fakeAS) count(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts[path]
}

func (f *fakeAS) newToken(prefix string) string {
	f.n++
	return fmt.Sprintf("%s-%d-secretvalue", prefix, f.n)
}

func (f *fakeAS) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.counts[r.URL.Path]++
	base := f.srv.URL
	writeJSON := func(code int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(v)
	}
	switch r.URL.Path {
	case "/mcp":
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !f.access[tok] {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, "ok")
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
		if f.refuse {
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
		if f.expiresIn > 0 {
			res["expires_in"] = f.expiresIn
		}
		writeJSON(200, res)
	default:
		http.NotFound(w, r)
	}
}

// revokeAll makes every issued token invalid.
func (f *fakeAS) revokeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.access)
	clear(f.refresh)
}
