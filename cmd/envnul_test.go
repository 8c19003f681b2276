package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnvFileNULSpawns: an envFile line holding a NUL byte is skipped with a note naming
// file:line, and the server is started with the rest (before, the spawn failed on it).
func TestEnvFileNULSpawns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ef := filepath.Join(dir, "server.env")
	if err := os.WriteFile(ef, []byte("GOOD=1\nBAD=x\x00y\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "mcp.json")
	argv := fakeArgv(t, "minimal")
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"x": map[string]any{
		"command": argv[0], "args": argv[1:], "envFile": "server.env"}}})
	if err := os.WriteFile(cfg, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	r := inspect(t, nil, "ping", "--config", cfg, "--server", "x")
	wantCode(t, r, 0)
	if !strings.Contains(r.stderr, ef+`:2: "BAD" holds a NUL byte`) {
		t.Errorf("stderr lacks the note on the NUL line: %q", r.stderr)
	}
}
