package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcp-inspect/mcp-inspect/internal/hostconfig"
	"github.com/mcp-inspect/mcp-inspect/internal/termout"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// serverSource is --config FILE --server NAME: a server entry of a host's config file
// (Claude Desktop, Claude Code, Cursor, VS Code) used instead of COMMAND [ARGS...].
type serverSource struct {
	file string
	name string
}

func (s *serverSource) register(fl *pflag.FlagSet) {
	fl.StringVar(&s.file, "config", "", "read the server from a Claude Desktop, Claude Code, Cursor or VS Code config `FILE` instead of COMMAND")
	fl.StringVar(&s.name, "server", "", "the `NAME` of the server entry in --config (may be left out when the file has one server); without --config, a server profile of the settings file (mcp-inspect settings)")
}

// resolve builds the session's Config from COMMAND [ARGS...] or from the config entry, and
// a title for it. Notes about the entry (unresolved variables, a disabled entry) are written
// to stderr as warnings. -e adds to the entry's env and wins over it; --cwd wins over its cwd.
func (s *serverSource) resolve(f *sessionFlags, argv []string, stderr io.Writer) (mcpclient.Config, string, error) {
	if s.file == "" {
		if s.name != "" {
			return s.profileConfig(f, argv)
		}
		if len(argv) == 0 {
			return mcpclient.Config{}, "", fmt.Errorf("no server command given (COMMAND [ARGS...] after --, a server URL, or --config FILE --server NAME)")
		}
		cfg, err := f.config(argv)
		return cfg, strings.Join(argv, " "), err
	}
	if len(argv) > 0 {
		return mcpclient.Config{}, "", fmt.Errorf("give either --config/--server or a server COMMAND, not both (got %q)", strings.Join(argv, " "))
	}
	file, err := hostconfig.Load(s.file, hostconfig.Options{})
	if err != nil {
		return mcpclient.Config{}, "", fmt.Errorf("--config: %w", err)
	}
	var entry *hostconfig.Server
	switch {
	case s.name != "":
		entry, err = file.Lookup(s.name)
		if err != nil {
			return mcpclient.Config{}, "", fmt.Errorf("--server: %w", err)
		}
	case len(file.Servers) == 1:
		entry = &file.Servers[0]
	default:
		_, err := file.Lookup("")
		return mcpclient.Config{}, "", fmt.Errorf("--config %s: say which server with --server NAME (%v)", s.file, strings.TrimPrefix(err.Error(), file.Path+" has no server \"\"; "))
	}
	if entry.Remote() {
		f.headers = append(append([]string(nil), entry.Headers...), f.headers...)
		if entry.Type == "sse" && (f.transport == "" || f.transport == "auto") {
			f.transport = "sse"
		}
		cfg, err := f.config([]string{entry.URL})
		return cfg, entry.Name + " (" + s.file + ")", err
	}
	if !entry.Stdio() {
		where := entry.URL
		if where == "" {
			where = "no command"
		}
		return mcpclient.Config{}, "", fmt.Errorf("server %q in %s is a %q server (%s): mcp-inspect reaches stdio servers and http, streamable-http or sse servers with a url", entry.Name, s.file, entry.Type, where)
	}
	for _, n := range file.Notes {
		fmt.Fprintf(stderr, "mcp-inspect: note: %s: %s\n", s.file, n)
	}
	for _, n := range entry.Notes {
		fmt.Fprintf(stderr, "mcp-inspect: note: %s: server %q: %s\n", s.file, entry.Name, n)
	}
	if entry.Disabled {
		fmt.Fprintf(stderr, "mcp-inspect: note: server %q is disabled in %s; starting it anyway\n", entry.Name, s.file)
	}
	cfg, err := f.config(append([]string{entry.Command}, entry.Args...))
	if err != nil {
		return cfg, "", err
	}
	cfg.Env = append(append([]string(nil), entry.Env...), f.env...)
	if f.cwd == "" && entry.Cwd != "" {
		if st, err := os.Stat(entry.Cwd); err != nil || !st.IsDir() {
			return cfg, "", fmt.Errorf("server %q in %s: cwd %q is not a directory", entry.Name, s.file, entry.Cwd)
		}
		cfg.Dir = entry.Cwd
	}
	return cfg, entry.Name + " (" + s.file + ")", nil
}

// newServersCmd is `mcp-inspect servers --config FILE`: the entries of a host config.
func newServersCmd() *cobra.Command {
	var file string
	var asJSON bool
	c := &cobra.Command{
		Use:   "servers --config FILE",
		Short: "List the MCP servers of a Claude Desktop, Claude Code, Cursor or VS Code config file",
		Long: `servers lists the server entries of a host's config file, in file order: name, type and
command line. Disabled entries are marked. Only stdio entries can be opened; pick one with
--config FILE --server NAME on any other command (the TUI, tools, call, ...).

Formats: Claude Desktop (claude_desktop_config.json, "mcpServers"), Claude Code (.mcp.json,
${VAR} and ${VAR:-default}), Cursor (.cursor/mcp.json, ${env:NAME}, ${userHome},
${workspaceFolder}), VS Code (.vscode/mcp.json or settings.json "mcp": "servers", "type",
${env:NAME}, ${workspaceFolder}, envFile; "inputs" are not prompted for). Comments and
trailing commas are allowed.`,
		Example: `  mcp-inspect servers --config ~/Library/Application\ Support/Claude/claude_desktop_config.json
  mcp-inspect servers --config .vscode/mcp.json --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return &codeError{exitUsage, "servers needs --config FILE"}
			}
			f, err := hostconfig.Load(file, hostconfig.Options{})
			if err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			return writeServers(cmd.OutOrStdout(), f, asJSON)
		},
	}
	c.Flags().StringVar(&file, "config", "", "the config `FILE`")
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON document")
	return c
}

// serverJSON is one entry in `servers --json`.
type serverJSON struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Command  string   `json:"command,omitempty"`
	Args     []string `json:"args"`
	EnvKeys  []string `json:"envKeys"`
	Cwd      string   `json:"cwd,omitempty"`
	URL      string   `json:"url,omitempty"`
	Disabled bool     `json:"disabled"`
	Stdio    bool     `json:"stdio"`
	Notes    []string `json:"notes"`
}

func writeServers(w io.Writer, f *hostconfig.File, asJSON bool) error {
	if asJSON {
		doc := struct {
			Path    string       `json:"path"`
			Format  string       `json:"format"`
			Servers []serverJSON `json:"servers"`
			Notes   []string     `json:"notes"`
		}{f.Path, string(f.Format), []serverJSON{}, nonNil(f.Notes)}
		for _, s := range f.Servers {
			doc.Servers = append(doc.Servers, serverJSON{
				Name: s.Name, Type: s.Type, Command: s.Command, Args: nonNil(s.Args), EnvKeys: nonNil(envKeys(s.Env)),
				Cwd: s.Cwd, URL: s.URL, Disabled: s.Disabled, Stdio: s.Stdio(), Notes: nonNil(s.Notes),
			})
		}
		return writeJSON(w, doc)
	}
	safe := terminalSafe(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "NAME\tTYPE\tCOMMAND\n")
	for _, s := range f.Servers {
		line := s.URL
		if s.Command != "" {
			line = lineQuoting().Join(append([]string{s.Command}, s.Args...))
		}
		name := s.Name
		if s.Disabled {
			name += " (disabled)"
		}
		typ := s.Type
		if !s.Stdio() && !s.Remote() {
			typ += " (not supported)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", safe(name), safe(typ), safe(line))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range f.Notes {
		fmt.Fprintf(w, "note: %s\n", safe(n))
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// writeJSON writes v as indented JSON and a newline, without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	w = termout.JSONOf(w) // \uXXXX for what a terminal would act on
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	out := buf.Bytes()
	if !utf8.Valid(out) {
		// A server's invalid UTF-8 passes through json.RawMessage as it came (the warnings
		// name the bytes); JSON must be UTF-8 (RFC 8259 §8.1), and a strict reader would
		// refuse the whole document. Such bytes can only sit inside strings, where U+FFFD
		// keeps the document valid, as encoding/json does for Go strings.
		out = bytes.ToValidUTF8(out, []byte("\uFFFD"))
	}
	_, err := w.Write(out)
	return err
}
