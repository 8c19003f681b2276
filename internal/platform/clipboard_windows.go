package platform

import "github.com/atotto/clipboard"

func systemClipboard(text string) (string, error) {
	return "the Windows clipboard", clipboard.WriteAll(text)
}
