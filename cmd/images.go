package cmd

import (
	"fmt"
	"os"

	"github.com/mcp-inspect/mcp-inspect/internal/media"
	"github.com/mcp-inspect/mcp-inspect/ui"
)

// imagesEnv overrides the picture preview the terminal's environment suggests: auto,
// off, blocks, kitty, iterm2 or sixel.
const imagesEnv = "MCP_INSPECT_IMAGES"

// withImages sets how the TUI previews pictures: media.Detect reads TERM, TERM_PROGRAM,
// KITTY_WINDOW_ID and TMUX once, here at start; MCP_INSPECT_IMAGES overrides it (an
// unknown value is said on stderr and ignored).
func withImages(o ui.Options) ui.Options {
	o.ImageProtocol = media.Detect(os.Getenv)
	if v := os.Getenv(imagesEnv); v != "" {
		p, err := media.ParseProtocol(v)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mcp-inspect: %s: %v\n", imagesEnv, err)
		}
		o.ImagePreview = p
	}
	return o
}
