package platform

import "github.com/atotto/clipboard"

func systemClipboard(text string) (string, error) {
	return "the Windows clipboard", clipboard.WriteAll(text)
}

// hasSystemClipboard says whether this system has a clipboard systemClipboard reaches.
const hasSystemClipboard = true
