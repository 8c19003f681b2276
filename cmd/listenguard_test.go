package cmd

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// guardProbe is one request sent to a listener of mock --listen or the HTTP tap.
type guardProbe struct {
	name   string
	target string // appended to the listener's base URL (http://127.0.0.1:PORT/mcp)
	header map[string]string
	want   int
	body   string // what the answer's body must hold
}

// probe sends a JSON-RPC ping to base+p.target with p's headers ("Host" sets the Host).
func probe(t *testing.T, base string, p guardProbe) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+p.target, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range p.header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// splitServed splits the URL a listener prints into its base and its token.
func splitServed(t *testing.T, served string) (base, token string) {
	t.Helper()
	u, err := url.Parse(served)
	if err != nil {
		t.Fatal(err)
	}
	token = u.Query().Get("token")
	u.RawQuery = ""
	return u.String(), token
}

// guardProbes are the requests every listener must answer alike: a foreign Host or Origin
// 403, no token or a wrong one 401, the token as a header, a bearer or ?token= served.
func guardProbes(base, token string) []guardProbe {
	u, _ := url.Parse(base)
	return []guardProbe{
		{"foreign Host (DNS rebinding)", "?token=" + token, map[string]string{"Host": "evil.example:" + u.Port()}, 403, `the Host header "evil.example:` + u.Port() + `"`},
		{"foreign Origin", "?token=" + token, map[string]string{"Origin": "http://evil.example"}, 403, `the Origin header "http://evil.example"`},
		{"no token", "", nil, 401, "no mcp-inspect token"},
		{"wrong token", "?token=x" + token, nil, 401, "does not match"},
		{"wrong token header", "", map[string]string{"Mcp-Inspect-Token": "nope"}, 401, "does not match"},
		{"token header", "", map[string]string{"Mcp-Inspect-Token": token, "Origin": "http://localhost:" + u.Port()}, 200, ""},
		{"token as bearer", "", map[string]string{"Authorization": "Bearer " + token}, 200, ""},
		{"token in the query", "?token=" + token, nil, 200, ""},
	}
}

// TestMockListenGuard: mock --listen refuses a foreign Host or Origin (403) and a request
// without the run's token (401), serves one with it, keeps the URL with the token in
// mocks/NAME/url (0600) while it runs, and with --no-token serves without one.
func TestMockListenGuard(t *testing.T) {
	bin := testservers.BuildInspector(t)
	dir := t.TempDir()
	tr := filepath.Join(dir, "demo.jsonl")
	wantCode(t, inspect(t, nil, "tools", "--record", tr, "--", bin, demoServerCmd), 0)
	state := t.TempDir()
	env := append(os.Environ(), "XDG_STATE_HOME="+state)
	served := startServingEnv(t, env, "mock", tr, "--listen", "127.0.0.1:0")
	base, token := splitServed(t, served)
	if len(token) < 20 {
		t.Fatalf("mock serves %q: no token", served)
	}
	for _, p := range guardProbes(base, token) {
		code, body := probe(t, base, p)
		if code != p.want || !strings.Contains(body, p.body) || p.want != 200 && strings.Contains(body, token) {
			t.Errorf("%s: %d %q, want %d with %q", p.name, code, body, p.want, p.body)
		}
	}
	file := filepath.Join(state, "mcp-inspect", "mocks", "demo", "url")
	b, err := os.ReadFile(file)
	if err != nil || strings.TrimSpace(string(b)) != served {
		t.Errorf("%s: %q %v, want %q", file, b, err, served)
	}
	if st, err := os.Stat(file); err == nil && runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("%s: mode %v", file, st.Mode())
	}
	// mcp-inspect itself as the client, with the URL printed.
	if r := inspect(t, nil, "tools", served); r.code != 0 || !strings.Contains(r.stdout, "echo(") {
		t.Errorf("tools through the mock with the token: %d %q %q", r.code, r.stdout, r.stderr)
	}

	open := startServingEnv(t, env, "mock", tr, "--listen", "127.0.0.1:0", "--no-token")
	if strings.Contains(open, "token=") {
		t.Errorf("--no-token serves %q", open)
	}
	if code, body := probe(t, open, guardProbe{name: "no token"}); code != 200 {
		t.Errorf("--no-token, no token: %d %q", code, body)
	}
	if code, _ := probe(t, open, guardProbe{name: "foreign Host", header: map[string]string{"Host": "evil.example"}}); code != 403 {
		t.Errorf("--no-token, foreign Host: %d", code)
	}
	if r := inspect(t, nil, "mock", tr, "--no-token"); r.code != 2 || !strings.Contains(r.stderr, "--no-token goes with --listen") {
		t.Errorf("--no-token on stdio: %d %q", r.code, r.stderr)
	}
}

// TestTapListenGuard: the HTTP tap answers a foreign Host or Origin 403 and a request
// without the run's token 401 without contacting the upstream, notes each refusal in its
// trace, takes its token out of what it forwards (the host's own Authorization passes),
// never records the token, and with --no-token forwards without one.
func TestTapListenGuard(t *testing.T) {
	type got struct{ host, query, auth, tokenHeader string }
	var mu sync.Mutex
	var seen []got
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, got{r.Host, r.URL.RawQuery, r.Header.Get("Authorization"), r.Header.Get("Mcp-Inspect-Token")})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer up.Close()
	seenNow := func() []got { mu.Lock(); defer mu.Unlock(); return append([]got(nil), seen...) }
	env := tapEnv(t)
	tr := filepath.Join(t.TempDir(), "tap.jsonl")
	served := startServingEnv(t, env, "tap", "--listen", "127.0.0.1:0", "--upstream", up.URL+"/mcp", "--record", tr, "--name", "guarded")
	base, token := splitServed(t, served)
	if len(token) < 20 || !strings.HasSuffix(base, "/mcp") {
		t.Fatalf("tap serves %q", served)
	}
	forwarded := 0
	for _, p := range guardProbes(base, token) {
		before := len(seenNow())
		code, body := probe(t, base, p)
		if code != p.want || !strings.Contains(body, p.body) {
			t.Errorf("%s: %d %q, want %d with %q", p.name, code, body, p.want, p.body)
		}
		after := seenNow()
		switch {
		case p.want != 200 && len(after) != before:
			t.Errorf("%s: refused, yet the upstream got it: %+v", p.name, after[before:])
		case p.want == 200 && len(after) == before+1:
			forwarded++
			if g := after[before]; strings.Contains(g.query, "token") || g.tokenHeader != "" || g.auth != "" || g.host != strings.TrimPrefix(up.URL, "http://") {
				t.Errorf("%s reached the upstream as %+v", p.name, g)
			}
		case p.want == 200:
			t.Errorf("%s: served, but the upstream got %d requests", p.name, len(after)-before)
		}
	}
	// The host's own credentials for the upstream pass untouched beside the tap's token.
	if code, _ := probe(t, base, guardProbe{target: "?token=" + token + "&k=v", header: map[string]string{"Authorization": "Bearer upstream-cred"}}); code != 200 {
		t.Errorf("token and the host's own bearer: %d", code)
	}
	if s := seenNow(); s[len(s)-1].auth != "Bearer upstream-cred" || s[len(s)-1].query != "k=v" {
		t.Errorf("the host's own bearer and query reached the upstream as %+v", s[len(s)-1])
	}
	file := filepath.Join(stateDirOf(env), "mcp-inspect", "taps", "guarded", "url")
	if b, err := os.ReadFile(file); err != nil || strings.TrimSpace(string(b)) != served {
		t.Errorf("%s: %q %v", file, b, err)
	}
	var trace string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(tr)
		if trace = string(b); strings.Count(trace, `"dir":"http>"`) >= forwarded+1 && strings.Contains(trace, "does not match") {
			break
		}
	}
	if strings.Contains(trace, token) {
		t.Error("the tap's trace holds the token")
	}
	for _, want := range []string{`refused POST /mcp with 403: the Host header \"evil.example:`, `refused POST /mcp with 403: the Origin header \"http://evil.example\"`,
		`refused POST /mcp with 401: no mcp-inspect token`, `POST /mcp?k=v HTTP/1.1`} {
		if !strings.Contains(strings.ReplaceAll(trace, `\u0026`, "&"), want) {
			t.Errorf("the tap's trace lacks %s:\n%s", want, trace)
		}
	}

	open := startServingEnv(t, env, "tap", "--listen", "127.0.0.1:0", "--upstream", up.URL+"/mcp", "--no-save", "--no-token", "--name", "open")
	if strings.Contains(open, "token=") {
		t.Errorf("--no-token serves %q", open)
	}
	if code, _ := probe(t, open, guardProbe{}); code != 200 {
		t.Errorf("--no-token, no token: %d", code)
	}
	n := len(seenNow())
	if code, _ := probe(t, open, guardProbe{header: map[string]string{"Host": "evil.example"}}); code != 403 || len(seenNow()) != n {
		t.Errorf("--no-token, foreign Host: %d, forwarded %d", code, len(seenNow())-n)
	}
}

// stateDirOf is the XDG_STATE_HOME of env.
func stateDirOf(env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "XDG_STATE_HOME="); ok {
			return v
		}
	}
	return ""
}
