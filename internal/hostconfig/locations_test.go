package hostconfig

import (
	"fmt"
	"reflect"
	"testing"
)

// table is Locations as "Host | format | path" lines.
func table(e Env) []string {
	var out []string
	for _, l := range Locations(e) {
		out = append(out, fmt.Sprintf("%s | %s | %s", l.Host, l.Format, l.Path))
	}
	return out
}

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestLocationsLinux(t *testing.T) {
	got := table(Env{GOOS: "linux", Home: "/home/ana", ConfigDir: "/home/ana/.config", Cwd: "/home/ana/src/proj"})
	want := []string{
		"Claude Desktop | claude-desktop | /home/ana/.config/Claude/claude_desktop_config.json",
		"Claude Code (user) | claude-code | /home/ana/.claude.json",
		"Cursor (user) | cursor | /home/ana/.cursor/mcp.json",
		"VS Code (user) | vscode | /home/ana/.config/Code/User/mcp.json",
		"VS Code Insiders (user) | vscode | /home/ana/.config/Code - Insiders/User/mcp.json",
		"Claude Code (project) | claude-code | /home/ana/src/proj/.mcp.json",
		"Cursor (project) | cursor | /home/ana/src/proj/.cursor/mcp.json",
		"VS Code (workspace) | vscode | /home/ana/src/proj/.vscode/mcp.json",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("linux:\n%q\nwant\n%q", got, want)
	}
	// $XDG_CONFIG_HOME is in ConfigDir (os.UserConfigDir); $CLAUDE_CONFIG_DIR moves Claude
	// Code's file.
	got = table(Env{GOOS: "freebsd", Home: "/home/ana", ConfigDir: "/xdg", Getenv: envOf(map[string]string{"CLAUDE_CONFIG_DIR": "/home/ana/.claude"})})
	want = []string{
		"Claude Desktop | claude-desktop | /xdg/Claude/claude_desktop_config.json",
		"Claude Code (user) | claude-code | /home/ana/.claude/.claude.json",
		"Cursor (user) | cursor | /home/ana/.cursor/mcp.json",
		"VS Code (user) | vscode | /xdg/Code/User/mcp.json",
		"VS Code Insiders (user) | vscode | /xdg/Code - Insiders/User/mcp.json",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR, no cwd:\n%q\nwant\n%q", got, want)
	}
}

func TestLocationsMacOS(t *testing.T) {
	// Cwd is Home: ~/.cursor/mcp.json is listed once, as the user's.
	got := table(Env{GOOS: "darwin", Home: "/Users/ana", ConfigDir: "/Users/ana/Library/Application Support", Cwd: "/Users/ana"})
	want := []string{
		"Claude Desktop | claude-desktop | /Users/ana/Library/Application Support/Claude/claude_desktop_config.json",
		"Claude Code (user) | claude-code | /Users/ana/.claude.json",
		"Cursor (user) | cursor | /Users/ana/.cursor/mcp.json",
		"VS Code (user) | vscode | /Users/ana/Library/Application Support/Code/User/mcp.json",
		"VS Code Insiders (user) | vscode | /Users/ana/Library/Application Support/Code - Insiders/User/mcp.json",
		"Claude Code (project) | claude-code | /Users/ana/.mcp.json",
		"VS Code (workspace) | vscode | /Users/ana/.vscode/mcp.json",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("darwin:\n%q\nwant\n%q", got, want)
	}
}

func TestLocationsWindows(t *testing.T) {
	e := Env{GOOS: "windows", Home: `C:\Users\ana`, ConfigDir: `C:\Users\ana\AppData\Roaming`, Cwd: `D:\src\proj\`,
		Getenv: envOf(map[string]string{"LOCALAPPDATA": `C:\Users\ana\AppData\Local`})}
	want := []string{
		`Claude Desktop | claude-desktop | C:\Users\ana\AppData\Roaming\Claude\claude_desktop_config.json`,
		`Claude Desktop (MSIX package) | claude-desktop | C:\Users\ana\AppData\Local\Packages\Claude_pzs8sxrjxfjjc\LocalCache\Roaming\Claude\claude_desktop_config.json`,
		`Claude Code (user) | claude-code | C:\Users\ana\.claude.json`,
		`Cursor (user) | cursor | C:\Users\ana\.cursor\mcp.json`,
		`VS Code (user) | vscode | C:\Users\ana\AppData\Roaming\Code\User\mcp.json`,
		`VS Code Insiders (user) | vscode | C:\Users\ana\AppData\Roaming\Code - Insiders\User\mcp.json`,
		`Claude Code (project) | claude-code | D:\src\proj\.mcp.json`,
		`Cursor (project) | cursor | D:\src\proj\.cursor\mcp.json`,
		`VS Code (workspace) | vscode | D:\src\proj\.vscode\mcp.json`,
	}
	if got := table(e); !reflect.DeepEqual(got, want) {
		t.Fatalf("windows:\n%q\nwant\n%q", got, want)
	}
	// Without %LOCALAPPDATA% the MSIX copy is under the home directory's AppData\Local.
	e.Getenv = nil
	if got := table(e)[1]; got != want[1] {
		t.Fatalf("no LOCALAPPDATA: %s", got)
	}
	// Nothing known, nothing listed.
	if got := Locations(Env{GOOS: "windows"}); len(got) != 0 {
		t.Fatalf("empty Env: %+v", got)
	}
}

// TestLocationFormatsAreParseFormats: Parse finds each location's format from the path (and
// the file's top-level key), so a file found there is read as its host's.
func TestLocationFormatsAreParseFormats(t *testing.T) {
	for _, goos := range []string{"linux", "darwin"} {
		for _, l := range Locations(Env{GOOS: goos, Home: "/h", ConfigDir: "/c", Cwd: "/w"}) {
			doc := `{"mcpServers": {"s": {"command": "x"}}}`
			if l.Format == VSCode {
				doc = `{"servers": {"s": {"command": "x"}}}`
			}
			f, err := Parse([]byte(doc), l.Path, Options{Home: "/h", LookupEnv: env(nil)})
			if err != nil || f.Format != l.Format {
				t.Errorf("%s at %s: parsed as %v (%v)", l.Host, l.Path, f, err)
			}
		}
	}
}
