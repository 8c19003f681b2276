//go:build unix && !linux && !darwin

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
	return filepath.Join(home, ".local", "state"), nil
}

func systemRuntimeDirs() []string {
	return []string{fmt.Sprintf("/tmp/%s-%d", AppName, os.Getuid())}
}
