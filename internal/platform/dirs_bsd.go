//go:build unix && !linux && !darwin

package platform

import (
	"fmt"
	"os"
)

const maxSocketPath = 104

func systemRuntimeDirs() []string {
	return []string{fmt.Sprintf("/tmp/%s-%d", AppName, os.Getuid())}
}
