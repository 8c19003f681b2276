package ui

import (
	"bytes"

	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
)

// linesHaveControls is sanitize.HasControls for each line of a frame: the line breaks of a
// Content-Length header block or of a pretty-printed message (issue #14) are the framing
// the frame's problems already name, not control characters hidden in it.
func linesHaveControls(raw []byte) bool {
	for len(raw) > 0 {
		i := bytes.IndexByte(raw, '\n')
		if i < 0 {
			return sanitize.HasControls(raw)
		}
		if sanitize.HasControls(raw[:i+1]) {
			return true
		}
		raw = raw[i+1:]
	}
	return false
}
