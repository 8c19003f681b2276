//go:build !darwin && !windows

package platform

// systemClipboard leaves the clipboard to the terminal (OSC 52): X11 and Wayland tools
// differ from desktop to desktop, and most terminals there take OSC 52.
func systemClipboard(string) (string, error) { return "", nil }

// hasSystemClipboard says whether this system has a clipboard systemClipboard reaches.
const hasSystemClipboard = false
