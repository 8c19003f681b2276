package hostconfig

import (
	"path"
	"strings"
)

// Env is what Locations needs to know of a machine. The caller fills it (cmd from the
// running process), so that the table of every OS can be tested on any.
type Env struct {
	// GOOS is a runtime.GOOS value: "darwin" and "windows" have their own tables, any
	// other is taken as Linux.
	GOOS string
	// Home is the user's home directory (os.UserHomeDir); "" leaves out the files under it.
	Home string
	// ConfigDir is the user config directory as Electron apps (Claude Desktop, VS Code)
	// place their data, which os.UserConfigDir gives: $XDG_CONFIG_HOME or ~/.config on
	// Linux, ~/Library/Application Support on macOS, %APPDATA% on Windows; "" leaves out
	// the files under it.
	ConfigDir string
	// Cwd is the directory whose project files (.mcp.json, .cursor/mcp.json,
	// .vscode/mcp.json) are looked at; "" leaves them out.
	Cwd string
	// Getenv reads the environment: CLAUDE_CONFIG_DIR, and on Windows LOCALAPPDATA. Nil
	// reads nothing.
	Getenv func(string) string
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// join joins path elements with the separator of e's OS, whatever OS runs it.
func (e Env) join(base string, elem ...string) string {
	if e.GOOS != "windows" {
		return path.Join(append([]string{base}, elem...)...)
	}
	return strings.TrimRight(base, `\/`) + `\` + strings.Join(elem, `\`)
}

// Location is a config file a host reads, whether or not it exists.
type Location struct {
	// Host names the host and the file's scope: "Claude Desktop", "Claude Code (user)",
	// "Cursor (project)", "VS Code Insiders (user)", ...
	Host string
	// Format is the file's format, as Parse finds it.
	Format Format
	// Path is where the host looks, absolute when Env's directories are.
	Path string
}

// claudeMSIXPackage is the package family name of Claude Desktop's MSIX package
// (Anthropic's installer and the Microsoft Store). A packaged app's %APPDATA% is
// redirected into LocalCache\Roaming under its package directory, so that is the file
// such an install reads (anthropics/claude-code#26073: "Edit Config" opens
// %APPDATA%\Claude\..., while the app reads
// %LOCALAPPDATA%\Packages\Claude_pzs8sxrjxfjjc\LocalCache\Roaming\Claude\...).
const claudeMSIXPackage = "Claude_pzs8sxrjxfjjc"

// Locations lists the config files the hosts mcp-inspect reads keep MCP servers in, on
// the machine e describes, user files first, each path once (a Cwd that is Home makes
// .cursor/mcp.json both Cursor's user and project file: it is listed as the user's).
// Where each path comes from:
//
//   - Claude Desktop: <ConfigDir>/Claude/claude_desktop_config.json, as the MCP docs give
//     it for macOS (~/Library/Application Support/Claude) and Windows (%APPDATA%\Claude);
//     on Linux, where there is no official build, the community builds use the same
//     Electron directory (~/.config/Claude). On Windows also the MSIX package's redirected
//     copy (claudeMSIXPackage).
//   - Claude Code: ~/.claude.json (user scope; $CLAUDE_CONFIG_DIR/.claude.json when that is
//     set, as Claude Code does) and .mcp.json in the project directory (project scope), per
//     Claude Code's MCP docs (code.claude.com/docs/en/mcp, "MCP installation scopes").
//   - Cursor: ~/.cursor/mcp.json (global) and .cursor/mcp.json in the project, per Cursor's
//     MCP docs (cursor.com/docs/mcp).
//   - VS Code: mcp.json in the user profile folder, <ConfigDir>/Code/User on all three
//     (VS Code's "Settings file locations": %APPDATA%\Code\User, ~/Library/Application
//     Support/Code/User, ~/.config/Code/User), "Code - Insiders" for Insiders, and
//     .vscode/mcp.json in the workspace (VS Code's MCP configuration reference).
func Locations(e Env) []Location {
	var out []Location
	seen := map[string]bool{}
	add := func(host string, f Format, base string, elem ...string) {
		if base == "" {
			return
		}
		p := e.join(base, elem...)
		if seen[p] {
			return
		}
		seen[p] = true
		out = append(out, Location{Host: host, Format: f, Path: p})
	}
	add("Claude Desktop", ClaudeDesktop, e.ConfigDir, "Claude", "claude_desktop_config.json")
	if e.GOOS == "windows" {
		local := e.getenv("LOCALAPPDATA")
		if local == "" && e.Home != "" {
			local = e.join(e.Home, "AppData", "Local")
		}
		add("Claude Desktop (MSIX package)", ClaudeDesktop, local, "Packages", claudeMSIXPackage, "LocalCache", "Roaming", "Claude", "claude_desktop_config.json")
	}
	if dir := e.getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		add("Claude Code (user)", ClaudeCode, dir, ".claude.json")
	} else {
		add("Claude Code (user)", ClaudeCode, e.Home, ".claude.json")
	}
	add("Cursor (user)", Cursor, e.Home, ".cursor", "mcp.json")
	add("VS Code (user)", VSCode, e.ConfigDir, "Code", "User", "mcp.json")
	add("VS Code Insiders (user)", VSCode, e.ConfigDir, "Code - Insiders", "User", "mcp.json")
	add("Claude Code (project)", ClaudeCode, e.Cwd, ".mcp.json")
	add("Cursor (project)", Cursor, e.Cwd, ".cursor", "mcp.json")
	add("VS Code (workspace)", VSCode, e.Cwd, ".vscode", "mcp.json")
	return out
}
