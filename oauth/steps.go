package oauth

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/httpauth"
)

// The authorization as a list of steps on the wire (MCP 2025-11-25 basic/authorization):
// the challenge, the protected-resource metadata (RFC 9728), the authorization-server
// metadata (RFC 8414, or OpenID Connect discovery), the client registration (RFC 7591), the
// browser, the token request, and the retried request. Each step is a lifecycle note saying
// what the request was for, its URL and status, and what the answer says; never a secret
// (no code, verifier, token or client secret is written).

// StepNote starts every step note, so a UI or a reader of the trace can pick them out.
const StepNote = "OAuth step "

// beginSteps opens the step list of an authorization with its challenge: the request that
// got a 401 (or 403 insufficient_scope) and its WWW-Authenticate, parsed.
func (a *Authorizer) beginSteps(req *http.Request, resp *http.Response) {
	a.mu.Lock()
	a.steps = 0
	a.mu.Unlock()
	cs, warnings := httpauth.Parse(resp.Header.Values("WWW-Authenticate"))
	var parts []string
	for _, c := range cs {
		var ps []string
		for _, p := range c.Params {
			ps = append(ps, p.Name+"="+p.Value)
		}
		parts = append(parts, strings.TrimSpace(c.Scheme+" "+strings.Join(ps, ", ")))
	}
	what := "no WWW-Authenticate"
	if len(parts) > 0 {
		what = "WWW-Authenticate: " + strings.Join(parts, "; ")
	}
	if len(warnings) > 0 {
		what += " (" + strings.Join(warnings, "; ") + ")"
	}
	a.step("challenge: %s %s → %s; %s", req.Method, req.URL.Redacted(), resp.Status, what)
}

// step writes the next step note on the wire (not through Config.Notify: these say what
// happened, not what the user must do).
func (a *Authorizer) step(format string, args ...any) {
	a.mu.Lock()
	a.steps++
	n := a.steps
	wire := a.wire
	a.mu.Unlock()
	if wire != nil {
		wire(fmt.Sprintf("%s%d: ", StepNote, n) + fmt.Sprintf(format, args...))
	}
}

// stepOf says one of the authorization's own requests as a step: what it was for, its URL,
// its status and the answer's parts that matter.
func (a *Authorizer) stepOf(req *http.Request, resp *http.Response, body []byte) {
	what, summary := classify(req, resp, body)
	if a.metaKind(req.URL) == "prm" && what == "authorization request" {
		what, summary = classify(&http.Request{Method: req.Method, URL: &url.URL{Path: "/.well-known/oauth-protected-resource"}, Header: req.Header}, resp, body)
		what += " from the challenge"
	}
	a.step("%s: %s %s → %s%s", what, req.Method, req.URL.Redacted(), resp.Status, summary)
}

// classify names an authorization request by what it asks for and sums up its answer.
func classify(req *http.Request, resp *http.Response, body []byte) (what, summary string) {
	path := req.URL.Path
	var m map[string]json.RawMessage
	isJSON := json.Unmarshal(body, &m) == nil
	notJSON := ""
	if !isJSON {
		notJSON = fmt.Sprintf("; not JSON (Content-Type %q): not usable as metadata", resp.Header.Get("Content-Type"))
	}
	switch {
	case strings.Contains(path, "/.well-known/oauth-protected-resource"):
		return "protected-resource metadata (RFC 9728)", notJSON + fields(m, "resource", "authorization_servers", "scopes_supported")
	case strings.Contains(path, "/.well-known/oauth-authorization-server"):
		return "authorization-server metadata (RFC 8414)", notJSON + fields(m, "issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint")
	case strings.Contains(path, "/.well-known/openid-configuration"):
		return "OpenID Connect discovery", notJSON + fields(m, "issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint")
	}
	if req.Method == http.MethodPost {
		form := requestForm(req)
		if gt := form.Get("grant_type"); gt != "" {
			return "token request (grant_type " + gt + ")", fields(m, "token_type", "expires_in", "scope", "error", "error_description")
		}
		if strings.Contains(req.Header.Get("Content-Type"), "json") {
			return "client registration (RFC 7591)", fields(m, "client_id", "error", "error_description")
		}
	}
	return "authorization request", ""
}

// requestForm reads a form-encoded request body again (the request kept a way to, as
// requests with a body from memory do); empty when it cannot.
func requestForm(req *http.Request) url.Values {
	if req.GetBody == nil || !strings.Contains(req.Header.Get("Content-Type"), "x-www-form-urlencoded") {
		return url.Values{}
	}
	rc, err := req.GetBody()
	if err != nil {
		return url.Values{}
	}
	defer rc.Close()
	b, _ := io.ReadAll(io.LimitReader(rc, 64<<10))
	v, _ := url.ParseQuery(string(b))
	return v
}

// fields lists the named members of a JSON object that are present ("; issuer=…"), values
// shortened; none for a missing object.
func fields(m map[string]json.RawMessage, names ...string) string {
	var out []string
	for _, n := range names {
		raw, ok := m[n]
		if !ok {
			continue
		}
		v := string(raw)
		var s string
		if json.Unmarshal(raw, &s) == nil {
			v = s
		}
		if len(v) > 120 {
			v = v[:120] + "…"
		}
		out = append(out, n+"="+v)
	}
	if len(out) == 0 {
		return ""
	}
	return "; " + strings.Join(out, ", ")
}
