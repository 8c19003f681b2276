//go:build !linux

package mcpclient

import (
	"errors"
	"os"
	"time"
)

// leaderSupported: caller-reads mode is Linux-only (Config.CallerReads is ignored here).
const leaderSupported = false

var errNoCallerReads = errors.New("caller-reads mode is not supported on this system")

func pollIn(int, time.Duration) (bool, error) { return false, errNoCallerReads }

func readFD(int, []byte) (int, bool, error) { return 0, false, errNoCallerReads }

func closeFD(int) {}

func detach(f *os.File) (int, *os.File) { return int(f.Fd()), f }

func pollerFile(int) (*os.File, error) { return nil, errNoCallerReads }
