package oauth

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fakeas"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// hops records the requests that went through the inner transport ("METHOD /path").
type hops struct {
	mu   sync.Mutex
	list []string
	next http.RoundTripper
}

func (h *hops) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	h.list = append(h.list, r.Method+" "+r.URL.Path)
	h.mu.Unlock()
	return h.next.RoundTrip(r)
}

func (h *hops) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.list, ", ")
}

// follower is a fake browser: it GETs the authorization URL and follows the 302 to the
// loopback callback.
func follower(ctx context.Context, u string) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

func newClient(t *testing.T, cfg Config) (*http.Client, *hops, *Authorizer) {
	t.Helper()
	h := &hops{next: http.DefaultTransport}
	a := New(cfg)
	t.Cleanup(func() { a.Close() })
	return &http.Client{Transport: a.Wrap(h)}, h, a
}

func get(t *testing.T, c *http.Client, u string) (int, error) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

func TestFullAuthorization(t *testing.T) {
	as := fakeas.New(t)
	dir := filepath.Join(t.TempDir(), "tokens")
	var notes []string
	c, h, _ := newClient(t, Config{ServerURL: as.URL() + "/mcp", Open: follower, StoreDir: dir, Notify: func(m string) { notes = append(notes, m) }})
	code, err := get(t, c, as.URL()+"/mcp")
	if err != nil || code != 200 {
		t.Fatalf("GET /mcp = %d, %v; hops: %s", code, err, h)
	}
	// Every hop of the authorization went through the inner (recorded) transport.
	want := "GET /mcp, GET /.well-known/oauth-protected-resource/mcp, GET /.well-known/oauth-authorization-server, POST /register, POST /token, GET /mcp"
	if got := h.String(); got != want {
		t.Errorf("hops:\n got %s\nwant %s", got, want)
	}
	if len(notes) == 0 || !strings.Contains(notes[0], as.URL()+"/authorize?") {
		t.Errorf("the authorization URL was not shown: %q", notes)
	}
	f := TokenFile(dir, as.URL()+"/mcp", "")
	st, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", st.Mode().Perm())
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("token dir mode %v, want 0700", st.Mode().Perm())
	}
	// A new process (a new Authorizer) uses the stored token: no new authorization.
	c2, h2, _ := newClient(t, Config{ServerURL: as.URL() + "/mcp", Open: follower, StoreDir: dir})
	if code, err := get(t, c2, as.URL()+"/mcp"); err != nil || code != 200 {
		t.Fatalf("second process: %d, %v", code, err)
	}
	if got := h2.String(); got != "GET /mcp" {
		t.Errorf("second process hops: %s", got)
	}
}

func TestBrowserEnv(t *testing.T) {
	as := fakeas.New(t)
	t.Setenv("BROWSER", testservers.FakeBrowser(t))
	c, h, _ := newClient(t, Config{ServerURL: as.URL() + "/mcp", CallbackTimeout: 20 * time.Second})
	if code, err := get(t, c, as.URL()+"/mcp"); err != nil || code != 200 {
		t.Fatalf("GET /mcp = %d, %v; hops: %s", code, err, h)
	}
}

func TestRefusedConsent(t *testing.T) {
	as := fakeas.New(t)
	as.Refuse = true
	c, _, _ := newClient(t, Config{ServerURL: as.URL() + "/mcp", Open: follower})
	_, err := get(t, c, as.URL()+"/mcp")
	var refused *RefusedError
	if !errors.As(err, &refused) || refused.Code != "access_denied" || !strings.Contains(err.Error(), "the user said no") {
		t.Fatalf("err = %v, want a RefusedError access_denied", err)
	}
	if as.Count("/token") != 0 {
		t.Error("a refused authorization reached /token")
	}
}

func TestExpiredTokenRefreshed(t *testing.T) {
	as := fakeas.New(t)
	as.ExpiresIn = 1 // x/oauth2 refreshes 10 s before expiry: every use refreshes
	dir := t.TempDir()
	c, _, _ := newClient(t, Config{ServerURL: as.URL() + "/mcp", Open: follower, StoreDir: dir})
	for i := range 2 {
		if code, err := get(t, c, as.URL()+"/mcp"); err != nil || code != 200 {
			t.Fatalf("request %d: %d, %v", i, code, err)
		}
	}
	if as.Count("/authorize") != 1 {
		t.Errorf("authorizations = %d, want 1", as.Count("/authorize"))
	}
	if got := strings.Join(as.Grants(), ","); !strings.HasPrefix(got, "authorization_code,refresh_token") {
		t.Errorf("token grants = %s, want a refresh after the code", got)
	}
	// The refreshed token was written back to the file.
	b, _ := os.ReadFile(TokenFile(dir, as.URL()+"/mcp", ""))
	issued := as.Issued()
	if last := issued[len(issued)-2]; !strings.Contains(string(b), last) {
		t.Errorf("the token file does not hold the newest access token %s: %s", last, b)
	}
}

func TestRevokedRefreshTokenAuthorizesAgain(t *testing.T) {
	as := fakeas.New(t)
	as.ExpiresIn = 1
	dir := t.TempDir()
	c, _, _ := newClient(t, Config{ServerURL: as.URL() + "/mcp", Open: follower, StoreDir: dir})
	if code, err := get(t, c, as.URL()+"/mcp"); err != nil || code != 200 {
		t.Fatalf("first: %d, %v", code, err)
	}
	as.RevokeAll()
	var notes []string
	c2, _, _ := newClient(t, Config{ServerURL: as.URL() + "/mcp", Open: follower, StoreDir: dir, Notify: func(m string) { notes = append(notes, m) }})
	if code, err := get(t, c2, as.URL()+"/mcp"); err != nil || code != 200 {
		t.Fatalf("after revocation: %d, %v", code, err)
	}
	if as.Count("/authorize") != 2 {
		t.Errorf("authorizations = %d, want 2 (a new one after the revoked refresh)", as.Count("/authorize"))
	}
	if len(notes) == 0 || !strings.Contains(notes[0], "could not be refreshed") {
		t.Errorf("no note about the failed refresh: %q", notes)
	}
}

func TestRetryLimit(t *testing.T) {
	// A server that always answers 401 gets DefaultMaxAuthorizations authorizations, then the
	// 401 is handed back.
	as := fakeas.New(t)
	as.AlwaysUnauthorized = true
	c, _, _ := newClient(t, Config{ServerURL: as.URL() + "/mcp", Open: follower})
	code, err := get(t, c, as.URL()+"/mcp")
	if err != nil || code != 401 {
		t.Fatalf("got %d, %v; want the 401 back", code, err)
	}
	if n := as.Count("/authorize"); n != DefaultMaxAuthorizations {
		t.Errorf("authorizations = %d, want %d", n, DefaultMaxAuthorizations)
	}
}

func TestForgedStateIgnored(t *testing.T) {
	as := fakeas.New(t)
	var cbURL string
	open := func(ctx context.Context, u string) error {
		// A forged redirect with another state is refused; the real one then completes.
		resp, err := http.Get(cbURL + "?code=forged&state=wrong")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("forged redirect answered %d, want 400", resp.StatusCode)
		}
		return follower(ctx, u)
	}
	c, _, a := newClient(t, Config{ServerURL: as.URL() + "/mcp", Open: open})
	if _, err := a.ensureHandler(); err != nil {
		t.Fatal(err)
	}
	cbURL = a.cb.redirectURL
	if code, err := get(t, c, as.URL()+"/mcp"); err != nil || code != 200 {
		t.Fatalf("GET /mcp = %d, %v", code, err)
	}
}

// A token the server refuses (401 invalid_token) is said, with the server's description,
// before the authorization starts again.
func TestRefusedTokenSaid(t *testing.T) {
	as := fakeas.New(t)
	as.AlwaysUnauthorized = true
	var mu sync.Mutex
	var notes []string
	c, _, _ := newClient(t, Config{ServerURL: as.URL() + "/mcp", Open: follower, Notify: func(m string) {
		mu.Lock()
		notes = append(notes, m)
		mu.Unlock()
	}})
	if code, err := get(t, c, as.URL()+"/mcp"); err != nil || code != 401 {
		t.Fatalf("got %d, %v", code, err)
	}
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(notes, "\n")
	if !strings.Contains(all, "the server refused the access token sent (invalid_token: The access token expired)") {
		t.Fatalf("notes:\n%s", all)
	}
}

// The authorization is a list of steps on the wire: the challenge, the metadata, the
// registration, the token request, the retried request; no secret in any of them.
func TestAuthorizationSteps(t *testing.T) {
	as := fakeas.New(t)
	h := &hops{next: http.DefaultTransport}
	a := New(Config{ServerURL: as.URL() + "/mcp", Open: follower, StoreDir: t.TempDir()})
	t.Cleanup(func() { a.Close() })
	tr := a.Wrap(h)
	var mu sync.Mutex
	var wire []string
	tr.(interface{ SetNote(func(string)) }).SetNote(func(s string) { mu.Lock(); wire = append(wire, s); mu.Unlock() })
	tr.(interface{ SetBodyRecorder(func([]byte)) }).SetBodyRecorder(func([]byte) {})
	if code, err := get(t, &http.Client{Transport: tr}, as.URL()+"/mcp"); err != nil || code != 200 {
		t.Fatalf("GET /mcp = %d, %v", code, err)
	}
	mu.Lock()
	defer mu.Unlock()
	var steps []string
	for _, s := range wire {
		if strings.HasPrefix(s, StepNote) {
			steps = append(steps, s)
		}
	}
	want := []string{
		"OAuth step 1: challenge: GET " + as.URL() + "/mcp → 401 Unauthorized; WWW-Authenticate: Bearer resource_metadata=" + as.URL() + "/.well-known/oauth-protected-resource/mcp",
		"OAuth step 2: protected-resource metadata (RFC 9728): GET " + as.URL() + "/.well-known/oauth-protected-resource/mcp → 200 OK; resource=",
		"OAuth step 3: authorization-server metadata (RFC 8414): GET " + as.URL() + "/.well-known/oauth-authorization-server → 200 OK; issuer=",
		"OAuth step 4: client registration (RFC 7591): POST " + as.URL() + "/register → ",
		"OAuth step 5: token request (grant_type authorization_code): POST " + as.URL() + "/token → 200 OK",
		"OAuth step 6: authorized: GET " + as.URL() + "/mcp is sent again with the new token",
	}
	if len(steps) != len(want) {
		t.Fatalf("steps:\n%s", strings.Join(steps, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(steps[i], w) {
			t.Errorf("step %d:\n got %s\nwant %s…", i+1, steps[i], w)
		}
	}
	all := strings.Join(wire, "\n")
	for _, tok := range as.Issued() {
		if strings.Contains(all, tok) {
			t.Fatalf("a token is in the wire notes: %s", tok)
		}
	}
}

// A 401 that asks for another scheme than Bearer (Basic, the Mcp-Inspect-Token of a tap or
// mock started with a token) is handed back: no authorization is started, no metadata
// fetched. A Bearer challenge among others still authorizes.
func TestNonBearerChallengeNotAuthorized(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("WWW-Authenticate", `Mcp-Inspect-Token realm="tap"`)
		w.Header().Add("WWW-Authenticate", `Basic realm="x"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	opened := false
	c, _, _ := newClient(t, Config{ServerURL: srv.URL + "/mcp", Open: func(context.Context, string) error { opened = true; return nil }})
	code, err := get(t, c, srv.URL+"/mcp")
	if err != nil || code != http.StatusUnauthorized || opened || hits.Load() != 1 {
		t.Errorf("code %d err %v opened %v hits %d: want the 401 back, nothing else asked", code, err, opened, hits.Load())
	}
	h := http.Header{}
	h.Add("WWW-Authenticate", `Basic realm="x", Bearer resource_metadata="https://x.test/.well-known/oauth-protected-resource"`)
	if !needsAuth(&http.Response{StatusCode: http.StatusUnauthorized, Header: h}) {
		t.Error("a Bearer challenge among others does not authorize")
	}
	if !needsAuth(&http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{}}) {
		t.Error("a 401 without a challenge does not authorize")
	}
}
