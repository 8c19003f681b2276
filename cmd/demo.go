package cmd

import (
	"context"
	"os"
	"os/signal"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/demo"
)

// demoServerCmd is the hidden subcommand `mcp-inspect demo` spawns: the binary itself, serving
// the embedded demo MCP server on stdio.
const demoServerCmd = "__demo-server"

func newDemoCmd() *cobra.Command {
	var flags sessionFlags
	c := &cobra.Command{
		Use:   "demo",
		Short: "Open the TUI on the embedded demo MCP server",
		Long: `demo spawns mcp-inspect itself as a small stdio MCP server (tools with every kind of
argument, an error result, an image, a slow tool with progress, a logging tool, a resource and
a prompt) and opens the TUI on it. Nothing to install.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			self, err := os.Executable()
			if err != nil {
				return &codeError{exitNoServer, "cannot find my own executable to run the demo server: " + err.Error()}
			}
			argv := []string{self, demoServerCmd}
			flags.theme, flags.themeFrom = chosenTheme(cmd.Flags(), flags.theme)
			cfg, err := flags.config(argv)
			if err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			return runTUI(cmd.Context(), cfg, &flags, "mcp-inspect demo")
		},
	}
	flags.register(c, forTUI)
	return c
}

func newDemoServerCmd() *cobra.Command {
	return &cobra.Command{
		Use:    demoServerCmd,
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), platform.StopSignals()...)
			defer stop()
			return demo.Serve(ctx, os.Stdin, os.Stdout, os.Stderr)
		},
	}
}
