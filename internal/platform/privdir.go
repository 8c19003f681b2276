package platform

import (
	"fmt"
	"os"
)

// mkdirStat creates dir and its missing parents (mode 0700 where modes apply) and returns
// what it is; a path that is no directory is an error. EnsurePrivateDir's first step on
// every system.
func mkdirStat(dir string) (os.FileInfo, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	return st, nil
}
