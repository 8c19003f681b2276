package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/hostconfig"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// TestConfigWrapCommand: `config wrap` and `config unwrap` on a Claude Desktop, a VS Code and
// a Cursor file: the entry points at this binary's tap, the backup holds the old file, the
// file's mode is kept, a second wrap is refused, unwrap gives the original back byte for
// byte, --dry-run writes nothing, and a symlinked config is edited where it really is.
func TestConfigWrapCommand(t *testing.T) {
	bin := testservers.BuildInspector(t)
	files := map[string]string{
		"claude/claude_desktop_config.json": `{
  "mcpServers": {
    "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]},
    "other": {"command": "uvx", "args": ["other-mcp"]}
  }
}
`,
		"proj/.vscode/mcp.json": `{
	// comments stay
	"servers": {
		"everything": {"type": "stdio", "command": "node", "args": ["${workspaceFolder}/srv.js"],},
	},
}
`,
		"proj/.cursor/mcp.json": `{"mcpServers": {"everything": {"command": "/usr/local/bin/srv"}}}`,
	}
	for rel, content := range files {
		t.Run(rel, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, rel)
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(content), 0o640); err != nil {
				t.Fatal(err)
			}
			r := inspect(t, nil, "config", "wrap", path, "--server", "everything", "--dry-run")
			wantCode(t, r, 0)
			if got, _ := os.ReadFile(path); string(got) != content {
				t.Fatal("--dry-run wrote the file")
			}
			r = inspect(t, nil, "config", "wrap", path, "--server", "everything")
			wantCode(t, r, 0)
			if !strings.Contains(r.stdout, "mcp-inspect attach everything") {
				t.Errorf("stdout: %s", r.stdout)
			}
			wrapped, _ := os.ReadFile(path)
			f, err := hostconfig.Parse(wrapped, path, hostconfig.Options{})
			if err != nil {
				t.Fatal(err)
			}
			e, _ := f.Lookup("everything")
			if e.Command != bin || len(e.Args) < 5 || strings.Join(e.Args[:4], " ") != "tap --name everything --" {
				t.Errorf("wrapped entry: %q %q", e.Command, e.Args)
			}
			if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want 0640", st.Mode().Perm())
			}
			if bak, _ := os.ReadFile(path + ".mcp-inspect.bak"); string(bak) != content {
				t.Error("the backup is not the original file")
			}
			r = inspect(t, nil, "config", "wrap", path, "--server", "everything")
			wantCode(t, r, 1)
			if !strings.Contains(r.stderr, "already wrapped") {
				t.Errorf("second wrap: %s", r.stderr)
			}
			r = inspect(t, nil, "config", "unwrap", path, "--server", "everything")
			wantCode(t, r, 0)
			if got, _ := os.ReadFile(path); string(got) != content {
				t.Errorf("unwrap did not restore the file:\n%s", got)
			}
			r = inspect(t, nil, "config", "unwrap", path, "--server", "everything")
			wantCode(t, r, 1)
		})
	}

	t.Run("symlink", func(t *testing.T) {
		dir := t.TempDir()
		real := filepath.Join(dir, "dotfiles", "claude.json")
		os.MkdirAll(filepath.Dir(real), 0o755)
		content := `{"mcpServers": {"s": {"command": "srv", "args": ["a b"]}}}`
		os.WriteFile(real, []byte(content), 0o600)
		link := filepath.Join(dir, "claude_desktop_config.json")
		if err := os.Symlink(real, link); err != nil {
			t.Fatal(err)
		}
		wantCode(t, inspect(t, nil, "config", "wrap", link, "--server", "s", "--name", "srv-tap", "--record", "rel/t.jsonl"), 0)
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatal("the symlink was replaced")
		}
		var doc struct {
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		data, _ := os.ReadFile(real)
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		got := doc.MCPServers["s"]
		cwd, _ := os.Getwd()
		want := []string{"tap", "--name", "srv-tap", "--record", filepath.Join(cwd, "rel/t.jsonl"), "--overwrite", "--", "srv", "a b"}
		if strings.Join(got.Args, "|") != strings.Join(want, "|") {
			t.Errorf("args %q, want %q", got.Args, want)
		}
		wantCode(t, inspect(t, nil, "config", "unwrap", link, "--server", "s"), 0)
		if data, _ := os.ReadFile(real); !bytes.Equal(data, []byte(content)) {
			t.Errorf("unwrap: %s", data)
		}
	})
}
