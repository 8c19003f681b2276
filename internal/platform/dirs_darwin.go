package platform

import (
	"fmt"
	"os"
	"path/filepath"
)

const maxSocketPath = 104

func stateBase() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "Library", "Application Support"), nil
}

func systemRuntimeDirs() []string {
	var dirs []string
	// $TMPDIR is per user on macOS (/var/folders/…/T/) and private to them.
	if t := os.Getenv("TMPDIR"); t != "" && filepath.IsAbs(t) {
		if d := filepath.Join(t, AppName); SocketPathFits(d) {
			dirs = append(dirs, d)
		}
	}
	return append(dirs, fmt.Sprintf("/tmp/%s-%d", AppName, os.Getuid()))
}
