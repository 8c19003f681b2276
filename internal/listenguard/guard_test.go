package listenguard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func mustNew(t *testing.T, o Options) *Guard {
	t.Helper()
	g, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestCheckHostOrigin: a loopback listener accepts its address and localhost, 127.0.0.1
// and [::1] on its port, in any case; an Origin only on those, http or https; anything
// else is 403 naming the header and what is accepted.
func TestCheckHostOrigin(t *testing.T) {
	g := mustNew(t, Options{Who: "mcp-inspect mock", Addr: "127.0.0.1:8931"})
	for _, c := range []struct {
		host, origin string
		ok           bool
	}{
		{"127.0.0.1:8931", "", true},
		{"LOCALHOST:8931", "", true},
		{"[::1]:8931", "", true},
		{"localhost:8931", "http://localhost:8931", true},
		{"localhost:8931", "https://[::1]:8931", true},
		{"localhost:8931", "HTTP://127.0.0.1:8931", true},
		{"evil.example:8931", "", false},
		{"evil.example", "", false},
		{"127.0.0.1", "", false}, // port 80
		{"127.0.0.1:8932", "", false},
		{"127.0.0.1:8931@evil.example", "", false},
		{"", "", false},
		{"127.0.0.1:8931", "http://evil.example", false},
		{"127.0.0.1:8931", "http://127.0.0.1:8932", false},
		{"127.0.0.1:8931", "http://127.0.0.1", false},
		{"127.0.0.1:8931", "null", false},
		{"127.0.0.1:8931", "file://127.0.0.1:8931", false},
		{"127.0.0.1:8931", "http://127.0.0.1:8931/path", false},
		{"127.0.0.1:8931", "http://user@127.0.0.1:8931", false},
	} {
		r := &Request{Host: c.host}
		if c.origin != "" {
			r.Origin = []string{c.origin}
		}
		ref := g.Check(r)
		switch {
		case c.ok && ref != nil:
			t.Errorf("Host %q Origin %q refused: %s", c.host, c.origin, ref.Body)
		case !c.ok && ref == nil:
			t.Errorf("Host %q Origin %q accepted", c.host, c.origin)
		case !c.ok && (ref.Status != http.StatusForbidden || !strings.HasPrefix(ref.Body, "mcp-inspect mock: refused: the ") ||
			!strings.Contains(ref.Body, "accepted: ") || !strings.Contains(ref.Body, "localhost:8931")):
			t.Errorf("Host %q Origin %q: %d %q", c.host, c.origin, ref.Status, ref.Body)
		}
	}
	if ref := g.Check(&Request{Host: "127.0.0.1:8931", Origin: []string{"http://127.0.0.1:8931", "http://evil.example"}}); ref == nil {
		t.Error("two Origin headers accepted")
	}
	// A listener on another loopback address takes its own address and the usual names.
	g2 := mustNew(t, Options{Addr: "[::1]:80"})
	for _, h := range []string{"[::1]", "[::1]:80", "localhost", "127.0.0.1:80"} {
		if ref := g2.Check(&Request{Host: h}); ref != nil {
			t.Errorf("[::1]:80: Host %q refused: %s", h, ref.Body)
		}
	}
}

// TestCheckToken: with a token, the header, a bearer or the query parameter holding it is
// served; no token or another one is 401, whose body says how to send it and never holds
// it.
func TestCheckToken(t *testing.T) {
	const tok = "T0KEN"
	g := mustNew(t, Options{Addr: "127.0.0.1:1", Token: tok, TokenFile: "/state/taps/x/url"})
	base := Request{Host: "127.0.0.1:1"}
	ok := []Request{
		{Token: []string{tok}},
		{Token: []string{"nope", tok}},
		{Authorization: []string{"Bearer " + tok}},
		{Authorization: []string{"bearer  " + tok}},
		{RawQuery: "a=1&token=" + tok},
		{RawQuery: "token=other&token=" + tok},
		{Authorization: []string{"Bearer upstream"}, RawQuery: "token=" + tok},
	}
	for _, r := range ok {
		r.Host = base.Host
		if ref := g.Check(&r); ref != nil {
			t.Errorf("%+v refused: %s", r, ref.Body)
		}
	}
	for _, c := range []struct {
		r   Request
		why string
	}{
		{Request{}, "no mcp-inspect token"},
		{Request{Authorization: []string{"Bearer upstream"}}, "no mcp-inspect token"},
		{Request{Token: []string{"nope"}}, "does not match"},
		{Request{RawQuery: "token=" + tok + "x"}, "does not match"},
		{Request{Token: []string{strings.ToLower(tok)}}, "does not match"},
	} {
		c.r.Host = base.Host
		ref := g.Check(&c.r)
		if ref == nil {
			t.Errorf("%+v accepted", c.r)
			continue
		}
		if ref.Status != http.StatusUnauthorized || !strings.Contains(ref.Body, c.why) || !strings.Contains(ref.Body, "Mcp-Inspect-Token: TOKEN") ||
			!strings.Contains(ref.Body, "?token=TOKEN") || !strings.Contains(ref.Body, "/state/taps/x/url") || strings.Contains(ref.Body, tok) {
			t.Errorf("%+v: %d %q", c.r, ref.Status, ref.Body)
		}
	}
	// Host and Origin come first: a foreign page with the token is still refused.
	if ref := g.Check(&Request{Host: "evil.example:1", Token: []string{tok}}); ref == nil || ref.Status != http.StatusForbidden {
		t.Errorf("foreign Host with the token: %+v", ref)
	}
	if ref := mustNew(t, Options{Addr: "127.0.0.1:1"}).Check(&Request{Host: "127.0.0.1:1"}); ref != nil {
		t.Errorf("no token asked for, refused: %s", ref.Body)
	}
}

func TestStripQuery(t *testing.T) {
	g := mustNew(t, Options{Addr: "127.0.0.1:1", Token: "a/b"})
	for in, want := range map[string]string{
		"token=a%2Fb":             "",
		"x=1&token=a%2Fb&y=2":     "x=1&y=2",
		"token=other&token=a%2Fb": "token=other",
		"token=other":             "token=other",
		"mytoken=a%2Fb":           "mytoken=a%2Fb",
		"":                        "",
	} {
		if got, _ := g.StripQuery(in); got != want {
			t.Errorf("StripQuery(%q) = %q, want %q", in, got, want)
		}
	}
	if got := g.URL("http://127.0.0.1:1/mcp"); got != "http://127.0.0.1:1/mcp?token=a%2Fb" {
		t.Errorf("URL: %s", got)
	}
}

// TestHandler: the middleware answers refusals as plain text (401 with a challenge that
// is not Bearer, so no OAuth starts) and hands accepted requests on without the token.
func TestHandler(t *testing.T) {
	var seen *http.Request
	var refusals []int
	srv := httptest.NewServer(nil)
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	g := mustNew(t, Options{Who: "mcp-inspect mock", Addr: addr, Token: "tok"})
	srv.Config.Handler = g.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r
		io.WriteString(w, "served")
	}), func(_ *http.Request, ref *Refusal) { refusals = append(refusals, ref.Status) })
	do := func(target string, h map[string]string) (int, string, http.Header) {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+target, strings.NewReader("{}"))
		for k, v := range h {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	if code, body, _ := do("/mcp?token=tok", map[string]string{"Host": "evil.example"}); code != 403 || !strings.Contains(body, `the Host header "evil.example"`) {
		t.Errorf("foreign Host: %d %q", code, body)
	}
	if code, body, _ := do("/mcp?token=tok", map[string]string{"Origin": "http://evil.example"}); code != 403 || !strings.Contains(body, `the Origin header "http://evil.example"`) {
		t.Errorf("foreign Origin: %d %q", code, body)
	}
	code, body, h := do("/mcp", nil)
	if code != 401 || h.Get("WWW-Authenticate") != `Mcp-Inspect-Token realm="mcp-inspect"` || h.Get("Content-Type") != "text/plain; charset=utf-8" || !strings.Contains(body, "no mcp-inspect token") {
		t.Errorf("no token: %d %q %v", code, body, h)
	}
	if seen != nil {
		t.Fatalf("a refused request was served: %v", seen.URL)
	}
	if code, body, _ := do("/mcp?a=1&token=tok", nil); code != 200 || body != "served" || seen.URL.RawQuery != "a=1" || seen.RequestURI != "/mcp?a=1" {
		t.Errorf("query token: %d %q, served %q", code, body, seen.RequestURI)
	}
	if code, _, _ := do("/mcp", map[string]string{TokenHeader: "tok", "Origin": "http://" + addr}); code != 200 || seen.Header.Get(TokenHeader) != "" {
		t.Errorf("header token: %d, served with %v", code, seen.Header)
	}
	if code, _, _ := do("/mcp", map[string]string{"Authorization": "Bearer tok"}); code != 200 || seen.Header.Get("Authorization") != "" {
		t.Errorf("bearer token: %d, served with %v", code, seen.Header)
	}
	if len(refusals) != 3 {
		t.Errorf("refusals told: %v", refusals)
	}
}
