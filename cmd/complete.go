package cmd

import (
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/internal/hostconfig"
	"github.com/mcp-inspect/mcp-inspect/internal/settings"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// registerCompletions makes the shells complete flag values (cobra's __complete, used by
// the scripts of mcp-inspect completion bash|zsh|fish|powershell) on every command that
// takes the flag: --server (the entries of --config, else the settings file's profiles),
// --theme, --era, --framing, --transport and check's --skip (the rule ids, each with its
// level and title).
func registerCompletions(root *cobra.Command) {
	fixed := func(vals ...string) cobra.CompletionFunc {
		return cobra.FixedCompletions(vals, cobra.ShellCompDirectiveNoFileComp)
	}
	funcs := map[string]cobra.CompletionFunc{
		"server": completeServers,
		"theme": func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			// Built-in themes, then the user's theme files (NAME.toml in the config directory)
			// that a built-in does not shadow.
			names := themes.Names()
			for _, n := range themes.UserNames(userThemeDir()) {
				if !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		"era":       fixed("legacy\tinitialize (MCP up to 2025-11-25)", "modern\tserver/discover (2026-07-28)", "auto\tprobe server/discover, fall back to legacy"),
		"framing":   fixed("newline\tnewline-delimited JSON (MCP stdio)", "content-length\tLSP-style Content-Length headers", "auto\tfollow what the server writes"),
		"transport": fixed("auto\tStreamable HTTP, falling back to HTTP+SSE", "http\tStreamable HTTP", "sse\tHTTP+SSE (2024-11-05)"),
		"skip":      completeRules,
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, fn := range funcs {
			if c.LocalFlags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, fn)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completeRules lists the rule ids check --skip takes, with their level and title.
func completeRules(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, r := range check.Rules() {
		out = append(out, cobra.CompletionWithDesc(r.ID, string(r.Level)+": "+r.Title))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeServers lists the server names --server can take: the entries of the --config
// file when one is given, else the profiles of the settings file, each with its command
// line or URL as the description. A file that cannot be read completes nothing.
func completeServers(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	if file, _ := cmd.Flags().GetString("config"); file != "" {
		f, err := hostconfig.Load(file, hostconfig.Options{})
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		for _, s := range f.Servers {
			out = append(out, cobra.CompletionWithDesc(s.Name, describe(s.Command, s.Args, s.URL)))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
	loc, err := settings.Locate(os.Getenv)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	s, err := settings.Load(loc, settings.Checks{})
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	for _, p := range s.Servers {
		out = append(out, cobra.CompletionWithDesc(p.Name, describe(p.Command, p.Args, p.URL)))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// describe is a completion's description: the command line or the URL.
func describe(command string, args []string, url string) string {
	if command == "" {
		return url
	}
	return lineQuoting().Join(append([]string{command}, args...))
}
