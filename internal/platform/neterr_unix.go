//go:build unix

package platform

import (
	"errors"
	"syscall"
)

// IsConnRefused reports whether err is a refused connection (nothing listens there).
func IsConnRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// IsConnReset reports whether err is a connection reset by the peer.
func IsConnReset(err error) bool { return errors.Is(err, syscall.ECONNRESET) }
