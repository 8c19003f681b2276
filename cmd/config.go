package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"

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
	file, err := hostconfig.Load(s.file, hostOptions())
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

// hostOptions are the options host config files are read with here: commands are checked
// as this OS finds programs (on Windows, a batch file a Claude host may not start is noted).
func hostOptions() hostconfig.Options {
	return hostconfig.Options{Commands: &hostconfig.CommandLookup{
		GOOS: runtime.GOOS, Path: os.Getenv("PATH"), PathExt: os.Getenv("PATHEXT"),
		IsFile: func(p string) bool {
			st, err := os.Stat(p)
			return err == nil && st.Mode().IsRegular()
		},
	}}
}

// machineHosts describes this machine to hostconfig.Locations. A directory that cannot
// be known stays "" and its files are left out.
func machineHosts() hostconfig.Env {
	home, _ := os.UserHomeDir()
	cfg, _ := os.UserConfigDir()
	cwd, _ := os.Getwd()
	return hostconfig.Env{GOOS: runtime.GOOS, Home: home, ConfigDir: cfg, Cwd: cwd, Getenv: os.Getenv}
}

// newServersCmd is `mcp-inspect servers [--config FILE]`: the entries of a host config, or
// of every host config found on this machine.
func newServersCmd() *cobra.Command {
	var file string
	var asJSON bool
	c := &cobra.Command{
		Use:   "servers [--config FILE]",
		Short: "List the MCP servers of the Claude Desktop, Claude Code, Cursor and VS Code config files here, or of one",
		Long: `servers lists the server entries of a host's config file, in file order: name, type and
command line. Disabled entries are marked, and notes say what mcp-inspect could not resolve as
the host would. Only stdio and http/sse entries can be opened; pick one with --config FILE
--server NAME on any other command (the TUI, tools, call, ...).

Without --config it lists every host config file found on this machine, each under a line
naming the host and the file: Claude Desktop, Claude Code (~/.claude.json, .mcp.json), Cursor
(~/.cursor/mcp.json, .cursor/mcp.json) and VS Code (the user mcp.json, .vscode/mcp.json), the
project files in the current directory. Files with no servers are skipped, and when none is
listed stderr says where it looked. --json then prints an array of the files' documents.

Formats: Claude Desktop (claude_desktop_config.json, "mcpServers"), Claude Code (.mcp.json,
${VAR} and ${VAR:-default}), Cursor (.cursor/mcp.json, ${env:NAME}, ${userHome},
${workspaceFolder}), VS Code (.vscode/mcp.json or settings.json "mcp": "servers", "type",
${env:NAME}, ${workspaceFolder}, envFile; "inputs" are not prompted for). Comments and
trailing commas are allowed.`,
		Example: `  mcp-inspect servers
  mcp-inspect servers --config ~/Library/Application\ Support/Claude/claude_desktop_config.json
  mcp-inspect servers --config .vscode/mcp.json --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return listHostServers(cmd.OutOrStdout(), cmd.ErrOrStderr(), machineHosts(), asJSON)
			}
			f, err := hostconfig.Load(file, hostOptions())
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

// fileJSON is one file in `servers --json`: with --config the document itself, without it
// an element of the array, which names the host and, for a file that could not be read,
// the error.
type fileJSON struct {
	Host    string       `json:"host,omitempty"`
	Path    string       `json:"path"`
	Format  string       `json:"format"`
	Servers []serverJSON `json:"servers"`
	Notes   []string     `json:"notes"`
	Error   string       `json:"error,omitempty"`
}

func fileDoc(f *hostconfig.File) fileJSON {
	doc := fileJSON{Path: f.Path, Format: string(f.Format), Servers: []serverJSON{}, Notes: nonNil(f.Notes)}
	for _, s := range f.Servers {
		doc.Servers = append(doc.Servers, serverJSON{
			Name: s.Name, Type: s.Type, Command: s.Command, Args: nonNil(s.Args), EnvKeys: nonNil(envKeys(s.Env)),
			Cwd: s.Cwd, URL: s.URL, Disabled: s.Disabled, Stdio: s.Stdio(), Notes: nonNil(s.Notes),
		})
	}
	return doc
}

// listHostServers is `servers` without --config: the files of hostconfig.Locations(env)
// that exist, each under a "HOST: PATH" line (--json: an array of fileJSON). A file with
// no servers object is named on stderr only, one that cannot be read is an error there
// (and an element with "error" in the array); when no file is listed, stderr says which
// locations were looked at. Nothing here fails the command.
func listHostServers(stdout, stderr io.Writer, env hostconfig.Env, asJSON bool) error {
	safe := terminalSafe(stderr)
	docs := []fileJSON{}
	var files []*hostconfig.File
	var hosts []string
	for _, l := range hostconfig.Locations(env) {
		if _, err := os.Stat(l.Path); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		f, err := hostconfig.Load(l.Path, hostOptions())
		switch {
		case errors.Is(err, hostconfig.ErrNoServers):
			what := "has no MCP servers"
			if filepath.Base(l.Path) == ".claude.json" {
				// Claude Code's default (local) scope keeps servers under "projects".
				what = `has no user-scope MCP servers (its per-project ones, under "projects", are not read)`
			}
			fmt.Fprintf(stderr, "mcp-inspect: note: %s (%s) %s\n", safe(l.Path), l.Host, what)
			continue
		case err != nil:
			fmt.Fprintf(stderr, "mcp-inspect: %s: %s\n", l.Host, safe(err.Error()))
			docs = append(docs, fileJSON{Host: l.Host, Path: l.Path, Format: string(l.Format), Servers: []serverJSON{}, Notes: []string{}, Error: err.Error()})
			continue
		}
		doc := fileDoc(f)
		doc.Host = l.Host
		docs = append(docs, doc)
		files, hosts = append(files, f), append(hosts, l.Host)
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "mcp-inspect: no host config file with MCP servers here; looked at:")
		for _, l := range hostconfig.Locations(env) {
			fmt.Fprintf(stderr, "  %s: %s\n", l.Host, safe(l.Path))
		}
	}
	if asJSON {
		return writeJSON(stdout, docs)
	}
	out := terminalSafe(stdout)
	for i, f := range files {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s: %s\n", hosts[i], out(f.Path))
		if err := writeServers(stdout, f, false); err != nil {
			return err
		}
	}
	return nil
}

func writeServers(w io.Writer, f *hostconfig.File, asJSON bool) error {
	if asJSON {
		return writeJSON(w, fileDoc(f))
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
	for _, s := range f.Servers {
		for _, n := range s.Notes {
			fmt.Fprintf(w, "note: server %q: %s\n", safe(s.Name), safe(n))
		}
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// writeJSON writes v as indented JSON and a newline, without HTML escaping. A server's
// invalid UTF-8 passes through json.RawMessage as it came (the warnings name the bytes);
// JSON must be UTF-8 (RFC 8259 §8.1), and a strict reader would refuse the whole document.
// Such bytes can only sit inside strings, where U+FFFD keeps the document valid, as
// encoding/json does for Go strings. The compact encoding is indented on its way out, so a
// big result is not copied again (issue 26).
func writeJSON(w io.Writer, v any) error {
	iw := newIndentWriter(termout.JSONOf(w)) // \uXXXX for what a terminal would act on
	enc := json.NewEncoder(iw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return iw.flush()
}
