package cmd

import (
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/media"
)

// The TUI's picture preview comes from the environment at start, MCP_INSPECT_IMAGES
// overriding it; an unknown value leaves the detection in charge.
func TestImageProtocols(t *testing.T) {
	for _, k := range []string{"TMUX", "TERM_PROGRAM", "LC_TERMINAL", "KITTY_WINDOW_ID"} {
		t.Setenv(k, "")
	}
	t.Setenv("TERM", "xterm-kitty")
	t.Setenv(imagesEnv, "")
	if det, ovr := imageProtocols(); det != media.Kitty || ovr != media.Auto {
		t.Errorf("kitty, no override: %q %q", det, ovr)
	}
	t.Setenv(imagesEnv, "blocks")
	if det, ovr := imageProtocols(); det != media.Kitty || ovr != media.Blocks {
		t.Errorf("override blocks: %q %q", det, ovr)
	}
	t.Setenv(imagesEnv, "pictures-please")
	if _, ovr := imageProtocols(); ovr != media.Auto {
		t.Errorf("an unknown override: %q, want auto", ovr)
	}
}
