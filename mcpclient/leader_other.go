//go:build !linux

package mcpclient

import (
	"errors"
	"os"
	"time"
)

// leaderSupported: caller-reads mode is Linux-only (Config.CallerReads is ignored here).
const leaderSupported = false

func pollIn(int, time.Duration) (bool, error) {
	return false, errors.New("caller-reads mode is not supported on this system")
}

func detach(f *os.File) (int, *os.File) { return int(f.Fd()), f }

func pollerFile(int) (*os.File, error) {
	return nil, errors.New("caller-reads mode is not supported on this system")
}
