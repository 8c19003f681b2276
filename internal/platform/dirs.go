package platform

import (
	"os"
	"path/filepath"
	"slices"
)

// AppName is the directory name mcp-inspect's own directories carry.
const AppName = "mcp-inspect"

// xdgDir is $name when it is an absolute path (the XDG Base Directory spec says to ignore
// a relative one), else "".
func xdgDir(name string) string {
	if d := os.Getenv(name); d != "" && filepath.IsAbs(d) {
		return d
	}
	return ""
}

// StateDir is where mcp-inspect keeps its log, kept sessions, argument history, taps'
// traces and OAuth tokens (not created here): $XDG_STATE_HOME/mcp-inspect when
// XDG_STATE_HOME is set and absolute, on every system; else ~/.local/state/mcp-inspect on
// Linux, ~/Library/Application Support/mcp-inspect on macOS (beside the settings file,
// which os.UserConfigDir puts there), %LOCALAPPDATA%\mcp-inspect on Windows (local, not
// roaming: sessions can be large). An error when no home directory is known.
func StateDir() (string, error) {
	if d := xdgDir("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, AppName), nil
	}
	base, err := stateBase()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, AppName), nil
}

// RuntimeDirs are the directories taps publish their sockets in, the first being where a
// tap started now publishes and the rest where `attach` also looks (a tap started by a
// host with another environment may have used them): $XDG_RUNTIME_DIR/mcp-inspect when
// XDG_RUNTIME_DIR is set (hosts often start servers with a bare environment, so it is
// not relied on), then the system's: on Linux /run/user/UID/mcp-inspect when that
// per-user directory is there and private, and /tmp/mcp-inspect-UID; on macOS
// $TMPDIR/mcp-inspect (per user there) when a socket path in it fits, and
// /tmp/mcp-inspect-UID; on Windows %LOCALAPPDATA%\mcp-inspect\run.
func RuntimeDirs() []string {
	var dirs []string
	if d := xdgDir("XDG_RUNTIME_DIR"); d != "" {
		dirs = append(dirs, filepath.Join(d, AppName))
	}
	dirs = append(dirs, systemRuntimeDirs()...)
	out := dirs[:0]
	for _, d := range dirs {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// socketNameRoom is the longest socket file name a tap uses ("tap-" pid ".sock", pid up
// to 10 digits) with its separator.
const socketNameRoom = len("/tap-4294967295.sock")

// SocketPathFits reports whether a Unix socket in dir has a path short enough for the
// system (sun_path: 108 bytes on Linux and Windows, 104 on macOS, the final NUL
// included).
func SocketPathFits(dir string) bool { return len(dir)+socketNameRoom < maxSocketPath }
