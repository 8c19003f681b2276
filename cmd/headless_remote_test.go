package cmd

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
)

// A headless call through a 307 works and warns with the URL to use; a 302 to the POST
// fails with exit 4 and kind redirect.
func TestHeadlessRedirects(t *testing.T) {
	t.Parallel()
	_, url := fake.HTTPServer(t, "http-redirect-307", fake.HTTPOptions{})
	r := inspect(t, nil, "call", "echo", "-a", "text=hi", url)
	wantCode(t, r, 0)
	if strings.TrimSpace(r.stdout) != "hi" || !strings.Contains(r.stderr, "warning: HTTP redirect: POST "+url) || !strings.Contains(r.stderr, "as the server URL") {
		t.Fatalf("through a 307:\nstdout %q\nstderr %s", r.stdout, r.stderr)
	}
	_, url = fake.HTTPServer(t, "http-redirect-302", fake.HTTPOptions{})
	r = inspect(t, nil, "tools", "--json", url)
	wantCode(t, r, exitProtocol)
	if doc := oneDocument(t, r); !strings.Contains(doc, `"kind": "redirect"`) || !strings.Contains(doc, `"code": 302`) {
		t.Fatalf("302 to a POST:\n%s", doc)
	}
}

// R08 headless: a dropped session fails the command (exit 3, kind session-expired) naming
// how the server said it; with --reinit a new session is initialized and the call sent
// again once, with a warning.
func TestHeadlessReinit(t *testing.T) {
	t.Parallel()
	_, url := fake.HTTPServer(t, "http-session-200", fake.HTTPOptions{})
	// call with -a lists the tools first (s1's one answered request), then calls in s1.
	r := inspect(t, nil, "call", "echo", "-a", "text=hi", url)
	wantCode(t, r, exitNoServer)
	if !strings.Contains(r.stderr, "seems to have dropped session s1") {
		t.Fatalf("without --reinit:\n%s", r.stderr)
	}
	_, url = fake.HTTPServer(t, "http-session-200", fake.HTTPOptions{})
	r = inspect(t, nil, "call", "echo", "-a", "text=hi", "--reinit", url)
	wantCode(t, r, 0)
	if strings.TrimSpace(r.stdout) != "hi" || !strings.Contains(r.stderr, "--reinit: new session s2, requests sent again once") {
		t.Fatalf("with --reinit:\nstdout %q\nstderr %s", r.stdout, r.stderr)
	}
}
