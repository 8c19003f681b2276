// Package configdir finds the user's config directory the way the XDG Base Directory
// spec says (an absolute $XDG_CONFIG_HOME, else ~/.config; a relative $XDG_CONFIG_HOME is
// ignored), on macOS and Windows the system's (os.UserConfigDir). Having none is not an
// error for its callers: no directory means no settings file and no user themes.
package configdir

import (
	"os"
	"path/filepath"
	"runtime"
)

// Dir returns the user's config directory and what chose it ("XDG_CONFIG_HOME", "HOME",
// "the user config directory"), or "" and why there is none. getenv reads the environment
// (os.Getenv).
func Dir(getenv func(string) string) (dir, from, whyNone string) {
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return d, "XDG_CONFIG_HOME", ""
	}
	switch runtime.GOOS {
	case "windows", "darwin", "ios", "plan9":
		d, err := os.UserConfigDir()
		if err != nil {
			return "", "", err.Error()
		}
		return d, "the user config directory", ""
	}
	if h := getenv("HOME"); h != "" && filepath.IsAbs(h) {
		return filepath.Join(h, ".config"), "HOME", ""
	}
	why := "neither $XDG_CONFIG_HOME nor $HOME is set"
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		why = "$XDG_CONFIG_HOME is relative (" + x + "; the XDG spec says to ignore it) and $HOME is not set"
	}
	return "", "", why
}
