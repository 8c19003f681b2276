package oauth

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/httpauth"
)

// The challenge as go-sdk gets it, step-up accounting and client reuse (MCP 2025-11-25
// basic/authorization, "Step-Up Authorization Flow"; RFC 6750 §3.1; RFC 7591).

// forSDK returns the challenged response as go-sdk's parser can read it: each challenge
// written again from our lenient parse (RFC 9110 §11.6.1 quoted-strings; a single-quoted
// value read without its quotes; a parameter given twice written once, with its first
// value). The later values of a doubled resource_metadata are kept, to be tried in order
// when the first gives no metadata. It also notes the URL go-sdk checks resources against.
func (a *Authorizer) forSDK(req *http.Request, resp *http.Response) *http.Response {
	cs, _ := httpauth.Parse(resp.Header.Values("WWW-Authenticate"))
	var values []string
	alts := map[string][]string{}
	from := map[string]bool{}
	for _, c := range cs {
		var ps []string
		seen := map[string]bool{}
		var first string
		for _, p := range c.Params {
			name := strings.ToLower(p.Name)
			if name == "resource_metadata" {
				from[p.Value] = true
				if first == "" {
					first = p.Value
				} else {
					alts[first] = append(alts[first], p.Value)
				}
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			ps = append(ps, p.Name+"="+quote(p.Value))
		}
		values = append(values, strings.TrimSpace(c.Scheme+" "+strings.Join(ps, ", ")))
	}
	a.mu.Lock()
	a.challenged, a.fromChallenge, a.alts, a.kept, a.stop = req.URL.String(), from, alts, map[string]answer{}, nil
	a.mu.Unlock()
	out := *resp
	out.Header = resp.Header.Clone()
	if len(values) > 0 {
		out.Header["Www-Authenticate"] = values
	}
	return &out
}

// quote writes v as an RFC 9110 quoted-string.
func quote(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

// scopeAsked is the scope a 403 insufficient_scope challenge asks for ("" when none).
func scopeAsked(resp *http.Response) string {
	cs, _ := httpauth.Parse(resp.Header.Values("WWW-Authenticate"))
	for _, c := range cs {
		if c.Get("error") == "insufficient_scope" {
			return c.Get("scope")
		}
	}
	return ""
}

// grantedScope is the scope the last token was granted: the token response's scope, else
// the scope asked for (RFC 6749 §5.1); "" when nothing was asked.
func (a *Authorizer) grantedScope() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.granted
}

// remember keeps what the authorization's POST answers say for later: a client
// registration (reused by the next authorization, as a step-up is) and the granted scope.
func (a *Authorizer) remember(req *http.Request, an answer) {
	if an.resp.StatusCode/100 != 2 {
		return
	}
	if gt := requestForm(req).Get("grant_type"); gt != "" {
		var tok struct {
			Scope *string `json:"scope"`
		}
		if json.Unmarshal(an.body, &tok) == nil && tok.Scope != nil {
			a.mu.Lock()
			a.granted = *tok.Scope
			a.mu.Unlock()
		}
		return
	}
	if strings.Contains(req.Header.Get("Content-Type"), "json") {
		a.mu.Lock()
		a.registered[req.URL.String()] = an
		a.mu.Unlock()
	}
}

// reusedRegistration answers a second registration at the same endpoint with the client
// registered before, so a step-up does not register a new client each time.
func (a *Authorizer) reusedRegistration(req *http.Request) (*http.Response, bool) {
	if req.Method != http.MethodPost || !strings.Contains(req.Header.Get("Content-Type"), "json") {
		return nil, false
	}
	a.mu.Lock()
	an, ok := a.registered[req.URL.String()]
	a.mu.Unlock()
	if !ok {
		return nil, false
	}
	if req.Body != nil {
		io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	var reg struct {
		ClientID string `json:"client_id"`
	}
	json.Unmarshal(an.body, &reg)
	a.step("client registration (RFC 7591): the client registered earlier at %s is reused (client_id=%s); not sent again", req.URL.Redacted(), reg.ClientID)
	resp := *an.resp
	resp.Header = an.resp.Header.Clone()
	resp.Body = io.NopCloser(bytes.NewReader(an.body))
	resp.Request = req
	return &resp, true
}

// askedScope notes the scope an authorization URL asks for, the granted scope until the
// token response says otherwise.
func (a *Authorizer) askedScope(authURL *url.URL) {
	a.mu.Lock()
	a.granted = authURL.Query().Get("scope")
	a.mu.Unlock()
}
