package platform

import (
	"errors"

	"golang.org/x/sys/windows"
)

// IsConnRefused reports whether err is a refused connection (WSAECONNREFUSED; syscall's
// ECONNREFUSED never matches on Windows).
func IsConnRefused(err error) bool { return errors.Is(err, windows.WSAECONNREFUSED) }

// IsConnReset reports whether err is a connection reset by the peer (WSAECONNRESET), or
// aborted by this side's stack (WSAECONNABORTED), which Windows gives where Unix says reset.
func IsConnReset(err error) bool {
	return errors.Is(err, windows.WSAECONNRESET) || errors.Is(err, windows.WSAECONNABORTED)
}
