package platform

import (
	"os"
	"os/exec"
)

// OpenTerminal opens the console's input for reading keys when stdin is taken (a trace
// piped in): CONIN$.
func OpenTerminal() (*os.File, error) { return os.OpenFile("CONIN$", os.O_RDWR, 0) }

// URLOpener is the command that opens an http(s) URL in the user's browser: the shell's
// URL protocol handler, which takes the URL as one argument (cmd /c start would read &
// and ^ in it).
func URLOpener(u string) (*exec.Cmd, error) {
	return exec.Command("rundll32.exe", "url.dll,FileProtocolHandler", u), nil
}

// FileViewer is the program that opens a file in the system's viewer for its type:
// explorer.exe given a file's path opens it with the file type's default program.
func FileViewer() string { return "explorer.exe" }
