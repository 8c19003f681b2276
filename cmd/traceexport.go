package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// newTraceExportCmd is `mcp-inspect trace export --format har TRACE`.
func newTraceExportCmd() *cobra.Command {
	var format, out string
	c := &cobra.Command{
		Use:   "export --format har TRACE",
		Short: "Write a remote session's HTTP exchanges as a HAR 1.2 file",
		Long: `export writes the HTTP exchanges of a trace of a remote server (Streamable HTTP or
HTTP+SSE) as a HAR 1.2 log, which browser devtools, mitmproxy and HAR viewers open: one entry
per HTTP request with its response's status, headers and body (decoded when it came
compressed; an SSE stream as its frames), and the timings the trace measured. Credential
headers and OAuth credentials in bodies are masked even in a trace written with --no-redact.
The log goes to stdout, or to the file -o names.`,
		Example: `  mcp-inspect trace export --format har session.jsonl -o session.har`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "har" {
				return &codeError{exitUsage, fmt.Sprintf("--format %q: the one format is har", format)}
			}
			tr, err := openTraceWarn(args[0], cmd.ErrOrStderr(), "mcp-inspect", nil)
			if err != nil {
				return err
			}
			defer tr.Close()
			if tr.Header.Transport == "" {
				return &codeError{exitUsage, args[0] + " is a trace of a stdio server: it has no HTTP exchanges to export"}
			}
			var w io.Writer = cmd.OutOrStdout()
			if out != "" {
				// A new file (mode 0600: a HAR holds bodies and headers) renamed over an
				// existing one, never written through a symlink.
				f, err := platform.CreatePrivate(out, true)
				if err != nil {
					return &codeError{exitUsage, fmt.Sprintf("-o: %v", err)}
				}
				defer f.Close()
				w = f
			}
			n, err := trace.HAR(tr, w, Version())
			if err != nil {
				return &codeError{exitBadTrace, err.Error()}
			}
			if out != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "mcp-inspect: %d HTTP exchange(s) written to %s\n", n, out)
			}
			return nil
		},
	}
	c.Flags().StringVar(&format, "format", "har", "the format: har (HAR 1.2)")
	c.Flags().StringVarP(&out, "output", "o", "", "write to this file instead of stdout")
	return c
}
