package cmd

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/fakeas"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/oauth"
)

// guardedServer is a go-sdk MCP server with one tool behind the fake authorization server.
func guardedServer(t *testing.T) *fakeas.AS {
	as := fakeas.New(t)
	srv := mcp.NewServer(&mcp.Implementation{Name: "guarded", Version: "1.0.0"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "echoes text"}, func(ctx context.Context, req *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text}}}, nil, nil
	})
	as.Resource = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	return as
}

// fakeBrowser is a $BROWSER that follows the authorization server's redirect to the
// loopback callback, as a user approving in a browser would.
func fakeBrowser(t *testing.T) string { return testservers.FakeBrowser(t) }

func TestRemoteOAuth(t *testing.T) {
	as := guardedServer(t)
	state := t.TempDir()
	env := []string{"BROWSER=" + fakeBrowser(t), "XDG_STATE_HOME=" + state}
	trace := filepath.Join(t.TempDir(), "o.jsonl")
	url := as.URL() + "/mcp"
	r := inspect(t, env, "call", "echo", "-a", "text=hello-oauth", "--record", trace, url)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "hello-oauth") {
		t.Fatalf("call: %q %q", r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "authorize access to "+url+" in a browser: "+as.URL()+"/authorize?") {
		t.Errorf("the authorization URL is not on stderr: %q", r.stderr)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), `\u0026`, "&")
	for _, tok := range as.Issued() {
		if strings.Contains(s, tok) {
			t.Errorf("the trace holds the token %q", tok)
		}
	}
	for _, hop := range []string{"GET /.well-known/oauth-protected-resource/mcp ", "GET /.well-known/oauth-authorization-server ", "POST /register ", "POST /token ", "HTTP/1.1 401 Unauthorized", "Authorization: Bearer ***", "code=***", "code_verifier=***", "mcp-inspect: authorize access to ", `\"authorization_servers\":`, `\"access_token\":\"***`} {
		if !strings.Contains(s, hop) {
			t.Errorf("the trace lacks %q", hop)
		}
	}
	f := oauth.TokenFile(filepath.Join(state, "mcp-inspect", "tokens"), url, "")
	st, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", st.Mode().Perm())
	}
	// The next run uses the stored token.
	r = inspect(t, env, "tools", url)
	wantCode(t, r, 0)
	if n := as.Count("/authorize"); n != 1 {
		t.Errorf("authorizations = %d, want 1 (the stored token reused)", n)
	}
}

func TestRemoteOAuthRefused(t *testing.T) {
	as := guardedServer(t)
	as.Refuse = true
	r := inspect(t, []string{"BROWSER=" + fakeBrowser(t)}, "tools", as.URL()+"/mcp")
	wantCode(t, r, exitProtocol)
	if !strings.Contains(r.stderr, "authorization refused: access_denied (the user said no)") {
		t.Errorf("stderr: %q", r.stderr)
	}
}

// --json carries the authorization's steps, in order, without a token.
func TestRemoteOAuthStepsInJSON(t *testing.T) {
	as := guardedServer(t)
	env := []string{"BROWSER=" + fakeBrowser(t), "XDG_STATE_HOME=" + t.TempDir()}
	r := inspect(t, env, "tools", "--json", as.URL()+"/mcp")
	wantCode(t, r, 0)
	var doc struct {
		OAuth []string `json:"oauth"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.OAuth) < 5 || !strings.HasPrefix(doc.OAuth[0], "OAuth step 1: challenge: ") || !strings.Contains(doc.OAuth[len(doc.OAuth)-1], "sent again with the new token") {
		t.Fatalf("oauth steps: %q", doc.OAuth)
	}
	for _, tok := range as.Issued() {
		if strings.Contains(r.stdout, tok) {
			t.Fatalf("a token is in --json")
		}
	}
}

// Metadata naming another issuer stops the authorization with both values and the flag
// that goes on; with --oauth-accept-issuer the session works and the trace says so.
func TestRemoteOAuthIssuerMismatch(t *testing.T) {
	as := guardedServer(t)
	as.Deviations.Issuer = "https://login.example.com"
	env := []string{"BROWSER=" + fakeBrowser(t), "XDG_STATE_HOME=" + t.TempDir()}
	r := inspect(t, env, "tools", as.URL()+"/mcp")
	wantCode(t, r, exitProtocol)
	for _, w := range []string{`says issuer "https://login.example.com", but "` + as.URL() + `" was expected`, "--oauth-accept-issuer"} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q: %q", w, r.stderr)
		}
	}
	if n := as.Count("/authorize"); n != 0 {
		t.Fatalf("the browser was sent to /authorize %d times", n)
	}
	trace := filepath.Join(t.TempDir(), "o.jsonl")
	r = inspect(t, env, "tools", "--oauth-accept-issuer", "--record", trace, as.URL()+"/mcp")
	wantCode(t, r, 0)
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "accepted by --oauth-accept-issuer") {
		t.Fatalf("the trace does not record the override")
	}
}

// Each http-oauth scenario (shared/cases.md R10…) end to end: the headless run ends as a
// user needs, and the trace names what the authorization met.
func TestRemoteOAuthScenarios(t *testing.T) {
	for _, c := range []struct {
		scenario string
		code     int
		trace    []string // in the recorded trace
		stderr   string
	}{
		{"http-oauth", 0, []string{"OAuth step 1: challenge: "}, ""},
		{"http-oauth-as-html", 0, []string{"not a JSON metadata document", "OpenID Connect discovery: GET "}, ""},
		{"http-oauth-prm-html", 0, []string{"not a JSON metadata document", "served only at the root well-known path"}, ""},
		{"http-oauth-root-only", 0, []string{"served only at the root well-known path"}, ""},
		{"http-oauth-issuer", exitProtocol, []string{"stopped: authorization-server metadata at "}, `says issuer "https://login.example.com"`},
		{"http-oauth-resource-slash", exitProtocol, []string{"stopped: protected-resource metadata at "}, "only a trailing slash differs"},
		{"http-oauth-content-type", 0, []string{`is JSON served as Content-Type \"text/plain\"`}, ""},
		{"http-oauth-doubled", 0, []string{"given twice", "in single quotes", "value 2 is tried"}, ""},
		{"http-oauth-step-up", 0, []string{`needs scope \"tools:write\"`, "retried once after the step-up", "is reused (client_id=dyn-client-1)"}, ""},
		{"http-oauth-step-up-denied", exitProtocol, []string{`needs scope \"admin\"`}, "stops after one step-up"},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			_, url := fake.HTTPServer(t, c.scenario, fake.HTTPOptions{})
			trace := filepath.Join(t.TempDir(), "o.jsonl")
			r := inspect(t, []string{"BROWSER=" + fakeBrowser(t)}, "tools", "--record", trace, url)
			wantCode(t, r, c.code)
			if !strings.Contains(r.stderr, c.stderr) {
				t.Errorf("stderr lacks %q:\n%s", c.stderr, r.stderr)
			}
			b, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.trace {
				if !strings.Contains(string(b), w) {
					t.Errorf("the trace lacks %q", w)
				}
			}
		})
	}
}
