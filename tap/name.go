package tap

import (
	"path/filepath"
	"strings"
)

// launchers are commands whose first argument, not themselves, names the server.
var launchers = map[string]bool{
	"npx": true, "node": true, "bunx": true, "bun": true, "deno": true, "pnpm": true, "pnpx": true, "yarn": true,
	"uvx": true, "uv": true, "python": true, "python3": true, "pipx": true, "docker": true, "podman": true,
	"go": true, "java": true, "ruby": true, "php": true, "dotnet": true,
}

// subcommands are launcher verbs skipped when looking for the server's name.
var subcommands = map[string]bool{"run": true, "exec": true, "dlx": true, "x": true, "start": true}

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
	if base := strings.TrimSuffix(name, ".exe"); launchers[base] {
		args := argv[1:]
		var cands []string
		for _, a := range args {
			if a != "" && !strings.HasPrefix(a, "-") && !subcommands[a] {
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
