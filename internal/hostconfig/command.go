package hostconfig

import (
	"fmt"
	"strings"
)

// CommandLookup is what ResolveCommand needs to find a program the way Windows does.
type CommandLookup struct {
	// GOOS is a runtime.GOOS value; only "windows" is looked at (elsewhere a command is
	// a file name, found in $PATH by every host alike).
	GOOS string
	// Path is the PATH variable (";"-separated; quoted entries allowed).
	Path string
	// PathExt is the PATHEXT variable; "" stands for .com;.exe;.bat;.cmd, as in Go's
	// exec.LookPath.
	PathExt string
	// IsFile reports whether a regular file exists at a path (os.Stat on the machine).
	IsFile func(string) bool
}

// Resolution is how a stdio command resolves on Windows, by two rules:
//
//   - with PATHEXT, as cmd.exe and Go's exec.LookPath (so mcp-inspect) do: a name without a
//     directory is looked up in each PATH directory, as written when it has an extension,
//     then with each PATHEXT extension appended;
//   - without a shell, as Node's child_process.spawn does (libuv's search_path, which
//     Claude Desktop and Claude Code start servers with): as written when it has an
//     extension, then with .com and .exe appended, PATHEXT unused.
//
// Neither looks in the current directory here: a host's is not mcp-inspect's.
type Resolution struct {
	// Command is the command as the config names it.
	Command string
	// Path is the file found with PATHEXT ("" for none).
	Path string
	// Direct is the file found without a shell ("" for none).
	Direct string
}

// ResolveCommand resolves command by both rules of Resolution on Windows; on any other
// OS it returns a Resolution with only Command set.
func ResolveCommand(command string, l CommandLookup) Resolution {
	r := Resolution{Command: command}
	if l.GOOS != "windows" || command == "" || l.IsFile == nil {
		return r
	}
	exts := []string{".com", ".exe", ".bat", ".cmd"}
	if l.PathExt != "" {
		exts = nil
		for _, e := range strings.Split(strings.ToLower(l.PathExt), ";") {
			if e = strings.TrimSpace(e); e != "" {
				if e[0] != '.' {
					e = "." + e
				}
				exts = append(exts, e)
			}
		}
	}
	r.Path = l.find(command, exts)
	r.Direct = l.find(command, []string{".com", ".exe"})
	return r
}

// find looks command up in PATH (or as given when it names a directory): as written when
// it has an extension, then with each of exts appended.
func (l CommandLookup) find(command string, exts []string) string {
	dirs := []string{""}
	if !strings.ContainsAny(command, `:\/`) {
		dirs = nil
		for _, d := range strings.Split(l.Path, ";") {
			if d = strings.Trim(strings.TrimSpace(d), `"`); d != "" {
				dirs = append(dirs, d)
			}
		}
	}
	for _, d := range dirs {
		f := command
		if d != "" {
			f = strings.TrimRight(d, `\/`) + `\` + command
		}
		if fileExt(command) != "" && l.IsFile(f) {
			return f
		}
		for _, e := range exts {
			if l.IsFile(f + e) {
				return f + e
			}
		}
	}
	return ""
}

// fileExt is the extension of the last element of a Windows path, lower-cased ("" for
// none).
func fileExt(p string) string {
	i := strings.LastIndexAny(p, `:\/.`)
	if i < 0 || p[i] != '.' || i == len(p)-1 {
		return ""
	}
	return strings.ToLower(p[i:])
}

// batchExt is ".cmd" or ".bat" when p names a batch file, else "".
func batchExt(p string) string {
	if e := fileExt(p); e == ".cmd" || e == ".bat" {
		return e
	}
	return ""
}

// Batch reports whether the command resolves (with PATHEXT) to a .cmd or .bat file, which
// Windows runs only through cmd.exe.
func (r Resolution) Batch() bool { return batchExt(r.Path) != "" }

// Note says what in r may keep a host of format f (or mcp-inspect) from starting the
// command, or "" when nothing does. Claude Desktop and Claude Code start commands without
// a shell, so they miss a batch file named without its extension (npx for npx.cmd: "spawn
// npx ENOENT") and refuse one named in full (Node 18.20.2, 20.12.2 and later, for
// CVE-2024-27980: EINVAL); the MCP servers' README and Claude Code's own warning ("Windows
// requires 'cmd /c' wrapper to execute npx") say to write cmd /c. VS Code and Cursor find
// batch files themselves (VS Code through a shell, Cursor through cross-spawn): no note. A
// PATHEXT file that is no program (.vbs, .js, ...) is noted for every host: Windows only
// opens it by file association.
func (r Resolution) Note(f Format) string {
	if r.Path == "" {
		return ""
	}
	if e := fileExt(r.Path); e != ".com" && e != ".exe" && batchExt(r.Path) == "" {
		return fmt.Sprintf("%q is %s, which Windows opens by file association and no host or mcp-inspect can start as a program; make its interpreter the command", r.Command, r.Path)
	}
	host := map[Format]string{ClaudeDesktop: "Claude Desktop", ClaudeCode: "Claude Code"}[f]
	if host == "" {
		return ""
	}
	fix := fmt.Sprintf(`write "command": "cmd", "args": ["/c", %q, ...] so that cmd.exe starts it, in every host`, r.Command)
	switch {
	case r.Batch() && r.Direct == "":
		return fmt.Sprintf("%q is %s, a batch file: mcp-inspect finds it through PATHEXT and Windows runs it with cmd.exe, but %s starts commands without a shell, which looks for %s, %s.com and %s.exe only and refuses batch files, so it may not start it; %s",
			r.Command, r.Path, host, r.Command, r.Command, r.Command, fix)
	case r.Batch() && strings.EqualFold(r.Direct, r.Path):
		return fmt.Sprintf("%q is a batch file: mcp-inspect runs it with cmd.exe, but %s starts commands without a shell, and Node (18.20.2 and later) refuses to start batch files that way, so it may not start it; %s", r.Command, host, fix)
	case r.Direct != "" && !strings.EqualFold(r.Direct, r.Path):
		return fmt.Sprintf("%q is %s for mcp-inspect (PATH with PATHEXT) but %s for %s, which tries only .com and .exe: the two start different programs", r.Command, r.Path, r.Direct, host)
	}
	return ""
}
