package cmd

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// framingUsage is the --framing flag's help, shared by every command that talks stdio.
const framingUsage = "stdio message framing: newline (MCP's: one JSON message per line), content-length (LSP-style Content-Length headers, which MCP does not allow but courses teach) or auto (newline until the server writes Content-Length headers, then follow it)"

// registerFraming adds --framing. replay's default is the trace's framing, so there the
// flag starts empty ("" means: as recorded).
func (f *sessionFlags) registerFraming(cmd *cobra.Command, use flagUse) {
	def := string(mcpclient.FramingNewline)
	usage := framingUsage
	if use == forReplay {
		def = ""
		usage += "; default: the trace's"
	}
	cmd.Flags().StringVar(&f.framing, "framing", def, usage)
	cmd.Flags().DurationVar(&f.silence, "silence", mcpclient.DefaultSilence, "a stdio server that leaves a request unanswered this long with nothing on stdout is said to be silent, with what is likely (LSP-style framing, still starting), and --framing auto tries Content-Length; 0 turns it off")
}

// silenceConfig is --silence as mcpclient.Config.Silence (0 there is the default).
func (f *sessionFlags) silenceConfig() time.Duration {
	if f.silence <= 0 {
		return -1
	}
	return f.silence
}

// traceFraming is the trace header's name for a session's framing.
func traceFraming(f mcpclient.Framing) string {
	switch f {
	case mcpclient.FramingContentLength:
		return trace.FramingContentLength
	case mcpclient.FramingAuto:
		return trace.FramingAuto
	}
	return trace.FramingNewline
}
