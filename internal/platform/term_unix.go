//go:build unix

package platform

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
)

// OpenTerminal opens the process's controlling terminal for reading keys when stdin is
// taken (a trace piped in): /dev/tty.
func OpenTerminal() (*os.File, error) { return os.OpenFile("/dev/tty", os.O_RDWR, 0) }

// URLOpener is the command that opens an http(s) URL in the user's browser: open on
// macOS, xdg-open elsewhere; an error where no browser can show it (no $DISPLAY nor
// $WAYLAND_DISPLAY: an ssh session, a container).
func URLOpener(u string) (*exec.Cmd, error) {
	if runtime.GOOS != "darwin" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil, errors.New("no display")
	}
	return exec.Command(FileViewer(), u), nil
}

// FileViewer is the program that opens a file in the system's viewer for its type:
// open on macOS, xdg-open elsewhere.
func FileViewer() string {
	if runtime.GOOS == "darwin" {
		return "open"
	}
	return "xdg-open"
}
