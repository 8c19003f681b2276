package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// newTraceExportCmd is `mcp-inspect trace export --format har TRACE` and
// `mcp-inspect trace export --otlp URL TRACE`.
func newTraceExportCmd() *cobra.Command {
	var format, out string
	var ox otlpFlags
	c := &cobra.Command{
		Use:   "export (--format har | --otlp URL) TRACE",
		Short: "Write a remote session's HTTP exchanges as a HAR 1.2 file, or send a session to OpenTelemetry",
		Long: `export writes the HTTP exchanges of a trace of a remote server (Streamable HTTP or
HTTP+SSE) as a HAR 1.2 log, which browser devtools, mitmproxy and HAR viewers open: one entry
per HTTP request with its response's status, headers and body (decoded when it came
compressed; an SSE stream as its frames), and the timings the trace measured. Credential
headers and OAuth credentials in bodies are masked even in a trace written with --no-redact.
The log goes to stdout, or to the file -o names.

With --otlp URL it sends the session (stdio or remote) to an OpenTelemetry receiver over
OTLP/HTTP instead, as the live --otlp does, with the recorded timestamps: a client span per
request with the server span under it, a span per notification, and the
mcp.client.operation.duration and mcp.server.operation.duration metrics
(docs/reference.md "OpenTelemetry"). Bodies are sent only with --otlp-bodies.`,
		Example: `  mcp-inspect trace export --format har session.jsonl -o session.har
  mcp-inspect trace export --otlp http://127.0.0.1:4318 session.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if ox.url != "" {
				if cmd.Flags().Changed("format") || cmd.Flags().Changed("output") {
					return &codeError{exitUsage, "--otlp sends the session to a receiver: it takes neither --format nor -o (those write a HAR file)"}
				}
				return exportOTLP(cmd.Context(), cmd.ErrOrStderr(), args[0], &ox)
			}
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
	ox.add(c.Flags())
	return c
}

// exportOTLP sends the events of the trace at path to the receiver --otlp names, with
// their recorded times, and says how many spans went.
func exportOTLP(ctx context.Context, stderr io.Writer, path string, ox *otlpFlags) error {
	tr, err := openTraceWarn(path, stderr, "mcp-inspect", nil)
	if err != nil {
		return err
	}
	defer tr.Close()
	transport := "pipe"
	if tr.Header.Transport != "" {
		transport = "tcp"
	}
	x, err := ox.start(ctx, transport, false, slog.New(slog.DiscardHandler), headerRedactor(tr.Header))
	if err != nil {
		return err
	}
	for ev, err := range tr.Events() {
		if err == nil {
			x.Observe(ev)
		}
	}
	cctx, cancel := context.WithTimeout(context.Background(), otlpFlushTimeout)
	defer cancel()
	if err := x.Close(cctx); err != nil {
		return errors.New(otlpFailure(ox.url, err))
	}
	fmt.Fprintf(stderr, "mcp-inspect: %d span(s) of %s sent to %s\n", x.Sent(), path, ox.url)
	return nil
}

// bodyMasker masks the bodies --otlp-bodies sends with red (the session's secrets; nil:
// the default rules only), and OAuth credentials, whatever the trace was written with.
func bodyMasker(red *trace.Redactor) func([]byte) []byte {
	if red == nil {
		red, _ = trace.NewRedactor(trace.RedactConfig{}) // fails only on a --redact pattern
	}
	return func(b []byte) []byte {
		if m, ok := trace.OAuthCredentials(b); ok {
			b = m
		}
		m, _ := red.Bytes(b)
		return m
	}
}

// headerRedactor masks what a trace's header names as the session's: its argv and, in a
// trace written with --no-redact, its -e values (the header keeps them then).
func headerRedactor(h trace.Header) *trace.Redactor {
	red, _ := trace.NewRedactor(trace.RedactConfig{Env: h.Env, Argv: h.Argv})
	return red
}
