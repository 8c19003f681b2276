package cmd

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// newManCmd is `mcp-inspect man`: man pages generated from the command tree.
func newManCmd() *cobra.Command {
	var dir string
	c := &cobra.Command{
		Use:   "man [--dir DIR]",
		Short: "Write mcp-inspect's man pages (section 1), generated from its commands",
		Long: `man writes the man page of mcp-inspect to stdout, or with --dir one page per command
(mcp-inspect.1, mcp-inspect-call.1, ...) into DIR. SOURCE_DATE_EPOCH fixes the date.
Shell completion is "mcp-inspect completion bash|zsh|fish|powershell".`,
		Example: `  mcp-inspect man | man -l -
  mcp-inspect man --dir /usr/local/share/man/man1`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root := cmd.Root()
			root.DisableAutoGenTag = true
			header := &doc.GenManHeader{Title: "MCP-INSPECT", Section: "1", Source: "mcp-inspect " + Version(), Manual: "mcp-inspect manual"}
			if dir == "" {
				return doc.GenMan(root, header, cmd.OutOrStdout())
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			if err := doc.GenManTree(root, header, dir); err != nil {
				return &codeError{exitUsage, fmt.Sprintf("writing man pages to %s: %v", dir, err)}
			}
			return nil
		},
	}
	c.Flags().StringVar(&dir, "dir", "", "write one page per command into `DIR`")
	return c
}
