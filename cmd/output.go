package cmd

import (
	"io"
	"os"

	"github.com/mcp-inspect/mcp-inspect/internal/termout"
)

// humanStdout is where human-readable output goes when no cobra command is at hand: stdout
// through termout, so a server's text is escaped on a terminal (issue 15). Commands use
// cmd.OutOrStdout(), which Execute sets to the same kind of writer; TestOutputGoesThroughTermout
// keeps os.Stdout and os.Stderr out of every other place.
func humanStdout() io.Writer { return termout.New(os.Stdout) }

// humanStderr is humanStdout for stderr.
func humanStderr() io.Writer { return termout.New(os.Stderr) }

// outIsTerminal reports whether w is a termout writer whose destination is a terminal.
func outIsTerminal(w io.Writer) bool {
	tw, ok := w.(*termout.Writer)
	return ok && tw.Terminal()
}
