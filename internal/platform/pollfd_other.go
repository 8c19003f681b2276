//go:build !linux

package platform

import (
	"errors"
	"os"
	"time"
)

// PollSupported: caller-reads mode is Linux-only (mcpclient's Config.CallerReads is
// ignored elsewhere).
const PollSupported = false

func errNoPoll() error { return errors.New("caller-reads mode is not supported on this system") }

// PollIn is not supported here.
func PollIn(int, time.Duration) (bool, error) { return false, errNoPoll() }

// ReadFD is not supported here.
func ReadFD(int, []byte) (int, bool, error) { return 0, false, errNoPoll() }

// CloseFD does nothing here.
func CloseFD(int) {}

// DetachFD keeps f: no descriptor of its own.
func DetachFD(f *os.File) (int, *os.File) { return int(f.Fd()), f }

// PollerFile is not supported here.
func PollerFile(int) (*os.File, error) { return nil, errNoPoll() }
