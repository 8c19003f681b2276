package platform

import "github.com/atotto/clipboard"

func systemClipboard(text string) (string, error) { return "pbcopy", clipboard.WriteAll(text) }
