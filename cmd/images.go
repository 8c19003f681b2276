package cmd

import (
	"fmt"
	"os"

	"github.com/mcp-inspect/mcp-inspect/internal/media"
)

// imagesEnv overrides the picture preview the terminal's environment suggests: auto,
// off, blocks, kitty, iterm2 or sixel.
const imagesEnv = "MCP_INSPECT_IMAGES"

// imageProtocols is how the TUI previews pictures (ui.Options ImageProtocol and
// ImagePreview): media.Detect reads TERM, TERM_PROGRAM, KITTY_WINDOW_ID and TMUX once,
// here at start; MCP_INSPECT_IMAGES overrides it (an unknown value is said on stderr and
// ignored).
func imageProtocols() (detected, override media.Protocol) {
	detected = media.Detect(os.Getenv)
	if v := os.Getenv(imagesEnv); v != "" {
		p, err := media.ParseProtocol(v)
		if err != nil {
			fmt.Fprintf(humanStderr(), "mcp-inspect: %s: %v\n", imagesEnv, err)
		}
		override = p
	}
	return detected, override
}
