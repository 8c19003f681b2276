package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// Headless commands on remote servers nobody here wrote, on loopback.

func TestRemoteStreamableHTTP(t *testing.T) {
	srv := testservers.ServerEverythingHTTP(t)
	trace := filepath.Join(t.TempDir(), "h.jsonl")
	env := []string{"MCP_INSPECT_TEST_TOKEN=tok-abcdef-123456"}
	r := inspect(t, env, "call", "trigger-long-running-operation", "-a", "duration=1", "-a", "steps=2",
		"--bearer-env", "MCP_INSPECT_TEST_TOKEN", "-H", "X-Api-Key: key-abcdef-654321", "-H", "X-Plain: shown",
		"--record", trace, srv.URL)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "Long running operation completed") {
		t.Fatalf("call: %q %q", r.stdout, r.stderr)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, secret := range []string{"tok-abcdef-123456", "key-abcdef-654321"} {
		if strings.Contains(s, secret) {
			t.Errorf("the trace holds %q", secret)
		}
	}
	for _, want := range []string{`Authorization: ***`, `X-Api-Key: ***`, `X-Plain: shown`, `"transport":"http"`, `"dir":"http\u003e"`, `notifications/progress`, `Mcp-Session-Id: `} {
		if !strings.Contains(strings.ReplaceAll(s, `\u003e`, ">"), strings.ReplaceAll(want, `\u003e`, ">")) {
			t.Errorf("the trace lacks %q", want)
		}
	}
	r = inspect(t, nil, "trace", "cat", trace)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, ">> POST ") || !strings.Contains(r.stdout, "<< HTTP/1.1 200 OK") || strings.Contains(r.stdout, "no newline") {
		t.Errorf("trace cat:\n%s", r.stdout)
	}
	r = inspect(t, nil, "trace", "cat", "--raw", trace)
	wantCode(t, r, 0)
	if !strings.HasPrefix(r.stdout, "POST /mcp HTTP/1.1\r\n") || !strings.Contains(r.stdout, "\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"") || !strings.Contains(r.stdout, "event: message\n") {
		t.Errorf("trace cat --raw is not the HTTP exchange:\n%.600s", r.stdout)
	}
	r = inspect(t, nil, "replay", trace, "--", srv.URL)
	wantCode(t, r, 0)

	r = inspect(t, nil, "read", "demo://resource/static/document/architecture.md", srv.URL)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "Architecture") {
		t.Errorf("read: %q", r.stdout)
	}
	r = inspect(t, nil, "prompt", "simple-prompt", srv.URL)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "simple prompt") {
		t.Errorf("prompt: %q", r.stdout)
	}
}

func TestRemoteHTTPSSE(t *testing.T) {
	srv := testservers.ServerEverythingSSE(t)
	// --transport auto (the default) falls back from POST to the HTTP+SSE GET.
	r := inspect(t, nil, "tools", srv.URL)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "get-sum(") {
		t.Fatalf("tools: %q %q", r.stdout, r.stderr)
	}
	r = inspect(t, nil, "call", "get-sum", "-a", "a=2", "-a", "b=40", "--transport", "sse", srv.URL)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "42") {
		t.Fatalf("call: %q %q", r.stdout, r.stderr)
	}
}

func TestRemoteGoEverything(t *testing.T) {
	stateful := testservers.GoEverythingHTTP(t, false)
	r := inspect(t, nil, "call", "test_simple_text", stateful.URL)
	wantCode(t, r, 0)
	stateless := testservers.GoEverythingHTTP(t, true)
	r = inspect(t, nil, "call", "test_simple_text", "--era", "modern", "--json", stateless.URL)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, `"era": "modern"`) && !strings.Contains(r.stdout, `"era":"modern"`) {
		t.Fatalf("modern call: %s", r.stdout)
	}
	r = inspect(t, nil, "tools", "--era", "modern", stateless.URL)
	wantCode(t, r, 0)
}

func TestRemoteConnectRefused(t *testing.T) {
	r := inspect(t, nil, "tools", "--json", "http://127.0.0.1:1/mcp")
	wantCode(t, r, exitNoServer)
	if !strings.Contains(r.stdout, `"connect"`) {
		t.Fatalf("%s", r.stdout)
	}
}
