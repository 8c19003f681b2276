package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
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

// trace export --format har writes the HTTP exchanges of a recorded remote session; a stdio
// trace has none and is refused with why.
func TestTraceExportHAR(t *testing.T) {
	t.Parallel()
	_, url := fake.HTTPServer(t, "http-redirect-307", fake.HTTPOptions{})
	dir := t.TempDir()
	tr := filepath.Join(dir, "s.jsonl")
	wantCode(t, inspect(t, nil, "tools", "--record", tr, url), 0)
	har := filepath.Join(dir, "s.har")
	r := inspect(t, nil, "trace", "export", "--format", "har", "-o", har, tr)
	wantCode(t, r, 0)
	b, err := os.ReadFile(har)
	if err != nil || !strings.Contains(r.stderr, "HTTP exchange(s) written to") {
		t.Fatalf("%v\n%s", err, r.stderr)
	}
	var doc struct {
		Log struct {
			Entries []struct {
				Request  struct{ URL string }
				Response struct {
					Status      int
					RedirectURL string
				}
			}
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	redirects := 0
	for _, e := range doc.Log.Entries {
		if e.Response.Status == 307 && strings.HasSuffix(e.Response.RedirectURL, "/mcp") && strings.HasSuffix(e.Request.URL, "/start") {
			redirects++
		}
	}
	if redirects == 0 {
		t.Fatalf("no 307 hop among %d entries", len(doc.Log.Entries))
	}
	stdio := filepath.Join(dir, "stdio.jsonl")
	wantCode(t, inspect(t, nil, cmdline([]string{"tools", "--record", stdio}, fakeArgv(t, "minimal"))...), 0)
	r = inspect(t, nil, "trace", "export", "--format", "har", stdio)
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, "trace of a stdio server") {
		t.Fatalf("stdio trace: %s", r.stderr)
	}
}
