package mcpclient

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Redirects of the Streamable HTTP transport. net/http would follow a 301, 302 or 303 that
// answers a POST with a GET, which cannot carry a JSON-RPC message, and would send the
// user's credentials wherever a redirect points; so the client follows redirects itself
// (RFC 9110 §15.4): 307 and 308 with the same method and body, 301/302/303 only for a GET,
// never more than maxRedirects hops or around a loop, and credentials only to the origin
// they were given for. Every hop is a request and a response on the wire.

// RedirectNote starts the lifecycle notes of redirects (one followed, credentials held
// back): headless commands show them as warnings, as they change where requests go.
const RedirectNote = "HTTP redirect: "

// maxRedirects caps the redirects one HTTP request follows.
const maxRedirects = 10

// RedirectError is a redirect the client did not follow: a 301, 302 or 303 answering a POST
// or DELETE (following would turn it into a GET), a loop, or more than maxRedirects hops.
type RedirectError struct {
	// Method and URL of the request that was redirected; Status its answer's status line.
	Method, URL string
	StatusCode  int
	Status      string
	// Location is where the server pointed (resolved against URL).
	Location string
	// Hops are the URLs visited, first to last, when the chain was a loop or too long.
	Hops []string
}

func (e *RedirectError) Error() string {
	if len(e.Hops) > 0 {
		what := "a redirect loop"
		if !slices.Contains(e.Hops[:len(e.Hops)-1], e.Hops[len(e.Hops)-1]) {
			what = fmt.Sprintf("more than %d redirects", maxRedirects)
		}
		return fmt.Sprintf("%s %s: %s (%s); mcp-inspect stopped following: fix the server's or the proxy's redirects, or connect to the final URL", e.Method, e.URL, what, strings.Join(e.Hops, " → "))
	}
	return fmt.Sprintf("%s %s: HTTP %s, Location: %s: a %d turns a %s into a GET, which cannot carry a JSON-RPC message, so mcp-inspect did not follow it; if %s is the MCP endpoint, connect to it instead",
		e.Method, e.URL, e.Status, e.Location, e.StatusCode, e.Method, e.Location)
}

// isRedirect reports whether code asks the client to go elsewhere (RFC 9110 §15.4).
func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// sameOrigin reports whether a and b have the same scheme, host and port (RFC 6454).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// do sends req (whose body, if any, is body) and follows its redirects as the package
// comment says. The response is the last hop's; its body is the caller's to close. A
// redirect not followed is a *RedirectError; the redirect's own response is then closed.
func (t *streamable) do(req *http.Request, body []byte) (*http.Response, error) {
	hc := t.hc
	var hops []string // made at the first redirect: a plain request pays nothing for them
	for {
		resp, err := hc.Do(req)
		if err != nil || !isRedirect(resp.StatusCode) || resp.Header.Get("Location") == "" {
			return resp, err
		}
		if hops == nil {
			hops = []string{req.URL.String()}
		}
		loc, lerr := req.URL.Parse(resp.Header.Get("Location"))
		if lerr != nil {
			return resp, nil // an unusable Location: the status is the answer
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		rerr := &RedirectError{Method: req.Method, URL: req.URL.String(), StatusCode: resp.StatusCode, Status: resp.Status, Location: loc.String()}
		keep := resp.StatusCode == http.StatusTemporaryRedirect || resp.StatusCode == http.StatusPermanentRedirect
		if !keep && req.Method != http.MethodGet {
			return nil, rerr
		}
		if slices.Contains(hops, loc.String()) || len(hops) > maxRedirects {
			rerr.Hops = append(hops, loc.String())
			return nil, rerr
		}
		hops = append(hops, loc.String())
		next, err := http.NewRequestWithContext(carryOn(req, loc.String()), req.Method, loc.String(), bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		next.Header = req.Header.Clone()
		if !sameOrigin(req.URL, loc) {
			// Credentials stay with the origin they were given for: the user's headers,
			// cookies, and the authorization layer (hc without it).
			held := t.holdCredentials(next.Header)
			hc = t.bareClient()
			if len(held) > 0 {
				t.c.note(fmt.Sprintf(RedirectNote+"to another origin (%s): %s held back, not sent there", loc.Host, strings.Join(held, ", ")))
			}
		}
		t.noteRedirect(req.Method, req.URL.String(), resp.Status, loc.String(), keep)
		req = next
	}
}

// holdCredentials removes from h what carries credentials: Authorization, Cookie,
// Proxy-Authorization and every header the user gave (-H: an API key header has any
// name). It returns the names removed.
func (t *streamable) holdCredentials(h http.Header) []string {
	var held []string
	drop := func(name string) {
		if _, ok := h[http.CanonicalHeaderKey(name)]; ok && !slices.Contains(held, http.CanonicalHeaderKey(name)) {
			held = append(held, http.CanonicalHeaderKey(name))
			h.Del(name)
		}
	}
	for _, k := range []string{"Authorization", "Cookie", "Proxy-Authorization"} {
		drop(k)
	}
	for k := range t.header {
		if !strings.EqualFold(k, "User-Agent") {
			drop(k)
		}
	}
	if t.c.cfg.WrapTransport != nil {
		held = append(held, "the authorization layer's token")
	}
	return held
}

// bareClient is an HTTP client over the recording transport alone (no authorization
// layer), for hops to another origin.
func (t *streamable) bareClient() *http.Client {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.bare == nil {
		t.bare = &http.Client{Transport: &recordingTransport{c: t.c, next: newTapTransport()},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	return t.bare
}

// noteRedirect says once per hop that a redirect was followed, and which URL to use.
func (t *streamable) noteRedirect(method, from, status, to string, keep bool) {
	t.mu.Lock()
	if t.redirects == nil {
		t.redirects = map[string]bool{}
	}
	seen := t.redirects[from+" "+to]
	t.redirects[from+" "+to] = true
	t.mu.Unlock()
	if seen {
		return
	}
	how := "with the same method and body"
	if !keep {
		how = "as a GET"
	}
	t.c.note(fmt.Sprintf(RedirectNote+"%s %s was redirected (%s) to %s: followed %s; use %s as the server URL", method, from, status, to, how, to))
}
