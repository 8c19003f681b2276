package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// hostMachine is a fake user for `servers` without --config: a home, an XDG config
// directory and a project directory to run in, all empty.
type hostMachine struct {
	home, config, project string
}

func newHostMachine(t *testing.T) hostMachine {
	if runtime.GOOS != "linux" {
		t.Skip("the fake home sets $HOME and $XDG_CONFIG_HOME, Linux's directories")
	}
	root := t.TempDir()
	m := hostMachine{filepath.Join(root, "home"), filepath.Join(root, "xdg"), filepath.Join(root, "src", "proj")}
	for _, d := range []string{m.home, m.config, m.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// servers runs `mcp-inspect servers args...` as m's user, in m's project directory.
func (m hostMachine) servers(t *testing.T, args ...string) ran {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testservers.BuildInspector(t), append([]string{"servers"}, args...)...)
	cmd.Dir = m.project
	cmd.Env = append(os.Environ(), "HOME="+m.home, "XDG_CONFIG_HOME="+m.config, "CLAUDE_CONFIG_DIR=", "XDG_STATE_HOME="+t.TempDir())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := ran{out.String(), errb.String(), 0}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestServersWithoutConfigFindsNothing: no host file here; stdout stays empty (an empty
// array with --json) and stderr names every place looked at.
func TestServersWithoutConfigFindsNothing(t *testing.T) {
	t.Parallel()
	m := newHostMachine(t)
	r := m.servers(t)
	wantCode(t, r, 0)
	if r.stdout != "" {
		t.Fatalf("stdout %q", r.stdout)
	}
	for _, want := range []string{
		"no host config file with MCP servers here; looked at:",
		"Claude Desktop: " + filepath.Join(m.config, "Claude", "claude_desktop_config.json"),
		"Claude Code (user): " + filepath.Join(m.home, ".claude.json"),
		"Cursor (user): " + filepath.Join(m.home, ".cursor", "mcp.json"),
		"VS Code (user): " + filepath.Join(m.config, "Code", "User", "mcp.json"),
		"Claude Code (project): " + filepath.Join(m.project, ".mcp.json"),
		"VS Code (workspace): " + filepath.Join(m.project, ".vscode", "mcp.json"),
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	r = m.servers(t, "--json")
	wantCode(t, r, 0)
	if r.stdout != "[]\n" {
		t.Fatalf("--json: %q", r.stdout)
	}
}

// TestServersWithoutConfigListsHostFiles: the files that exist, in Locations order, each
// under a "HOST: PATH" line; a file without servers and a broken one are said on stderr.
func TestServersWithoutConfigListsHostFiles(t *testing.T) {
	t.Parallel()
	m := newHostMachine(t)
	desktop := filepath.Join(m.config, "Claude", "claude_desktop_config.json")
	writeFile(t, desktop, `{"mcpServers": {
  "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]},
  "old": {"command": "node", "args": ["old server.js"], "disabled": true}
}}`)
	writeFile(t, filepath.Join(m.home, ".claude.json"), `{"numStartups": 3, "projects": {}}`)
	cursor := filepath.Join(m.home, ".cursor", "mcp.json")
	writeFile(t, cursor, `{"mcpServers": {"remote": {"url": "https://example.com/mcp"}}}`)
	writeFile(t, filepath.Join(m.project, ".mcp.json"), `{"mcpServers": {`)
	vscode := filepath.Join(m.project, ".vscode", "mcp.json")
	writeFile(t, vscode, `{
  // JSONC
  "servers": {"db": {"type": "stdio", "command": "uvx", "args": ["${input:dsn}"]}},
}`)

	r := m.servers(t)
	wantCode(t, r, 0)
	want := "Claude Desktop: " + desktop + `
NAME            TYPE   COMMAND
everything      stdio  npx -y @modelcontextprotocol/server-everything
old (disabled)  stdio  node 'old server.js'

Cursor (user): ` + cursor + `
NAME    TYPE  COMMAND
remote  http  https://example.com/mcp

VS Code (workspace): ` + vscode + `
NAME  TYPE   COMMAND
db    stdio  uvx '${input:dsn}'
note: server "db": ${input:dsn} is an input the host would prompt for; mcp-inspect leaves it as written (pass the value with -e or edit the file)
`
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
	for _, w := range []string{
		"mcp-inspect: note: " + filepath.Join(m.home, ".claude.json") + ` (Claude Code (user)) has no user-scope MCP servers (its per-project ones, under "projects", are not read)`,
		"mcp-inspect: Claude Code (project): " + filepath.Join(m.project, ".mcp.json") + ": ",
	} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "looked at") {
		t.Errorf("files were listed, yet stderr lists the places looked at:\n%s", r.stderr)
	}

	r = m.servers(t, "--json")
	wantCode(t, r, 0)
	var docs []struct {
		Host, Path, Format, Error string
		Servers                   []struct{ Name, Command string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &docs); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	var got []string
	for _, d := range docs {
		var names []string
		for _, s := range d.Servers {
			names = append(names, s.Name)
		}
		got = append(got, d.Host+" "+d.Format+" "+d.Path+" ["+strings.Join(names, ",")+"] error="+strings.SplitN(d.Error, ":", 2)[0])
	}
	wantDocs := []string{
		"Claude Desktop claude-desktop " + desktop + " [everything,old] error=",
		"Cursor (user) cursor " + cursor + " [remote] error=",
		"Claude Code (project) claude-code " + filepath.Join(m.project, ".mcp.json") + " [] error=" + filepath.Join(m.project, ".mcp.json"),
		"VS Code (workspace) vscode " + vscode + " [db] error=",
	}
	if strings.Join(got, "\n") != strings.Join(wantDocs, "\n") {
		t.Errorf("--json files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantDocs, "\n"))
	}

	// --config reads the one file as before: no host line.
	r = m.servers(t, "--config", cursor)
	wantCode(t, r, 0)
	if r.stdout != "NAME    TYPE  COMMAND\nremote  http  https://example.com/mcp\n" {
		t.Errorf("--config: %q", r.stdout)
	}
}
