package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/termout"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

func newTraceCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "trace",
		Short: "Print a recorded session: the wire dump or statistics",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	c.AddCommand(newTraceCatCmd(), newTraceStatsCmd(), newTraceExportCmd())
	return c
}

func newTraceCatCmd() *cobra.Command {
	var raw bool
	var dirs []string
	c := &cobra.Command{
		Use:   "cat TRACE",
		Short: "Print the byte stream as it was on the wire, both directions marked",
		Long: `cat prints every frame of a trace in order, one per line, marked by where it went:

  > client to server     < server to client     ! server stderr     # lifecycle event

On a terminal, control characters and invalid UTF-8 are shown escaped (\xNN). With --raw the
markers go and the bytes are written exactly: --raw --dir c2s is what the client wrote to the
server's stdin, --raw --dir s2c what the server wrote to its stdout. In a trace of a remote
server, --raw alone writes the HTTP exchange exactly (the http> and http< lines: requests,
response heads, bodies and SSE frames).`,
		Example: `  mcp-inspect trace cat session.jsonl
  mcp-inspect trace cat --raw --dir c2s session.jsonl | ./my-server`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			opt := trace.CatOptions{Raw: raw, Escape: !raw && outIsTerminal(out)}
			for _, d := range dirs {
				for _, name := range strings.Split(d, ",") {
					dir, ok := parseDir(name)
					if !ok {
						return &codeError{exitUsage, fmt.Sprintf("--dir %q: want c2s, s2c, stderr, event, http> or http<", name)}
					}
					opt.Dirs = append(opt.Dirs, dir)
				}
			}
			tr, err := openTraceWarn(args[0], cmd.ErrOrStderr(), "mcp-inspect", nil)
			if err != nil {
				return err
			}
			defer tr.Close()
			if err := trace.Cat(tr, out, opt); err != nil {
				return &codeError{exitBadTrace, err.Error()}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&raw, "raw", false, "write the exact bytes, without markers or escaping")
	c.Flags().StringSliceVar(&dirs, "dir", nil, "only these directions: c2s, s2c, stderr, event, and http> and http< in a trace of a remote server (repeatable or comma-separated)")
	return c
}

func parseDir(s string) (mcpclient.Direction, bool) {
	switch strings.TrimSpace(s) {
	case "c2s", ">":
		return mcpclient.ClientToServer, true
	case "s2c", "<":
		return mcpclient.ServerToClient, true
	case "stderr", "!":
		return mcpclient.Stderr, true
	case "event", "#":
		return mcpclient.Lifecycle, true
	case "http>", ">>":
		return mcpclient.HTTPOut, true
	case "http<", "<<":
		return mcpclient.HTTPIn, true
	}
	return 0, false
}

func newTraceStatsCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "stats TRACE",
		Short: "Print counts, methods and latencies (p50/p90/max per method)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tr, err := openTraceWarn(args[0], cmd.ErrOrStderr(), "mcp-inspect", nil)
			if err != nil {
				return err
			}
			defer tr.Close()
			st, err := trace.ComputeStats(tr)
			if err != nil {
				return &codeError{exitBadTrace, err.Error()}
			}
			if asJSON {
				enc := json.NewEncoder(termout.JSONOf(cmd.OutOrStdout()))
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					Header trace.Header `json:"header"`
					*trace.Stats
					Warnings []string `json:"warnings,omitempty"` // an incomplete last line, unreadable lines
				}{tr.Header, st, tr.Warnings})
			}
			return st.WriteText(cmd.OutOrStdout(), &tr.Header)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the statistics as JSON")
	return c
}

// openTraceWarn opens the trace at path ("-": stdin) as openTrace does (failures are exit
// code 2) and writes each of the reader's warnings about it (an incomplete last line,
// unreadable lines) to stderr, one line each, "PROG: PATH: WARNING", and to logger when it
// is not nil. prog names the command speaking: "mcp-inspect", "mcp-inspect mock".
func openTraceWarn(path string, stderr io.Writer, prog string, logger *slog.Logger) (*trace.Trace, error) {
	tr, err := openTrace(path)
	if err != nil {
		return nil, err
	}
	for _, msg := range tr.Warnings {
		fmt.Fprintf(stderr, "%s: %s: %s\n", prog, path, msg)
		if logger != nil {
			logger.Warn("trace", "path", path, "warning", msg)
		}
	}
	return tr, nil
}
