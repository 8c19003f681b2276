//go:build unix

package platform

import (
	"os"
	"os/exec"
	"runtime"
)

// OpenTerminal opens the process's controlling terminal for reading keys when stdin is
// taken (a trace piped in): /dev/tty.
func OpenTerminal() (*os.File, error) { return os.OpenFile("/dev/tty", os.O_RDWR, 0) }

// URLOpener is the command that opens an http(s) URL in the user's browser: open on
// macOS, xdg-open elsewhere.
func URLOpener(u string) *exec.Cmd { return exec.Command(FileViewer(), u) }

// FileViewer is the program that opens a file in the system's viewer for its type:
// open on macOS, xdg-open elsewhere.
func FileViewer() string {
	if runtime.GOOS == "darwin" {
		return "open"
	}
	return "xdg-open"
}
