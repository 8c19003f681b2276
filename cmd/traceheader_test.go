package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceHeaderBOMAndVersion: `trace cat` reads a trace saved with a UTF-8 byte-order
// mark, and refuses one whose header says "version": -1 with exit 2, naming the version
// found and the version it reads.
func TestTraceHeaderBOMAndVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	body := `{"format":"mcp-inspect-trace","version":1,"start":"2026-01-02T03:04:05Z"}` + "\n" +
		`{"seq":1,"t":"2026-01-02T03:04:05.001Z","mono":1000000,"dir":"c2s","raw":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n","size":40}` + "\n"
	bom := filepath.Join(dir, "bom.jsonl")
	neg := filepath.Join(dir, "neg.jsonl")
	if err := os.WriteFile(bom, []byte("\ufeff"+body), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(neg, []byte(strings.Replace(body, `"version":1`, `"version":-1`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	r := inspect(t, nil, "trace", "cat", bom)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, `"method":"ping"`) {
		t.Errorf("trace cat of a trace with a byte-order mark: %q", r.stdout)
	}
	r = inspect(t, nil, "trace", "cat", neg)
	wantCode(t, r, exitBadTrace)
	if !strings.Contains(r.stderr, "unsupported trace format version -1") || !strings.Contains(r.stderr, "reads version 1") {
		t.Errorf("version -1: %q", r.stderr)
	}
}
