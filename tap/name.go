package tap

import (
	"path/filepath"
	"strings"
)

// launcher reports whether a command's first argument, not the command, names the server.
func launcher(base string) bool {
	switch base {
	case "npx", "node", "bunx", "bun", "deno", "pnpm", "pnpx", "yarn", "uvx", "uv", "python", "python3",
		"pipx", "docker", "podman", "go", "java", "ruby", "php", "dotnet":
		return true
	}
	return false
}

// launcherVerb reports whether an argument is a launcher's verb ("uv run"), skipped when
// looking for the server's name.
func launcherVerb(arg string) bool {
	switch arg {
	case "run", "exec", "dlx", "x", "start":
		return true
	}
	return false
}

// DefaultName names a tap after its server: the command's base name, or for a launcher
// (npx, node, uvx, python, ...) the first argument that is neither a flag nor a verb such
// as "run" (for docker and podman the last one: the image), without its npm scope, version
// or file extension. "npx -y @modelcontextprotocol/server-everything" gives
// "server-everything".
func DefaultName(argv []string) string {
	if len(argv) == 0 {
		return "tap"
	}
	name := filepath.Base(argv[0])
	if base := strings.TrimSuffix(name, ".exe"); launcher(base) {
		args := argv[1:]
		var cands []string
		for _, a := range args {
			if a != "" && !strings.HasPrefix(a, "-") && !launcherVerb(a) {
				cands = append(cands, a)
			}
		}
		if len(cands) > 0 {
			name = cands[0]
			if base == "docker" || base == "podman" {
				name = cands[len(cands)-1]
			}
		}
	}
	if i := strings.LastIndexByte(name, '/'); i >= 0 && i < len(name)-1 {
		name = name[i+1:]
	}
	if i := strings.LastIndexByte(name, '@'); i > 0 {
		name = name[:i]
	}
	name = strings.TrimPrefix(name, "@")
	for _, ext := range []string{".js", ".mjs", ".cjs", ".ts", ".py", ".jar", ".exe"} {
		name = strings.TrimSuffix(name, ext)
	}
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, name)
	if len(name) > 64 {
		name = name[:64]
	}
	if strings.Trim(name, "._") == "" {
		return "tap"
	}
	return name
}
