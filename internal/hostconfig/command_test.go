package hostconfig

import (
	"strings"
	"testing"
)

// files is a fake file system for CommandLookup.IsFile: the paths that exist, compared
// case-insensitively as on Windows.
func files(paths ...string) func(string) bool {
	return func(p string) bool {
		for _, f := range paths {
			if strings.EqualFold(f, p) {
				return true
			}
		}
		return false
	}
}

// winPath is a Windows PATH with Node's directory (npx.cmd, node.exe), a quoted entry with
// spaces and an empty one.
const winPath = `C:\Windows\system32;;"C:\Program Files\nodejs\";C:\tools`

var winFiles = files(
	`C:\Program Files\nodejs\npx.cmd`, `C:\Program Files\nodejs\node.exe`,
	`C:\Windows\system32\cmd.exe`, `C:\tools\uvx.exe`, `C:\tools\both.cmd`, `C:\tools\hello.vbs`,
	`C:\Windows\system32\both.exe`, `D:\srv\start.bat`, `D:\srv\srv`, `D:\srv\srv.cmd`,
)

func TestResolveCommandWindows(t *testing.T) {
	l := CommandLookup{GOOS: "windows", Path: winPath, PathExt: ".COM;.EXE;.BAT;.CMD;.VBS", IsFile: winFiles}
	for _, tc := range []struct {
		command, path, direct string
		batch                 bool
	}{
		{"npx", `C:\Program Files\nodejs\npx.cmd`, "", true},
		{"NPX.CMD", `C:\Program Files\nodejs\NPX.CMD`, `C:\Program Files\nodejs\NPX.CMD`, true},
		{"node", `C:\Program Files\nodejs\node.exe`, `C:\Program Files\nodejs\node.exe`, false},
		{"node.exe", `C:\Program Files\nodejs\node.exe`, `C:\Program Files\nodejs\node.exe`, false},
		{"uvx", `C:\tools\uvx.exe`, `C:\tools\uvx.exe`, false},
		// PATH order: system32 has both.exe before C:\tools has both.cmd.
		{"both", `C:\Windows\system32\both.exe`, `C:\Windows\system32\both.exe`, false},
		{"hello", `C:\tools\hello.vbs`, "", false},
		{`D:\srv\start.bat`, `D:\srv\start.bat`, `D:\srv\start.bat`, true},
		// A path without an extension: PATHEXT still applies to it, .com/.exe only without a shell.
		{`D:\srv\srv`, `D:\srv\srv.cmd`, "", true},
		{"missing", "", "", false},
	} {
		r := ResolveCommand(tc.command, l)
		if r.Command != tc.command || r.Path != tc.path || r.Direct != tc.direct || r.Batch() != tc.batch {
			t.Errorf("ResolveCommand(%q) = %+v batch %v; want path %q direct %q batch %v", tc.command, r, r.Batch(), tc.path, tc.direct, tc.batch)
		}
	}
	// Without PATHEXT, Go's default list: .vbs is no longer tried.
	l.PathExt = ""
	if r := ResolveCommand("hello", l); r.Path != "" {
		t.Errorf("hello without PATHEXT: %+v", r)
	}
	if r := ResolveCommand("npx", l); r.Path != `C:\Program Files\nodejs\npx.cmd` {
		t.Errorf("npx without PATHEXT: %+v", r)
	}
}

func TestResolveCommandElsewhere(t *testing.T) {
	for _, goos := range []string{"linux", "darwin"} {
		r := ResolveCommand("npx", CommandLookup{GOOS: goos, Path: "/usr/bin", IsFile: func(string) bool { return true }})
		if r != (Resolution{Command: "npx"}) || r.Note(ClaudeDesktop) != "" {
			t.Errorf("%s: %+v %q", goos, r, r.Note(ClaudeDesktop))
		}
	}
}

func TestResolutionNotes(t *testing.T) {
	l := CommandLookup{GOOS: "windows", Path: winPath + `;C:\later`, IsFile: files(`C:\Program Files\nodejs\npx.cmd`, `C:\Program Files\nodejs\node.exe`, `D:\srv\start.bat`, `C:\tools\both.cmd`, `C:\later\both.exe`, `C:\tools\hello.vbs`)}
	note := func(cmd string, f Format) string { return ResolveCommand(cmd, l).Note(f) }

	n := note("npx", ClaudeDesktop)
	for _, want := range []string{`"npx" is C:\Program Files\nodejs\npx.cmd, a batch file`, "mcp-inspect finds it through PATHEXT", "Claude Desktop starts commands without a shell", "npx, npx.com and npx.exe only and refuses batch files, so it may not start it", `"command": "cmd", "args": ["/c", "npx", ...]`} {
		if !strings.Contains(n, want) {
			t.Errorf("npx in Claude Desktop: %q lacks %q", n, want)
		}
	}
	if n := note("npx", ClaudeCode); !strings.Contains(n, "Claude Code starts commands without a shell") {
		t.Errorf("npx in Claude Code: %q", n)
	}
	// VS Code and Cursor start batch files themselves.
	if n := note("npx", VSCode) + note("npx", Cursor); n != "" {
		t.Errorf("npx in VS Code or Cursor: %q", n)
	}
	n = note(`D:\srv\start.bat`, ClaudeDesktop)
	if !strings.Contains(n, "refuses to start batch files") || !strings.Contains(n, `["/c", "D:\\srv\\start.bat", ...]`) {
		t.Errorf("a .bat named in full: %q", n)
	}
	if n := note("both", ClaudeCode); !strings.Contains(n, `C:\tools\both.cmd for mcp-inspect`) || !strings.Contains(n, `C:\later\both.exe for Claude Code`) {
		t.Errorf("both: %q", n)
	}
	l.PathExt = ".EXE;.CMD;.VBS"
	for _, f := range []Format{ClaudeDesktop, VSCode} {
		if n := note("hello", f); !strings.Contains(n, `C:\tools\hello.vbs, which Windows opens by file association`) {
			t.Errorf("hello.vbs in %s: %q", f, n)
		}
	}
	for _, cmd := range []string{"node", "missing"} {
		if n := note(cmd, ClaudeDesktop); n != "" {
			t.Errorf("%s: %q", cmd, n)
		}
	}
}

// TestParseNotesWindowsCommands: Options.Commands puts the note on the entry as it is
// loaded; without it (or on Linux) nothing is checked.
func TestParseNotesWindowsCommands(t *testing.T) {
	doc := []byte(`{"mcpServers": {
  "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]},
  "wrapped": {"command": "cmd", "args": ["/c", "npx", "-y", "@modelcontextprotocol/server-everything"]},
  "remote": {"url": "https://example.com/mcp"}
}}`)
	look := &CommandLookup{GOOS: "windows", Path: winPath, IsFile: winFiles}
	f, err := Parse(doc, "claude_desktop_config.json", Options{Home: "/h", LookupEnv: env(nil), Commands: look})
	if err != nil {
		t.Fatal(err)
	}
	if n := server(t, f, "everything").Notes; len(n) != 1 || !strings.Contains(n[0], "a batch file") {
		t.Errorf("everything: notes %q", n)
	}
	if n := server(t, f, "wrapped").Notes; len(n) != 0 {
		t.Errorf("cmd /c npx: notes %q", n)
	}
	for _, opt := range []Options{{}, {Commands: &CommandLookup{GOOS: "linux", Path: "/usr/bin", IsFile: winFiles}}} {
		opt.Home, opt.LookupEnv = "/h", env(nil)
		f, err := Parse(doc, "claude_desktop_config.json", opt)
		if err != nil {
			t.Fatal(err)
		}
		if n := server(t, f, "everything").Notes; len(n) != 0 {
			t.Errorf("Commands %+v: notes %q", opt.Commands, n)
		}
	}
}
