//go:build unix && !darwin

package platform

import (
	"os"
	"path/filepath"
)

// stateBase is the XDG Base Directory spec's default state home, ~/.local/state.
func stateBase() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "state"), nil
}
