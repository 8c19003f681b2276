package platform

import (
	"fmt"
	"os"
	"path/filepath"
)

const maxSocketPath = 108

func systemRuntimeDirs() []string {
	var dirs []string
	run := fmt.Sprintf("/run/user/%d", os.Getuid())
	if CheckPrivateDir(run) == nil {
		dirs = append(dirs, filepath.Join(run, AppName))
	}
	return append(dirs, fmt.Sprintf("/tmp/%s-%d", AppName, os.Getuid()))
}
