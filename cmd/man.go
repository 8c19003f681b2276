package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
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
				var b bytes.Buffer
				if err := doc.GenMan(root, header, &b); err != nil {
					return err
				}
				_, err := cmd.OutOrStdout().Write(withManSections(b.Bytes()))
				return err
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			if err := doc.GenManTree(root, header, dir); err != nil {
				return &codeError{exitUsage, fmt.Sprintf("writing man pages to %s: %v", dir, err)}
			}
			// The main page gains KEYS, FILTER EXPRESSIONS, EXIT STATUS, ENVIRONMENT and FILES.
			main := filepath.Join(dir, root.Name()+".1")
			b, err := os.ReadFile(main)
			if err == nil {
				err = os.WriteFile(main, withManSections(b), 0o644)
			}
			if err != nil {
				return &codeError{exitUsage, fmt.Sprintf("writing man pages to %s: %v", dir, err)}
			}
			return nil
		},
	}
	c.Flags().StringVar(&dir, "dir", "", "write one page per command into `DIR`")
	return c
}

// filterSection is roff: the wire filter language (F in the Wire pane, the flags that
// take a filter), from internal/wirefilter's table of terms.
func filterSection() string {
	esc := func(s string) string { return strings.ReplaceAll(s, `\`, `\e`) }
	var b strings.Builder
	b.WriteString(".SH FILTER EXPRESSIONS\n.PP\nThe Wire pane's filter (F) reads this language.\n" + esc(wirefilter.SyntaxRules) + "\n")
	for _, t := range wirefilter.Syntax() {
		b.WriteString(".TP\n.B " + esc(t.Example) + "\n" + esc(t.Means) + "\n")
	}
	return b.String()
}

// withManSections adds the main page's KEYS, FILTER EXPRESSIONS, EXIT STATUS, ENVIRONMENT and FILES sections
// (man-pages(7) order: before SEE ALSO), which cobra's generator has no place for.
func withManSections(page []byte) []byte {
	extra := []byte(manKeys + filterSection() + manSections)
	if i := bytes.Index(page, []byte(".SH SEE ALSO")); i >= 0 {
		return append(append(append([]byte(nil), page[:i]...), extra...), page[i:]...)
	}
	return append(append([]byte(nil), page...), extra...)
}

// manSections is roff: the exit codes used in cmd/ and every environment variable the
// program reads (docs/reference.md has the same with more detail).
const manSections = `.SH EXIT STATUS
.PP
The TUI (mcp-inspect COMMAND, demo, --config/--server):
.TP
.B 0
normal quit, also when the server started and then died during the session
.TP
.B 2
usage error: bad flags or arguments, a malformed settings file, an unreadable --config, no terminal
.TP
.B 3
the server command could not be spawned at all
.TP
.B 128+n
stopped by signal n
.PP
The headless commands (tools, call, read, prompt, ping, discover, complete, ...) and bench call:
.TP
.B 0
ok
.TP
.B 1
the tool returned a result with isError: true (bench: some calls did)
.TP
.B 2
usage: bad flags or arguments, an unreadable --config or settings file
.TP
.B 3
the server failed to start, or exited or closed its stdout before answering; a remote server could not be reached
.TP
.B 4
protocol error: a JSON-RPC error response, a result that does not decode, a framing mismatch, an HTTP status the client cannot use, a failed OAuth authorization
.TP
.B 5
timeout: no response within --timeout
.TP
.B 130
interrupted (SIGINT, SIGTERM)
.PP
The other commands:
.TP
.B replay
0 every response matches, 1 something differs, 2 the replay could not run
.TP
.B open, trace
0 ok, 2 the trace cannot be read, a bad flag, or (open) no terminal, 1 another error
.TP
.B mock
0 when the client closes stdin or on SIGINT/SIGTERM; the recorded server's end when it died during a request; 2 the trace cannot be read, 1 another error
.TP
.B tap
the server's exit code (128+n after signal n), 127 command not found, 126 not startable, 2 usage
.TP
.B attach
0 ok, 2 usage, 3 no such tap or it cannot be reached, 1 another error
.TP
.B config wrap, config unwrap
0 done, 1 already (un)wrapped or the file cannot be written, 2 usage
.TP
.B settings, servers, man
0 ok, 2 usage, or a file that cannot be read or is malformed
.SH ENVIRONMENT
.TP
.B MCP_INSPECT_CONFIG
the settings file to read instead of the default place; it must exist
.TP
.B MCP_INSPECT_THEME
the theme when --theme is not given (over the settings file's theme): a built-in theme or a user theme file's name
.TP
.B XDG_CONFIG_HOME
the settings file is $XDG_CONFIG_HOME/mcp-inspect/config.toml and user themes are in $XDG_CONFIG_HOME/mcp-inspect/themes (when absolute; default: the user config directory, ~/.config on Linux)
.TP
.B XDG_STATE_HOME
logs, kept sessions, argument history and OAuth tokens go to $XDG_STATE_HOME/mcp-inspect (when absolute; default ~/.local/state/mcp-inspect, on macOS ~/Library/Application Support/mcp-inspect, on Windows %LOCALAPPDATA%\\mcp-inspect)
.TP
.B XDG_RUNTIME_DIR
taps publish their sockets in $XDG_RUNTIME_DIR/mcp-inspect (default /run/user/UID/mcp-inspect when that exists, else /tmp/mcp-inspect-UID; on macOS $TMPDIR/mcp-inspect; on Windows %LOCALAPPDATA%\\mcp-inspect\\run)
.TP
.B TMPDIR
macOS: taps publish their sockets in $TMPDIR/mcp-inspect when XDG_RUNTIME_DIR is not set
.TP
.B HOME
the defaults above, and ~ in settings roots and config files
.TP
.B CLAUDE_CONFIG_DIR
servers without --config reads Claude Code's .claude.json there instead of in the home directory
.TP
.B LOCALAPPDATA
Windows: the state directory (%LOCALAPPDATA%\\mcp-inspect) and tap sockets are there, and servers without --config looks there for the config file of Claude Desktop's MSIX package
.TP
.B SSH_CONNECTION, SSH_TTY
when set (an SSH session), a copy goes to the terminal's clipboard (OSC 52) and the file fallback only, not to this machine's clipboard (pbcopy on macOS, the Windows clipboard)
.TP
.B PATH, PATHEXT
Windows: how a host config's command is found; a batch file (npx for npx.cmd) that Claude Desktop or Claude Code may not start is noted
.TP
.B NO_COLOR
when set and not empty, the TUI draws without colors
.TP
.B TERM, COLORTERM
the terminal's color support, as the terminal libraries read it
.TP
.B MCP_INSPECT_IMAGES
how pictures are previewed: auto (default), off, blocks, kitty, iterm2 or sixel
.TP
.B TERM_PROGRAM, LC_TERMINAL, KITTY_WINDOW_ID, TMUX
auto picture previews: kitty graphics, iTerm2 inline images, sixel, or half blocks (inside tmux and elsewhere)
.TP
.B BROWSER, DISPLAY, WAYLAND_DISPLAY
OAuth: the browser command to open the authorization page with, and whether a graphical session is there to open it
.TP
.B PYTHONUNBUFFERED
set and not empty in the environment a Python server inherits: its stdout is taken as unbuffered (no buffered-stdout note while a request waits); U in the TUI restarts a server with PYTHONUNBUFFERED=1
.TP
.B GOMAXPROCS
when set, bench and tap keep it instead of choosing their own number of threads
.TP
.B SOURCE_DATE_EPOCH
fixes the date of the pages mcp-inspect man writes
.TP
.B OTEL_SERVICE_NAME
the service.name of the spans and metrics --otlp sends (default mcp-inspect)
.TP
.B MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION, MCP_CONFORMANCE_CONTEXT
the conformance client (a hidden command run by the MCP conformance suite)
.PP
The variable named by --bearer-env or --client-secret-env is read for its token; ${VAR} in a --config file is expanded from the environment; a server mcp-inspect starts inherits the environment, plus -e KEY=VALUE.
.SH FILES
.TP
.I ~/.config/mcp-inspect/config.toml
the settings file (mcp-inspect settings path shows where it is looked for)
.TP
.I ~/.config/mcp-inspect/themes/
user theme files: NAME.toml is the theme NAME (extends and a [colors] table); a built-in theme's name wins over a file
.TP
.I ~/.local/state/mcp-inspect/
the log (mcp-inspect.log), the sessions' traces (sessions/: kept 30 days, at most sessions_max_size together, 1GiB by default; one younger than a day removed for the cap is named on stderr), argument history; taps/NAME/url and mocks/NAME/url, while an HTTP tap or mock --listen runs: its URL with the per-run token (mode 0600)
`
