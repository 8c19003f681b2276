package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
	"github.com/mcp-inspect/mcp-inspect/internal/settings"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/themes"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// settingsKey is the context key under which a command finds the settings loaded for it.
type settingsKey struct{}

// settingsFlags are the flags whose defaults the settings file gives; a command that takes
// none of them (man, servers, ...) never reads the file.
func settingsFlags() []string {
	return []string{"theme", "era", "timeout", "root", "redact", "server"}
}

// applySettings is the root's PersistentPreRunE: it reads the settings file for a command
// that takes one of settingsFlags, makes the file's values the defaults of the flags not
// given on the command line (flags win; --redact adds to the file's patterns), and keeps the
// settings in the command's context for --server profiles, key overrides and mouse. A file
// that cannot be read or is malformed is a usage error (exit 2) naming file:line:column.
func applySettings(cmd *cobra.Command, checks settings.Checks) error {
	fl := cmd.Flags()
	uses := false
	for _, n := range settingsFlags() {
		uses = uses || fl.Lookup(n) != nil
	}
	if !uses {
		return nil
	}
	loc, err := settings.Locate(os.Getenv)
	if err != nil {
		return &codeError{exitUsage, "settings: " + err.Error()}
	}
	// A command that shows no theme, or whose theme --theme or $MCP_INSPECT_THEME chooses,
	// does not stop for a file's theme it would not use.
	over := themeOverride(cmd)
	checks.ThemeWarns = !usesTheme(cmd) || over != ""
	s, err := settings.Load(loc, checks)
	if err != nil {
		return &codeError{exitUsage, "settings: " + err.Error() + "\n(mcp-inspect settings show checks the file)"}
	}
	if usesTheme(cmd) {
		// The TUI says it once, in its status line and Logs pane (withSettings).
		for i, w := range s.Warnings {
			s.Warnings[i] = fmt.Sprintf("settings: %s; left out: %s chooses the theme", w, over)
		}
	} else if q, _ := fl.GetBool("quiet"); !q {
		for _, w := range s.Warnings {
			fmt.Fprintf(cmd.ErrOrStderr(), "mcp-inspect: warning: settings: %s; left out: %s shows no theme (the TUI refuses it; mcp-inspect settings show checks the file)\n", stderrSafe(cmd.ErrOrStderr())(w), cmd.Name())
		}
	}
	set := func(name, v string) error {
		if f := fl.Lookup(name); f != nil && !f.Changed && v != "" {
			if err := f.Value.Set(v); err != nil {
				return &codeError{exitUsage, fmt.Sprintf("settings: %s: %s: %v", s.Path, name, err)}
			}
		}
		return nil
	}
	timeout := ""
	if s.Timeout > 0 {
		timeout = s.Timeout.String()
	}
	for _, kv := range [][2]string{{"theme", s.Theme}, {"era", s.Era}, {"timeout", timeout}} {
		if err := set(kv[0], kv[1]); err != nil {
			return err
		}
	}
	if f := fl.Lookup("timeout"); f != nil && !f.Changed && timeout != "" {
		_ = fl.SetAnnotation("timeout", timeoutFromKey, []string{"the settings file " + s.Path})
	}
	if f := fl.Lookup("root"); f != nil && !f.Changed && len(s.Roots) > 0 {
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			_ = sv.Replace(s.Roots)
		}
	}
	if f := fl.Lookup("redact"); f != nil && len(s.Redact) > 0 {
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			_ = sv.Replace(append(append([]string(nil), s.Redact...), sv.GetSlice()...))
		}
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	cmd.SetContext(context.WithValue(ctx, settingsKey{}, s))
	return nil
}

// usesTheme reports whether cmd shows a theme: it has a --theme flag that is not hidden
// (the headless commands accept --theme but hide it: they draw nothing).
func usesTheme(cmd *cobra.Command) bool {
	f := cmd.Flags().Lookup("theme")
	return f != nil && !f.Hidden
}

// themeOverride names what chooses a theme-showing command's theme instead of the
// settings file ("--theme" or $MCP_INSPECT_THEME, as chosenTheme reads them); "" when the
// file's theme would be used.
func themeOverride(cmd *cobra.Command) string {
	switch {
	case !usesTheme(cmd):
		return ""
	case cmd.Flags().Changed("theme"):
		return "--theme"
	case os.Getenv(themes.EnvVar) != "":
		return "$" + themes.EnvVar
	}
	return ""
}

// rootsSource names where the roots came from, for warnings about them: --root when given,
// else the settings file that gave them.
func rootsSource(f *sessionFlags) string {
	if f.cmd != nil && !f.cmd.Flags().Changed("root") {
		if p := settingsOf(f.cmd).Path; p != "" && len(settingsOf(f.cmd).Roots) > 0 {
			return "roots in " + p
		}
	}
	return "--root"
}

// settingsOf returns the settings applySettings loaded for cmd; empty ones when none were
// (no file, or a command that reads none).
func settingsOf(cmd *cobra.Command) *settings.Settings {
	if cmd != nil && cmd.Context() != nil {
		if s, ok := cmd.Context().Value(settingsKey{}).(*settings.Settings); ok {
			return s
		}
	}
	return &settings.Settings{}
}

// newSettingsCmd is `mcp-inspect settings path|show`.
func newSettingsCmd(checks settings.Checks) *cobra.Command {
	c := &cobra.Command{
		Use:   "settings path|show",
		Short: "Find and check mcp-inspect's own settings file (config.toml)",
		Long: `mcp-inspect reads its own settings from a TOML file: $MCP_INSPECT_CONFIG when set, else
$XDG_CONFIG_HOME/mcp-inspect/config.toml, else mcp-inspect/config.toml in the user config
directory (~/.config on Linux, ~/Library/Application Support on macOS, %AppData% on Windows).

It gives the defaults of --theme, --era, --timeout and --root, redaction patterns added to
--redact, mouse = true|false, the size cap on kept sessions (sessions_max_size = "1GiB"),
key overrides ([keys]), named server profiles ([servers.NAME], started by --server NAME
without --config; a profile's era and timeout win over the file's) and tap profiles
([taps.NAME] inject = [...], the --inject rules of tap --name NAME). Flags win over both.

"settings path" prints where the file is looked for, alone on stdout (so $EDITOR "$(mcp-inspect
settings path)" opens it), and on stderr whether it is there and what chose it; "settings show"
checks it and prints the settings in effect (env and header values masked). A malformed file
is an error naming file:line:column, also for every command that reads it.`,
		Example: `  mcp-inspect settings path
  mcp-inspect settings show
  mcp-inspect --server everything`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return &codeError{exitUsage, "settings needs a subcommand: path or show"}
		},
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// The settings commands report a broken file themselves instead of failing before.
	c.PersistentPreRunE = func(*cobra.Command, []string) error { return nil }
	c.AddCommand(&cobra.Command{
		Use:   "path",
		Short: "Print the settings file's path alone (whether it exists, and why that path, on stderr)",
		Args:  cobra.NoArgs,
		RunE:  runSettingsPath,
	}, &cobra.Command{
		Use:   "show",
		Short: "Check the settings file and print the settings in effect (secrets masked)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			loc, err := settings.Locate(os.Getenv)
			if err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			s, err := settings.Load(loc, checks)
			if err != nil {
				return &codeError{exitUsage, "settings: " + err.Error()} // as every command says it
			}
			writeSettings(cmd.OutOrStdout(), loc, s)
			return nil
		},
	})
	return c
}

// builtinDefault is a session flag's default as the flag declares it (the one source of the
// defaults).
func builtinDefault(name string) string {
	var f sessionFlags
	c := &cobra.Command{}
	f.register(c, forTUI)
	if fl := c.Flags().Lookup(name); fl != nil {
		return fl.DefValue
	}
	return ""
}

// writeSettings prints the settings in effect as TOML that could be the file, with where
// each value comes from; env and header values are masked.
func writeSettings(w io.Writer, loc settings.Location, s *settings.Settings) {
	safe := terminalSafe(w)
	if loc.Path == "" {
		fmt.Fprintf(w, "# no settings file: %s; the built-in defaults are in effect\n", safe(loc.None))
	} else if s.Path == "" {
		fmt.Fprintf(w, "# %s: no such file; the built-in defaults are in effect\n", safe(loc.Path))
	} else {
		fmt.Fprintf(w, "# %s: checked, no errors\n", safe(s.Path))
	}
	from := func(set bool) string {
		if set {
			return "# from the file"
		}
		return "# built-in default"
	}
	theme := s.Theme
	themeNote := from(theme != "")
	if theme == "" {
		themeNote += ": follows the terminal"
	}
	era := s.Era
	if era == "" {
		era = builtinDefault("era")
	}
	timeout := builtinDefault("timeout")
	if s.Timeout > 0 {
		timeout = s.Timeout.String()
	}
	mouse := mouseOn(s)
	fmt.Fprintf(w, "theme = %s %s\n", safe(tomlString(theme)), themeNote)
	if dir := userThemeDir(); dir != "" {
		for _, n := range themes.UserNames(dir) {
			if slices.Contains(themes.Names(), n) {
				fmt.Fprintf(w, "# note: %s is not used: the built-in theme %s wins over a file of its name\n", safe(filepath.Join(dir, n+".toml")), safe(n))
			}
		}
	}
	fmt.Fprintf(w, "era = %s %s\n", tomlString(era), from(s.Era != ""))
	fmt.Fprintf(w, "timeout = %s %s\n", tomlString(timeout), from(s.Timeout > 0))
	fmt.Fprintf(w, "roots = %s %s\n", safe(tomlArray(s.Roots)), from(len(s.Roots) > 0))
	fmt.Fprintf(w, "redact = %s %s\n", safe(tomlArray(s.Redact)), from(len(s.Redact) > 0)+"; --redact adds to these")
	fmt.Fprintf(w, "mouse = %t %s\n", mouse, from(s.Mouse != nil))
	if s.Split > 0 {
		fmt.Fprintf(w, "split = %d # the list's share of a pane, in percent (< and > move it)\n", s.Split)
	}
	maxStore := s.SessionsMaxSize
	if maxStore == 0 {
		maxStore = trace.DefaultMaxBytes
	}
	fmt.Fprintf(w, "sessions_max_size = %s %s\n", tomlString(settings.FormatSize(maxStore)), from(s.SessionsMaxSize > 0)+": kept sessions and tap traces, per directory")
	if len(s.Keys) > 0 {
		fmt.Fprintf(w, "\n[keys] # overrides of the key table's defaults\n")
		actions := make([]string, 0, len(s.Keys))
		for a := range s.Keys {
			actions = append(actions, a)
		}
		slices.Sort(actions)
		for _, a := range actions {
			fmt.Fprintf(w, "%s = %s\n", safe(a), safe(tomlArray(s.Keys[a])))
		}
	}
	for _, sv := range s.Servers {
		fmt.Fprintf(w, "\n[servers.%s]\n", safe(tomlKey(sv.Name)))
		line := func(k, v string) {
			if v != "" {
				fmt.Fprintf(w, "%s = %s\n", k, safe(tomlString(v)))
			}
		}
		line("command", sv.Command)
		if len(sv.Args) > 0 {
			fmt.Fprintf(w, "args = %s\n", safe(tomlArray(sv.Args)))
		}
		line("url", sv.URL)
		line("cwd", sv.Cwd)
		line("framing", sv.Framing)
		line("transport", sv.Transport)
		line("bearer_env", sv.BearerEnv)
		line("era", sv.Era)
		if sv.Timeout > 0 {
			line("timeout", sv.Timeout.String())
		}
		if len(sv.Env) > 0 {
			fmt.Fprintf(w, "env = %s # values masked\n", safe(maskedTable(sv.Env, "=")))
		}
		if len(sv.Headers) > 0 {
			fmt.Fprintf(w, "headers = %s # values masked\n", safe(maskedTable(sv.Headers, ": ")))
		}
	}
	for _, tp := range s.Taps {
		fmt.Fprintf(w, "\n[taps.%s] # tap --name %s; --inject replaces these rules\n", safe(tomlKey(tp.Name)), safe(tp.Name))
		fmt.Fprintf(w, "inject = %s\n", safe(tomlArray(tp.Inject)))
	}
}

// maskedTable writes "K<sep>V" lines as an inline TOML table with every value "***".
func maskedTable(lines []string, sep string) string {
	parts := make([]string, 0, len(lines))
	for _, l := range lines {
		k, _, _ := strings.Cut(l, sep)
		parts = append(parts, tomlKey(k)+` = "***"`)
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || !unicode.IsPrint(r) && r > 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlArray writes strings as a TOML array.
func tomlArray(ss []string) string {
	parts := make([]string, 0, len(ss))
	for _, s := range ss {
		parts = append(parts, tomlString(s))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// tomlKey writes a key bare when TOML allows, quoted otherwise.
func tomlKey(k string) string {
	if k != "" && strings.IndexFunc(k, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) < 0 {
		return k
	}
	return tomlString(k)
}

// profileConfig builds the session's Config from the settings profile s.name (--server
// NAME without --config). The profile's env, headers and cwd come first; -e, -H and --cwd
// add to or win over them; its framing, transport, era and timeout apply unless the flag was
// given (a flag, then the profile, then the file's top level, then the built-in default).
func (s *serverSource) profileConfig(f *sessionFlags, argv []string) (mcpclient.Config, string, error) {
	var none mcpclient.Config
	if len(argv) > 0 {
		return none, "", fmt.Errorf("--server %q needs --config FILE (an entry of a host's config file) or names a profile of the settings file; either way give no server COMMAND (got %q)", s.name, strings.Join(argv, " "))
	}
	set := settingsOf(f.cmd)
	p, err := set.Lookup(s.name)
	if err != nil {
		return none, "", fmt.Errorf("--server: %w", err)
	}
	changed := func(name string) bool { return f.cmd != nil && f.cmd.Flags().Changed(name) }
	if p.Era != "" && !changed("era") {
		f.era = p.Era
	}
	if p.Timeout > 0 && !changed("timeout") {
		f.timeout = p.Timeout
		f.profileTimeout = "profile " + p.Name + " in " + set.Path
	}
	title := p.Name + " (" + set.Path + ")"
	if p.Remote() {
		f.headers = append(append([]string(nil), p.Headers...), f.headers...)
		if p.BearerEnv != "" && f.bearerEnv == "" {
			f.bearerEnv = p.BearerEnv
		}
		if p.Transport != "" && !changed("transport") {
			f.transport = p.Transport
		}
		cfg, err := f.config([]string{p.URL})
		return cfg, title, err
	}
	if p.Framing != "" && !changed("framing") {
		f.framing = p.Framing
	}
	cfg, err := f.config(append([]string{p.Command}, p.Args...))
	if err != nil {
		return none, "", err
	}
	cfg.Env = append(append([]string(nil), p.Env...), f.env...)
	if f.cwd == "" && p.Cwd != "" {
		if st, err := os.Stat(p.Cwd); err != nil || !st.IsDir() {
			return none, "", fmt.Errorf("server profile %q in %s: cwd %s is not a directory", p.Name, set.Path, sanitize.QuotePath(p.Cwd))
		}
		cfg.Dir = p.Cwd
	}
	return cfg, title, nil
}

// timeoutFromKey is the --timeout flag's annotation naming the settings file that gave its
// value (the flag was not given).
const timeoutFromKey = "mcp-inspect/from"

// timeoutFrom says where the session's timeout came from when not from --timeout or the
// built-in default: a settings profile, or the settings file's top level. A timeout error
// names it (mcpclient.Config.TimeoutFrom).
func (f *sessionFlags) timeoutFrom() string {
	if f.cmd == nil || f.cmd.Flags().Changed("timeout") {
		return ""
	}
	if f.profileTimeout != "" {
		return f.profileTimeout
	}
	if fl := f.cmd.Flags().Lookup("timeout"); fl != nil {
		if from := fl.Annotations[timeoutFromKey]; len(from) == 1 {
			return from[0]
		}
	}
	return ""
}

// exitNoSettingsPath is the exit code of `settings path` when there is no path to print
// (no config directory): stdout is then empty, as for a missing key in `git config --get`.
const exitNoSettingsPath = 1

// runSettingsPath is `settings path`: the path alone on stdout, for $(...); whether the
// file exists and what chose the path on stderr.
func runSettingsPath(cmd *cobra.Command, _ []string) error {
	loc, err := settings.Locate(os.Getenv)
	if err != nil {
		return &codeError{exitUsage, err.Error()}
	}
	if loc.Path == "" {
		return &codeError{exitNoSettingsPath, "no settings file: " + loc.None + "; the built-in defaults are in effect"}
	}
	state := "no (the built-in defaults are in effect)"
	if loc.Explicit {
		state = "no; " + settings.EnvPath + " names it, so the commands that read settings refuse to run (exit 2) until it exists or the variable is unset"
	}
	if st, err := os.Stat(loc.Path); err == nil && st.Mode().IsRegular() {
		state = "yes"
	} else if err == nil {
		state = "no: it is not a regular file"
	}
	fmt.Fprintln(cmd.OutOrStdout(), terminalSafe(cmd.OutOrStdout())(loc.Path))
	safe := terminalSafe(cmd.ErrOrStderr())
	fmt.Fprintf(cmd.ErrOrStderr(), "exists: %s\nchosen by: %s\n", state, safe(loc.From))
	return nil
}
