package platform

import "os"

// SystemClipboard puts text on the system clipboard where the terminal's own (OSC 52) may
// not reach it: on macOS through pbcopy (Terminal.app has no OSC 52), on Windows through
// the Windows clipboard (the classic console has none either). It does nothing (via "")
// elsewhere, and in an SSH session, where this machine's clipboard is not the user's.
// via names what took the text ("pbcopy", "the Windows clipboard"); err says why it failed.
func SystemClipboard(text string) (via string, err error) {
	if !HasSystemClipboard() {
		return "", nil
	}
	return systemClipboard(text)
}

// HasSystemClipboard reports whether SystemClipboard reaches one: on macOS and Windows,
// outside an SSH session (whose clipboard is the remote machine's). A caller that must
// build a big copy for it first asks.
func HasSystemClipboard() bool {
	return hasSystemClipboard && os.Getenv("SSH_CONNECTION") == "" && os.Getenv("SSH_TTY") == ""
}
