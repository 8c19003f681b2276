package platform

import (
	"errors"
	"os"
	"path/filepath"
)

const maxSocketPath = 108

// localAppData is %LOCALAPPDATA% (C:\Users\NAME\AppData\Local).
func localAppData() (string, error) {
	if d := os.Getenv("LOCALAPPDATA"); d != "" && filepath.IsAbs(d) {
		return d, nil
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, "AppData", "Local"), nil
	}
	return "", errors.New("%LOCALAPPDATA% is not set and no user profile directory is known")
}

func stateBase() (string, error) { return localAppData() }

// systemRuntimeDirs: AF_UNIX sockets work on Windows 10 1803 and later; they live in the
// user's profile, which only the user (and administrators) can reach.
func systemRuntimeDirs() []string {
	d, err := localAppData()
	if err != nil {
		return []string{filepath.Join(os.TempDir(), AppName+"-run")}
	}
	return []string{filepath.Join(d, AppName, "run")}
}
