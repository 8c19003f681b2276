//go:build unix

package cmd

import (
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/internal/tmuxtest"
)

// TestTUIMouse sends SGR mouse reports through tmux (send-keys cannot click): a click on
// a tool row, on a tab, and on a form field, as a terminal would report them.
func TestTUIMouse(t *testing.T) {
	bin := testservers.BuildInspector(t)
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir(), "MCP_INSPECT_THEME=", "NO_COLOR=1"}
	s := tmuxtest.Start(t, 140, 30, env, bin, "demo")
	s.WaitFor(t, 20*time.Second, "tools (9)")
	// SGR reports are 1-based: column 4, line 4 is the third row of the list ("add").
	s.SendText("\x1b[<0;4;4M\x1b[<0;4;4m")
	s.WaitFor(t, 10*time.Second, "add — Add two numbers")
	s.Send("Enter")
	s.WaitFor(t, 10*time.Second, "call add — Add two numbers")
	s.SendText("12")
	s.SendText("\x1b[<0;5;6M\x1b[<0;5;6m") // the b field, under a and its description
	s.WaitFor(t, 10*time.Second, "Second addend")
	s.SendText("30")
	s.Send("C-s")
	s.WaitFor(t, 10*time.Second, `{"sum":42}`)
	s.SendText("\x1b[<0;21;1M\x1b[<0;21;1m") // "3 Wire" in the header
	s.WaitFor(t, 10*time.Second, "wire · all")
}
