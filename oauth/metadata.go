package oauth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// Metadata as real servers serve it, read before go-sdk's auth reads it (MCP 2025-11-25
// basic/authorization, RFC 9728, RFC 8414). go-sdk drops a protected-resource document that
// fails a check without a word and falls back to guessing, and stops at the first
// authorization-server document that is not JSON; a debugger must say which rule was broken
// and get on where it safely can:
//
//   - a 200 answer that is not a JSON object (an HTML page from a catch-all route) is
//     skipped with its reason, and go-sdk is told 404 so it tries the next candidate;
//   - a JSON document with another Content-Type (or the header doubled) is read with a
//     warning;
//   - a protected-resource document served only at the root well-known path that names this
//     server as its resource answers for the path-inserted one (authorization-server
//     metadata is never looked for at the root when the issuer has a path: the conformance
//     suite's auth/metadata-var3 checks a client does not);
//   - a challenge giving resource_metadata more than once: each value is tried in order;
//   - a resource (RFC 9728 §3.3) or issuer (RFC 8414 §3.3) that differs from the one
//     expected stops the authorization with both strings (a *MetadataError), unless
//     Config.AcceptResource / AcceptIssuer say to go on, which a step note records.

// MetadataError is metadata whose resource or issuer is not the one the client must expect:
// the authorization stops (a token for another resource or issuer must not be used).
type MetadataError struct {
	// What is the document ("protected-resource metadata"), URL where it was read.
	What, URL string
	// Field is "resource" or "issuer"; Got is the document's value, Want the expected one.
	Field, Got, Want string
	// Rule names the rule; Flag is the option that accepts the document anyway.
	Rule, Flag string
}

func (e *MetadataError) Error() string {
	s := fmt.Sprintf("%s at %s says %s %q, but %q was expected (%s)", e.What, e.URL, e.Field, e.Got, e.Want, e.Rule)
	if strings.TrimSuffix(e.Got, "/") == strings.TrimSuffix(e.Want, "/") {
		s += "; only a trailing slash differs"
	}
	return s + "; fix the server's metadata, or run again with " + e.Flag + " to use it anyway"
}

// metaKind is what u serves: "prm" (a well-known path or the challenge's
// resource_metadata), "asm" or "".
func (a *Authorizer) metaKind(u *url.URL) string {
	a.mu.Lock()
	fromChallenge := a.fromChallenge[u.String()]
	a.mu.Unlock()
	p := u.Path
	switch {
	case fromChallenge:
		return "prm"
	case strings.Contains(p, "/.well-known/oauth-protected-resource"):
		return "prm"
	case strings.Contains(p, "/.well-known/oauth-authorization-server"), strings.Contains(p, "/.well-known/openid-configuration"):
		return "asm"
	}
	return ""
}

// answer is a response read whole: what go-sdk gets, or a probe kept for it.
type answer struct {
	resp *http.Response
	body []byte
}

// withBody returns resp with body as its new body.
func (an answer) withBody() *http.Response {
	an.resp.Body = io.NopCloser(bytes.NewReader(an.body))
	an.resp.ContentLength = int64(len(an.body))
	return an.resp
}

// notFound is the 404 go-sdk is given in place of a document it must skip.
func notFound(req *http.Request) answer {
	h := http.Header{"Content-Type": {"text/plain"}}
	return answer{resp: &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: h, Request: req}}
}

// jsonObject parses body as one JSON object; nil when it is not one.
func jsonObject(body []byte) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return nil
	}
	return m
}

// stringField is m[key] when it is a JSON string, else "" (absent, or another type: either
// fails the comparison it is read for).
func stringField(m map[string]json.RawMessage, key string) string {
	var s string
	json.Unmarshal(m[key], &s)
	return s
}

// review reads an authorization response as go-sdk will and mends, replaces or refuses it
// (see the comment at the top of this file). It may send probes through send.
func (a *Authorizer) review(req *http.Request, an answer, send func(*http.Request) (answer, error)) answer {
	if req.Method == http.MethodPost {
		a.remember(req, an)
		return an
	}
	kind := a.metaKind(req.URL)
	if kind == "" || req.Method != http.MethodGet {
		return an
	}
	m := jsonObject(an.body)
	if an.resp.StatusCode != http.StatusOK || m == nil {
		if an.resp.StatusCode == http.StatusOK {
			a.step("skipped: %s answered 200 with %s, not a JSON metadata document; go-sdk is told 404 so the next candidate is tried", req.URL.Redacted(), contentType(an.resp))
			an = notFound(req)
		}
		if alt, ok := a.alternate(req, kind, send); ok {
			return alt
		}
		return an
	}
	if mt, _, err := mime.ParseMediaType(an.resp.Header.Get("Content-Type")); err != nil || mt != "application/json" || len(an.resp.Header.Values("Content-Type")) > 1 {
		a.step("warning: %s is JSON served as %s; metadata is application/json (RFC 8414 §3.2, RFC 9728 §3.2): read as JSON", req.URL.Redacted(), contentType(an.resp))
		an.resp.Header["Content-Type"] = []string{"application/json"}
	}
	field, want, rule, flag, accept := "issuer", expectedIssuer(req.URL), "RFC 8414 §3.3: the issuer is the URL the metadata was looked up for", "--oauth-accept-issuer", a.cfg.AcceptIssuer
	what := "authorization-server metadata"
	if kind == "prm" {
		field, want, rule, flag, accept = "resource", a.expectedResource(req.URL), "RFC 9728 §3.3: the resource is the server's URL", "--oauth-accept-resource", a.cfg.AcceptResource
		what = "protected-resource metadata"
	}
	got := stringField(m, field)
	if strings.TrimSuffix(got, "/") == strings.TrimSuffix(want, "/") && (kind == "asm" || got == want) {
		return an
	}
	e := &MetadataError{What: what, URL: req.URL.Redacted(), Field: field, Got: got, Want: want, Rule: rule, Flag: flag}
	if !accept {
		a.fail(e)
		a.step("stopped: %v", e)
		return an
	}
	a.step("accepted by %s: %s says %s %q where %q was expected; read as %q", flag, e.What, field, got, want, want)
	m[field], _ = json.Marshal(want)
	an.body, _ = json.Marshal(m)
	return an
}

// contentType names a response's Content-Type for a message, doubled values included.
func contentType(resp *http.Response) string {
	vs := resp.Header.Values("Content-Type")
	if len(vs) == 0 {
		return "no Content-Type"
	}
	return fmt.Sprintf("Content-Type %q", strings.Join(vs, ", "))
}

// expectedResource is the resource a protected-resource document read at u must name, as
// go-sdk checks it: the server's URL, or its origin for the root well-known path.
func (a *Authorizer) expectedResource(u *url.URL) string {
	a.mu.Lock()
	challenged, fromChallenge := a.challenged, a.fromChallenge[u.String()]
	a.mu.Unlock()
	if u.Path == "/.well-known/oauth-protected-resource" && !fromChallenge {
		return u.Scheme + "://" + u.Host
	}
	return challenged
}

// expectedIssuer is the issuer whose metadata URL u is (RFC 8414 §3.1, OpenID Connect
// discovery with the path inserted or appended).
func expectedIssuer(u *url.URL) string {
	origin := u.Scheme + "://" + u.Host
	for _, wk := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		if rest, ok := strings.CutPrefix(u.Path, wk); ok {
			return origin + rest
		}
	}
	if before, ok := strings.CutSuffix(u.Path, "/.well-known/openid-configuration"); ok {
		return origin + before
	}
	return origin
}

// alternate is another place to read the document that failed at req: the next
// resource_metadata value of the challenge, or, for protected-resource metadata, the root
// well-known path. ok is false when none answers with a usable document.
func (a *Authorizer) alternate(req *http.Request, kind string, send func(*http.Request) (answer, error)) (answer, bool) {
	u := req.URL.String()
	a.mu.Lock()
	alts := a.alts[u]
	delete(a.alts, u)
	a.mu.Unlock()
	for i, alt := range alts {
		a.step("the challenge gave resource_metadata %d times; %s did not answer with metadata, so value %d is tried: %s", len(alts)+1, req.URL.Redacted(), i+2, alt)
		an, ok := a.probe(req, alt, send)
		if ok {
			return an, true
		}
	}
	if kind != "prm" || !strings.HasPrefix(req.URL.Path, "/.well-known/oauth-protected-resource/") {
		return answer{}, false
	}
	root := url.URL{Scheme: req.URL.Scheme, Host: req.URL.Host, Path: "/.well-known/oauth-protected-resource"}
	an, err := send(mustGet(req, root.String()))
	if err != nil {
		return answer{}, false
	}
	m := jsonObject(an.body)
	got := stringField(m, "resource")
	if want := a.expectedResource(req.URL); an.resp.StatusCode != http.StatusOK || m == nil || got != want {
		a.keep(root.String(), an) // go-sdk asks for it next: no second request
		return answer{}, false
	}
	a.step("the metadata is served only at the root well-known path %s, naming resource %q: used for %s (the rules put it there)", root.String(), got, req.URL.Redacted())
	an.resp.Header["Content-Type"] = []string{"application/json"}
	return an, true
}

// probe reads alt in place of req and reviews it as if it had been read at req's URL.
func (a *Authorizer) probe(req *http.Request, alt string, send func(*http.Request) (answer, error)) (answer, bool) {
	an, err := send(mustGet(req, alt))
	if err != nil || an.resp.StatusCode != http.StatusOK || jsonObject(an.body) == nil {
		return answer{}, false
	}
	return a.review(req, an, send), true
}

// mustGet is a GET of u with req's context and headers; u comes from a parsed URL.
func mustGet(req *http.Request, u string) *http.Request {
	r, err := http.NewRequestWithContext(req.Context(), http.MethodGet, u, nil)
	if err != nil {
		r = req.Clone(req.Context())
	}
	r.Header = req.Header.Clone()
	return r
}

// keep stores a probe's answer for go-sdk's own request of the same URL.
func (a *Authorizer) keep(u string, an answer) {
	a.mu.Lock()
	a.kept[u] = an
	a.mu.Unlock()
}

// kept returns (and forgets) the answer of an earlier probe of req's URL.
func (a *Authorizer) takeKept(req *http.Request) (answer, bool) {
	if req.Method != http.MethodGet {
		return answer{}, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	an, ok := a.kept[req.URL.String()]
	delete(a.kept, req.URL.String())
	return an, ok
}

// fail records the error that stops the authorization under way; every later request of
// it fails with the error, and authorize returns it.
func (a *Authorizer) fail(err error) {
	a.mu.Lock()
	if a.stop == nil {
		a.stop = err
	}
	a.mu.Unlock()
}

func (a *Authorizer) stopped() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stop
}
