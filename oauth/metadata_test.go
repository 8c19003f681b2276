package oauth

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/fakeas"
)

// deviating runs one authorized GET of /mcp against an AS that deviates so, and returns
// its status (0 on error), the error, the wire notes and the requests that were sent.
func deviating(t *testing.T, d fakeas.Deviations, cfg Config) (int, error, string, *hops, *fakeas.AS) {
	t.Helper()
	return deviatingWith(t, func(string) fakeas.Deviations { return d }, cfg)
}

// deviatingWith is deviating with deviations that name the AS's base URL.
func deviatingWith(t *testing.T, d func(base string) fakeas.Deviations, cfg Config) (int, error, string, *hops, *fakeas.AS) {
	t.Helper()
	as := fakeas.New(t)
	as.Deviations = d(as.URL())
	h := &hops{next: http.DefaultTransport}
	cfg.ServerURL, cfg.Open, cfg.StoreDir = as.URL()+"/mcp", follower, t.TempDir()
	a := New(cfg)
	t.Cleanup(func() { a.Close() })
	tr := a.Wrap(h)
	var mu sync.Mutex
	var wire []string
	tr.(interface{ SetNote(func(string)) }).SetNote(func(s string) { mu.Lock(); wire = append(wire, s); mu.Unlock() })
	tr.(interface{ SetBodyRecorder(func([]byte)) }).SetBodyRecorder(func([]byte) {})
	code, err := get(t, &http.Client{Transport: tr}, as.URL()+"/mcp")
	mu.Lock()
	defer mu.Unlock()
	return code, err, strings.Join(wire, "\n"), h, as
}

func wantNotes(t *testing.T, notes string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
}

// An HTML page answered with 200 where authorization-server metadata was expected is
// skipped with its reason, and the next candidate (OpenID Connect discovery) is used.
func TestMetadataHTMLSkipped(t *testing.T) {
	code, err, notes, h, _ := deviating(t, fakeas.Deviations{ASHTML: true}, Config{})
	if err != nil || code != 200 {
		t.Fatalf("GET = %d, %v\n%s", code, err, notes)
	}
	wantNotes(t, notes,
		`/.well-known/oauth-authorization-server answered 200 with Content-Type "text/html; charset=utf-8", not a JSON metadata document`,
		"OpenID Connect discovery: GET ")
	if !strings.Contains(h.String(), "GET /.well-known/openid-configuration") {
		t.Fatalf("requests: %s", h)
	}
}

// A protected-resource HTML page is skipped too; the metadata at the root, naming this
// server, answers for it, and go-sdk's own request of the root is not sent twice.
func TestProtectedResourceHTMLThenRoot(t *testing.T) {
	code, err, notes, h, _ := deviating(t, fakeas.Deviations{PRMHTML: true}, Config{})
	if err != nil || code != 200 {
		t.Fatalf("GET = %d, %v\n%s", code, err, notes)
	}
	wantNotes(t, notes, "not a JSON metadata document", "the metadata is served only at the root well-known path")
	if n := strings.Count(h.String(), "GET /.well-known/oauth-protected-resource,"); n != 1 {
		t.Fatalf("the root metadata was read %d times: %s", n, h)
	}
}

// Metadata served only at the root well-known path, with no resource_metadata in the
// challenge, is found there and used for this server.
func TestProtectedResourceRootOnly(t *testing.T) {
	code, err, notes, _, _ := deviating(t, fakeas.Deviations{RootOnly: true}, Config{})
	if err != nil || code != 200 {
		t.Fatalf("GET = %d, %v\n%s", code, err, notes)
	}
	wantNotes(t, notes, "the metadata is served only at the root well-known path", `naming resource "http://127.0.0.1:`)
}

// A resource that differs from the server URL stops the authorization with both strings
// and a hint when only a trailing slash differs; --oauth-accept-resource goes on, noted.
func TestResourceMismatch(t *testing.T) {
	code, err, notes, h, as := deviatingWith(t, func(base string) fakeas.Deviations { return fakeas.Deviations{Resource: base + "/mcp/"} }, Config{})
	var me *MetadataError
	if !errors.As(err, &me) || me.Field != "resource" || me.Got != as.URL()+"/mcp/" || me.Want != as.URL()+"/mcp" {
		t.Fatalf("err = %v (%d)\n%s", err, code, notes)
	}
	for _, w := range []string{"only a trailing slash differs", "--oauth-accept-resource", "RFC 9728 §3.3"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q: %v", w, err)
		}
	}
	if strings.Contains(h.String(), "/authorize") || strings.Contains(h.String(), "/register") {
		t.Fatalf("the authorization went on: %s", h)
	}
	code, err, notes, _, _ = deviatingWith(t, func(base string) fakeas.Deviations { return fakeas.Deviations{Resource: base + "/mcp/"} }, Config{AcceptResource: true})
	if err != nil || code != 200 {
		t.Fatalf("with AcceptResource: %d, %v\n%s", code, err, notes)
	}
	wantNotes(t, notes, "accepted by --oauth-accept-resource: protected-resource metadata says resource")
}

// An issuer that differs from the one the metadata was looked up for stops, named with
// both values; --oauth-accept-issuer goes on, noted.
func TestIssuerMismatch(t *testing.T) {
	code, err, notes, h, as := deviatingWith(t, func(string) fakeas.Deviations { return fakeas.Deviations{Issuer: "https://login.example.com"} }, Config{})
	var me *MetadataError
	if !errors.As(err, &me) || me.Field != "issuer" || me.Got != "https://login.example.com" || me.Want != as.URL() {
		t.Fatalf("err = %v (%d)\n%s", err, code, notes)
	}
	if strings.Contains(h.String(), "/authorize") {
		t.Fatalf("the authorization went on: %s", h)
	}
	code, err, notes, _, _ = deviatingWith(t, func(string) fakeas.Deviations { return fakeas.Deviations{Issuer: "https://login.example.com"} }, Config{AcceptIssuer: true})
	if err != nil || code != 200 {
		t.Fatalf("with AcceptIssuer: %d, %v\n%s", code, err, notes)
	}
	wantNotes(t, notes, `accepted by --oauth-accept-issuer: authorization-server metadata says issuer "https://login.example.com"`)
}

// JSON metadata with a doubled or odd Content-Type is read with a warning.
func TestMetadataContentType(t *testing.T) {
	for _, ct := range []string{"application/json\napplication/json", "text/plain", "application/json, application/json"} {
		code, err, notes, _, _ := deviating(t, fakeas.Deviations{ContentType: ct}, Config{})
		if err != nil || code != 200 {
			t.Fatalf("%q: GET = %d, %v\n%s", ct, code, err, notes)
		}
		wantNotes(t, notes, "is JSON served as Content-Type")
	}
}

// A challenge with resource_metadata twice: flagged, and each value tried in order; single
// quotes are read with a warning.
func TestDoubledChallenge(t *testing.T) {
	code, err, notes, h, _ := deviating(t, fakeas.Deviations{DoubledChallenge: true, SingleQuoted: true}, Config{})
	if err != nil || code != 200 {
		t.Fatalf("GET = %d, %v\n%s", code, err, notes)
	}
	wantNotes(t, notes, `parameter "resource_metadata" given twice`, "in single quotes",
		"the challenge gave resource_metadata 2 times", "value 2 is tried")
	if !strings.Contains(h.String(), "GET /old/metadata, GET /metadata/mcp") {
		t.Fatalf("requests: %s", h)
	}
}

// Step-up on 403 insufficient_scope: the scopes are shown, the call is retried once, the
// client registered for the first authorization is reused.
func TestStepUp(t *testing.T) {
	code, err, notes, h, as := deviating(t, fakeas.Deviations{Scope: "tools:write"}, Config{})
	if err != nil || code != 200 {
		t.Fatalf("GET = %d, %v\n%s", code, err, notes)
	}
	wantNotes(t, notes, `step-up: GET `+as.URL()+`/mcp needs scope "tools:write"; the token had ""`,
		"is retried once after the step-up", "the client registered earlier at "+as.URL()+"/register is reused (client_id=dyn-client-1)")
	if as.Registrations() != 1 {
		t.Fatalf("%d registrations; requests: %s", as.Registrations(), h)
	}
}

// A server that keeps asking for a scope the authorization server does not grant stops
// after one step-up, with the scopes named; its 403 is handed back.
func TestStepUpOnce(t *testing.T) {
	code, err, notes, _, as := deviating(t, fakeas.Deviations{Scope: "admin", Grant: "read"}, Config{})
	if err != nil || code != 403 {
		t.Fatalf("GET = %d, %v\n%s", code, err, notes)
	}
	wantNotes(t, notes, `the server asks again for scope "admin" after a step-up that was granted`, "stops after one step-up")
	if n := len(as.Grants()); n != 2 {
		t.Fatalf("%d token requests, want 2 (first authorization, one step-up)", n)
	}
}
