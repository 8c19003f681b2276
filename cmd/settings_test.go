package cmd

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/check"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/settings"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// runIn runs the command line in this process (no server is started by the commands used
// with it) and returns stdout, stderr and the exit code Execute would give.
func runIn(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err := root.Execute()
	code := exitOK
	var ce *codeError
	switch {
	case errors.As(err, &ce):
		code = ce.code
		errb.WriteString(ce.msg)
	case err != nil:
		code = exitUsage
		errb.WriteString(err.Error())
	}
	return out.String(), errb.String(), code
}

// useSettings points MCP_INSPECT_CONFIG at a new file holding content.
func useSettings(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	writeFile(t, path, content)
	t.Setenv("MCP_INSPECT_CONFIG", path)
	return path
}

// TestSettingsPath: `settings path` prints the path alone on stdout, so
// $EDITOR "$(mcp-inspect settings path)" opens it; whether it exists and what chose it go
// to stderr.
func TestSettingsPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	want := filepath.Join(dir, "mcp-inspect", "config.toml")
	out, errs, code := runIn(t, "settings", "path")
	if code != 0 || out != want+"\n" || errs != "exists: no (the built-in defaults are in effect)\nchosen by: XDG_CONFIG_HOME\n" {
		t.Fatalf("settings path without a file (exit %d):\nstdout %q\nstderr %q", code, out, errs)
	}
	writeFile(t, want, "mouse = true\n")
	out, errs, _ = runIn(t, "settings", "path")
	if out != want+"\n" || !strings.HasPrefix(errs, "exists: yes\n") {
		t.Fatalf("settings path with the file:\nstdout %q\nstderr %q", out, errs)
	}
	other := useSettings(t, "")
	out, errs, _ = runIn(t, "settings", "path")
	if out != other+"\n" || errs != "exists: yes\nchosen by: MCP_INSPECT_CONFIG\n" {
		t.Fatalf("settings path under MCP_INSPECT_CONFIG:\nstdout %q\nstderr %q", out, errs)
	}
	// A named file that is missing: path says commands refuse it, as they do.
	missing := filepath.Join(t.TempDir(), "none.toml")
	t.Setenv("MCP_INSPECT_CONFIG", missing)
	out, errs, code = runIn(t, "settings", "path")
	if code != 0 || out != missing+"\n" || !strings.HasPrefix(errs, "exists: no; MCP_INSPECT_CONFIG names it, so the commands that read settings refuse to run (exit 2)") {
		t.Fatalf("settings path with a missing named file (exit %d):\nstdout %q\nstderr %q", code, out, errs)
	}
	if _, errs, code := runIn(t, "settings", "show"); code != exitUsage || !strings.Contains(errs, "no such file") {
		t.Fatalf("settings show with a missing named file (exit %d): %s", code, errs)
	}
}

func TestSettingsShow(t *testing.T) {
	path := useSettings(t, `theme = "plain"
timeout = "2m"
redact = ["sk-[a-z]+"]

[keys]
wire.search = "ctrl+g"

[servers.local]
command = "node"
args = ["server.js", "--port", "0"]
env = { API_KEY = "hunter2", DEBUG = "1" }
timeout = "45s"

[servers.remote]
url = "https://example.com/mcp"
headers = { Authorization = "Bearer tok-123" }
`)
	out, errs, code := runIn(t, "settings", "show")
	if code != 0 {
		t.Fatalf("settings show: exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"# " + path + ": checked, no errors\n",
		"theme = \"plain\" # from the file\n",
		"era = \"legacy\" # built-in default\n",
		"timeout = \"2m0s\" # from the file\n",
		"redact = [\"sk-[a-z]+\"] # from the file; --redact adds to these\n",
		"mouse = true # built-in default\n", // the TUI's default (withSettings)
		"sessions_max_size = \"1GiB\" # built-in default: kept sessions and tap traces, per directory\n",
		"wire.search = [\"ctrl+g\"]\n",
		"[servers.local]\ncommand = \"node\"\nargs = [\"server.js\", \"--port\", \"0\"]\ntimeout = \"45s\"\nenv = { API_KEY = \"***\", DEBUG = \"***\" } # values masked\n",
		"[servers.remote]\nurl = \"https://example.com/mcp\"\nheaders = { Authorization = \"***\" } # values masked\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("settings show lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{"hunter2", "tok-123"} {
		if strings.Contains(out, secret) {
			t.Errorf("settings show prints the secret %q", secret)
		}
	}
}

// TestSettingsMalformed: a broken file is a usage error naming file:line:column, for
// settings show and for every command that reads the file; commands that read none run.
func TestSettingsMalformed(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"theme = \"plain\"\nmouse = yes\n", ":2:9: "},
		{"thme = \"plain\"\n", `:1:1: unknown key "thme" at the top level (did you mean "theme"?)`},
		{"theme = \"neon-nope\"\n", `:1:9: theme: unknown theme "neon-nope"`},
		{"[keys.wire]\nserch = \"/\"\n", `:2:1: keys.wire.serch: no action "serch" in wire`},
		{"[keys]\nglobal.quit = \"alt+ctrl+q\"\n", `:2:8: keys.global.quit: key "alt+ctrl+q": write the modifiers in the order`},
		{"[keys]\nwire.search = \"n\"\n", `:2:6: keys.wire.search: key "n" is already wire.search_next's (by default) and both work in wire`},
	} {
		path := useSettings(t, tc.file)
		for _, args := range [][]string{{"settings", "show"}, {"tools", "--", "true"}, {"--server", "x"}} {
			if args[0] == "tools" && tc.file == "theme = \"neon-nope\"\n" {
				continue // a headless command shows no theme: it warns and goes on (TestSettingsUnknownThemeHeadless)
			}
			_, errs, code := runIn(t, args...)
			if code != exitUsage || !strings.Contains(errs, path+tc.want) {
				t.Errorf("%q with %q: exit %d, stderr %q; want 2 and %q", args, tc.file, code, errs, path+tc.want)
			}
			// One form for every command: "settings: FILE:line:col: ...".
			if !strings.HasPrefix(errs, "settings: "+path+":") {
				t.Errorf("%q with %q: stderr %q does not start with settings: %s:", args, tc.file, errs, path)
			}
		}
		if _, errs, code := runIn(t, "settings", "path"); code != 0 {
			t.Errorf("settings path fails on a malformed file: %s", errs)
		}
		if _, errs, code := runIn(t, "servers", "--config", filepath.Join(t.TempDir(), "none.json")); code != exitUsage || strings.Contains(errs, path) {
			t.Errorf("servers (which reads no settings) read the file: %d %s", code, errs)
		}
	}
	t.Setenv("MCP_INSPECT_CONFIG", filepath.Join(t.TempDir(), "missing.toml"))
	if _, errs, code := runIn(t, "settings", "show"); code != exitUsage || !strings.Contains(errs, "missing.toml: no such file") {
		t.Errorf("a missing MCP_INSPECT_CONFIG file: %d %s", code, errs)
	}
}

// TestSettingsAreFlagDefaults: the file's values become the defaults; flags given win, and
// --redact adds to the file's patterns.
func TestSettingsAreFlagDefaults(t *testing.T) {
	useSettings(t, `theme = "plain"
era = "auto"
timeout = "7s"
roots = ["/srv/a", "/srv/b"]
redact = ["file-[0-9]+"]
`)
	parse := func(args ...string) *sessionFlags {
		t.Helper()
		var f sessionFlags
		c := &cobra.Command{Use: "x"}
		f.register(c, forTUI)
		if err := c.ParseFlags(args); err != nil {
			t.Fatal(err)
		}
		if err := applySettings(c, settingsChecks()); err != nil {
			t.Fatal(err)
		}
		return &f
	}
	f := parse()
	if f.theme != "plain" || f.era != "auto" || f.timeout != 7*time.Second || !slices.Equal(f.roots, []string{"/srv/a", "/srv/b"}) || !slices.Equal(f.rec.redact, []string{"file-[0-9]+"}) {
		t.Errorf("file defaults: theme %q era %q timeout %v roots %v redact %v", f.theme, f.era, f.timeout, f.roots, f.rec.redact)
	}
	f = parse("--theme", "dark", "--era", "modern", "--timeout", "3s", "--root", "/x", "--redact", "flag-re")
	if f.theme != "dark" || f.era != "modern" || f.timeout != 3*time.Second || !slices.Equal(f.roots, []string{"/x"}) || !slices.Equal(f.rec.redact, []string{"file-[0-9]+", "flag-re"}) {
		t.Errorf("flags over the file: theme %q era %q timeout %v roots %v redact %v", f.theme, f.era, f.timeout, f.roots, f.rec.redact)
	}
}

// TestServerProfile runs a headless command on a profile of the settings file: the fake
// server started from it, its env reaching the server, the file's era in effect and a flag
// over it.
func TestServerProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	writeFile(t, path, `era = "modern"

[servers.fake]
era = "legacy"
env = { FAKE_SCENARIO = "minimal" }
command = "`+fake.Binary(t)+`"

[servers.fake-modern]
command = "`+fake.Binary(t)+`"
env = { FAKE_SCENARIO = "minimal" }

[servers.other]
url = "http://127.0.0.1:9/mcp"
`)
	env := []string{"MCP_INSPECT_CONFIG=" + path}
	r := inspect(t, env, "tools", "--server", "fake")
	wantCode(t, r, 0)
	if !strings.HasPrefix(r.stdout, "echo(text: string)") {
		t.Fatalf("tools --server fake: %q %q", r.stdout, r.stderr)
	}
	// The file's era (modern) is in effect where the profile gives none: the legacy-only
	// fake refuses server/discover; --era wins over the file.
	r = inspect(t, env, "tools", "--server", "fake-modern")
	wantCode(t, r, exitProtocol)
	if !strings.Contains(r.stderr, "does not know server/discover") {
		t.Errorf("the file's era is not in effect: %s", r.stderr)
	}
	r = inspect(t, env, "tools", "--server", "fake-modern", "--era", "auto")
	wantCode(t, r, 0)
	r = inspect(t, env, "tools", "--server", "fake", "--era", "modern")
	wantCode(t, r, exitProtocol)
	r = inspect(t, env, "tools", "--server", "fak")
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, `no server profile "fak" in `+path+` (it has fake, fake-modern, other; did you mean "fake"?)`) {
		t.Errorf("an unknown profile: %s", r.stderr)
	}
	r = inspect(t, env, "tools", "--server", "fake", "--", "node", "x.js")
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, `--server "fake" needs --config FILE (an entry of a host's config file) or names a profile of the settings file; either way give no server COMMAND`) {
		t.Errorf("--server and a command: %s", r.stderr)
	}
	// With --config, --server names an entry of that file, not a profile.
	host := filepath.Join(t.TempDir(), "mcp.json")
	writeFile(t, host, `{"mcpServers": {"h": {"command": "`+fake.Binary(t)+`", "args": ["--scenario", "minimal"]}}}`)
	r = inspect(t, env, "tools", "--config", host, "--server", "fake")
	wantCode(t, r, exitUsage)
	if strings.Contains(r.stderr, "profile") {
		t.Errorf("--config --server looked in the settings: %s", r.stderr)
	}
}

// TestFlagCompletion runs cobra's hidden __complete command, as the shell scripts of
// mcp-inspect completion do.
func TestFlagCompletion(t *testing.T) {
	useSettings(t, `[servers.everything]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-everything"]

[servers.remote]
url = "https://example.com/mcp"
`)
	complete := func(args ...string) []string {
		t.Helper()
		out, errs, code := runIn(t, append([]string{"__complete"}, args...)...)
		if code != 0 {
			t.Fatalf("__complete %q: exit %d %s", args, code, errs)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if last := lines[len(lines)-1]; last != ":4" { // ShellCompDirectiveNoFileComp
			t.Errorf("__complete %q: directive %q, want :4 (no file names)", args, last)
		}
		return lines[:len(lines)-1]
	}
	if got := complete("--server", ""); !slices.Equal(got, []string{"everything\tnpx -y @modelcontextprotocol/server-everything", "remote\thttps://example.com/mcp"}) {
		t.Errorf("--server: %q", got)
	}
	if got := complete("call", "--server", "ev"); len(got) != 2 {
		t.Errorf("call --server (the shell filters by prefix): %q", got)
	}
	host := filepath.Join(t.TempDir(), "mcp.json")
	writeFile(t, host, `{"mcpServers": {"pg": {"command": "pg-mcp"}, "web": {"url": "https://w.example/mcp"}}}`)
	if got := complete("tools", "--config", host, "--server", ""); !slices.Equal(got, []string{"pg\tpg-mcp", "web\thttps://w.example/mcp"}) {
		t.Errorf("--config --server: %q", got)
	}
	// check --skip completes the rule ids (issue 25), each with its level and title.
	if got := complete("check", "--skip", ""); len(got) != len(check.Rules()) || !slices.Contains(got, "final-ping\tMUST: "+ruleTitle("final-ping")) {
		t.Errorf("check --skip: %q", got)
	}
	if got := complete("--theme", ""); !slices.Equal(got, themes.Names()) {
		t.Errorf("--theme: %q, want %q", got, themes.Names())
	}
	if got := complete("open", "--theme", ""); !slices.Equal(got, themes.Names()) {
		t.Errorf("open --theme: %q", got)
	}
	// A user theme file in the config directory is offered after the built-in themes.
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	writeFile(t, filepath.Join(xdg, "mcp-inspect", "themes", "warm.toml"), "extends = \"light\"\n")
	// A file named like a built-in theme is not used (built-ins win), and not listed twice.
	writeFile(t, filepath.Join(xdg, "mcp-inspect", "themes", "dark.toml"), "extends = \"light\"\n")
	if got, want := complete("--theme", ""), append(themes.Names(), "warm"); !slices.Equal(got, want) {
		t.Errorf("--theme with a user theme file: %q, want %q", got, want)
	}
	names := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			n, _, _ := strings.Cut(l, "\t")
			out = append(out, n)
		}
		return out
	}
	for flag, want := range map[string][]string{
		"--era":       {"legacy", "modern", "auto"},
		"--framing":   {"newline", "content-length", "auto"},
		"--transport": {"auto", "http", "sse"},
	} {
		if got := names(complete("ping", flag, "")); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", flag, got, want)
		}
	}
	// A malformed settings file completes no profile, and no error reaches the shell.
	useSettings(t, "[servers.x\n")
	if got := complete("--server", ""); len(got) != 0 {
		t.Errorf("--server with a malformed file: %q", got)
	}
}

// TestManSections: the main page has EXIT STATUS, ENVIRONMENT and FILES before SEE ALSO,
// and ENVIRONMENT names every variable the program's sources read by name.
func TestManSections(t *testing.T) {
	out, errs, code := runIn(t, "man")
	if code != 0 {
		t.Fatalf("man: %d %s", code, errs)
	}
	idx := func(s string) int { return strings.Index(out, s) }
	if !(idx(".SH EXAMPLE") < idx(".SH EXIT STATUS") && idx(".SH EXIT STATUS") < idx(".SH ENVIRONMENT") && idx(".SH ENVIRONMENT") < idx(".SH FILES") && idx(".SH FILES") < idx(".SH SEE ALSO")) || idx(".SH EXIT STATUS") < 0 {
		t.Fatalf("sections out of place:\n%s", out[idx(".SH EXAMPLE"):])
	}
	section := out[idx(".SH ENVIRONMENT"):idx(".SH FILES")]
	for _, name := range envVarsRead(t) {
		if !strings.Contains(section, name) {
			t.Errorf("ENVIRONMENT does not name %s, which the program reads", name)
		}
	}
	// docs/reference.md's Environment table names them too.
	doc, err := os.ReadFile(filepath.Join("..", "docs", "reference.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, envDoc, _ := strings.Cut(string(doc), "### Environment\n")
	envDoc, _, _ = strings.Cut(envDoc, "\n#")
	for _, name := range envVarsRead(t) {
		if !strings.Contains(envDoc, "`"+name+"`") {
			t.Errorf("docs/reference.md's Environment table does not name %s, which the program reads", name)
		}
	}
	// FILES names the settings file and the user themes folder.
	files := out[idx(".SH FILES"):idx(".SH SEE ALSO")]
	for _, want := range []string{"mcp-inspect/config.toml", "mcp-inspect/themes/"} {
		if !strings.Contains(files, want) {
			t.Errorf("FILES lacks %s", want)
		}
	}
	exits := out[idx(".SH EXIT STATUS"):idx(".SH ENVIRONMENT")]
	for _, code := range []string{".B 0", ".B 1", ".B 2", ".B 3", ".B 4", ".B 5", ".B 130", ".B 128+n"} {
		if !strings.Contains(exits, code) {
			t.Errorf("EXIT STATUS lacks %s", code)
		}
	}
	dir := t.TempDir()
	if _, errs, code := runIn(t, "man", "--dir", dir); code != 0 {
		t.Fatalf("man --dir: %s", errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "mcp-inspect.1"))
	if err != nil || !bytes.Contains(b, []byte(".SH ENVIRONMENT")) {
		t.Errorf("man --dir: the main page lacks ENVIRONMENT (%v)", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "mcp-inspect-call.1")); bytes.Contains(b, []byte(".SH ENVIRONMENT")) {
		t.Error("a command's page got the main page's sections")
	}
}

// envVarsRead lists the environment variables the module's own code (not its test
// helpers) reads by a literal name or by a string constant (Getenv(themes.EnvVar) with
// const EnvVar = "MCP_INSPECT_THEME"), plus the settings file's variable.
func envVarsRead(t *testing.T) []string {
	t.Helper()
	re := regexp.MustCompile(`(?:Getenv|LookupEnv|getenv)\("([A-Za-z_][A-Za-z0-9_]*)"\)`)
	byConst := regexp.MustCompile(`(?:Getenv|LookupEnv|getenv)\((?:[A-Za-z_][A-Za-z0-9_]*\.)?([A-Za-z_][A-Za-z0-9_]*)\)`)
	constDecl := regexp.MustCompile(`(?m)^\s*(?:const\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"([A-Z_][A-Z0-9_]*)"`)
	consts := map[string]string{} // constant name -> its value, for the constants read
	var used []string
	names := []string{settings.EnvPath}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", ".git", ".ci", "tools", "testservers", "tmuxtest", "fake", "fakeas":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			if n := string(m[1]); !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		for _, m := range byConst.FindAllSubmatch(b, -1) {
			used = append(used, string(m[1]))
		}
		for _, m := range constDecl.FindAllSubmatch(b, -1) {
			consts[string(m[1])] = string(m[2])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range used {
		if n, ok := consts[c]; ok && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if !slices.Contains(names, themes.EnvVar) {
		t.Fatalf("found %v without %s (read through a constant): the scan is broken", names, themes.EnvVar)
	}
	if len(names) < 8 {
		t.Fatalf("found only %v: the scan is broken", names)
	}
	return names
}

// TestProfileConfig: what a profile gives the session, and how the flags combine with it.
func TestProfileConfig(t *testing.T) {
	dir := t.TempDir()
	useSettings(t, `timeout = "7s"

[servers.local]
command = "srv"
args = ["--stdio"]
env = { A = "file", B = "file" }
cwd = "`+dir+`"
framing = "content-length"
timeout = "5m"

[servers.remote]
url = "http://127.0.0.1:9/mcp"
headers = { X-Team = "tools" }
bearer_env = "MI_TEST_TOKEN"
transport = "sse"
`)
	t.Setenv("MI_TEST_TOKEN", "tok")
	resolve := func(args ...string) (mcpclient.Config, string, error) {
		t.Helper()
		var f sessionFlags
		var src serverSource
		c := &cobra.Command{Use: "x"}
		f.register(c, forHeadless)
		src.register(c.Flags())
		if err := c.ParseFlags(args); err != nil {
			t.Fatal(err)
		}
		if err := applySettings(c, settingsChecks()); err != nil {
			t.Fatal(err)
		}
		return src.resolve(&f, c.Flags().Args(), io.Discard)
	}
	cfg, title, err := resolve("--server", "local", "-e", "B=flag")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Command != "srv" || !slices.Equal(cfg.Args, []string{"--stdio"}) || !slices.Equal(cfg.Env, []string{"A=file", "B=file", "B=flag"}) || cfg.Dir != dir || cfg.Framing != mcpclient.FramingContentLength || !strings.HasPrefix(title, "local (") {
		t.Errorf("local: %+v %q", cfg, title)
	}
	cfg, _, err = resolve("--server", "local", "--framing", "newline", "--cwd", t.TempDir())
	if err != nil || cfg.Framing != mcpclient.FramingNewline || cfg.Dir == dir {
		t.Errorf("flags over the profile: framing %q dir %q, %v", cfg.Framing, cfg.Dir, err)
	}
	cfg, _, err = resolve("--server", "remote", "-H", "X-Extra: 1")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.URL != "http://127.0.0.1:9/mcp" || cfg.Header.Get("X-Team") != "tools" || cfg.Header.Get("X-Extra") != "1" || cfg.Header.Get("Authorization") != "Bearer tok" || cfg.Transport != mcpclient.TransportSSE {
		t.Errorf("remote: url %q header %v transport %q", cfg.URL, cfg.Header, cfg.Transport)
	}
	if cfg, _, err = resolve("--server", "remote", "--transport", "http"); err != nil || cfg.Transport == mcpclient.TransportSSE {
		t.Errorf("--transport over the profile: %q %v", cfg.Transport, err)
	}
	// Timeout: --timeout, then the profile's, then the file's top level.
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{[]string{"--server", "local"}, 5 * time.Minute},
		{[]string{"--server", "local", "--timeout", "3s"}, 3 * time.Second},
		{[]string{"--server", "remote"}, 7 * time.Second},
		{[]string{"--server", "remote", "--timeout", "9s"}, 9 * time.Second},
	} {
		if cfg, _, err := resolve(tc.args...); err != nil || cfg.Timeout != tc.want {
			t.Errorf("%q: timeout %v, want %v (%v)", tc.args, cfg.Timeout, tc.want, err)
		}
	}
}

// TestSettingsWithoutConfigDir: no $HOME and no absolute $XDG_CONFIG_HOME means no
// settings file and no user themes, not an error.
func TestSettingsWithoutConfigDir(t *testing.T) {
	for _, xdg := range []string{"", "relative/dir"} {
		t.Setenv("MCP_INSPECT_CONFIG", "")
		t.Setenv("HOME", "")
		t.Setenv("XDG_CONFIG_HOME", xdg)
		out, errs, code := runIn(t, "settings", "path")
		if code != exitNoSettingsPath || out != "" || !strings.HasPrefix(errs, "no settings file: ") || !strings.Contains(errs, "$HOME") {
			t.Errorf("XDG_CONFIG_HOME=%q: settings path (exit %d): %s%s", xdg, code, out, errs)
		}
		out, errs, code = runIn(t, "settings", "show")
		if code != 0 || !strings.Contains(out, "mouse = ") {
			t.Errorf("XDG_CONFIG_HOME=%q: settings show (exit %d): %s%s", xdg, code, out, errs)
		}
		_, errs, code = runIn(t, "check", "--timeout", "1s", "--theme", "plain", "--", "/nonexistent/server")
		if strings.Contains(errs, "settings") || code == exitUsage {
			t.Errorf("XDG_CONFIG_HOME=%q: check (exit %d): %s", xdg, code, errs)
		}
		if userThemeDir() != "" {
			t.Errorf("a user theme directory without a config directory: %q", userThemeDir())
		}
	}
}

// TestSettingsDocExample: the settings file example in docs/reference.md is a valid file
// (its theme a theme there is, its keys actions there are), so it cannot drift.
func TestSettingsDocExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "reference.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "### Settings file\n")
	if !ok {
		t.Fatal("docs/reference.md has no Settings file section")
	}
	_, rest, ok = strings.Cut(rest, "```toml\n")
	example, _, ok2 := strings.Cut(rest, "```\n")
	if !ok || !ok2 {
		t.Fatal("the Settings file section has no ```toml example")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no user themes
	s, err := settings.Parse("reference.md", []byte(example), settingsChecks())
	if err != nil {
		t.Fatalf("the example does not parse: %v", err)
	}
	if s.Theme == "" || len(s.Servers) == 0 || len(s.Keys) == 0 {
		t.Errorf("the example lost its theme, profiles or keys: %+v", s)
	}
}

// TestSettingsShowShadowedTheme: settings show says a theme file named like a built-in is
// not used.
func TestSettingsShowShadowedTheme(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Setenv("MCP_INSPECT_CONFIG", "")
	dark := filepath.Join(xdg, "mcp-inspect", "themes", "dark.toml")
	writeFile(t, dark, "extends = \"light\"\n")
	writeFile(t, filepath.Join(xdg, "mcp-inspect", "themes", "warm.toml"), "extends = \"light\"\n")
	out, errs, code := runIn(t, "settings", "show")
	if code != 0 || !strings.Contains(out, "# note: "+dark+" is not used: the built-in theme dark wins") || strings.Contains(out, "warm.toml") {
		t.Fatalf("settings show (exit %d): %s%s", code, out, errs)
	}
}

// ruleTitle is the title of check rule id.
func ruleTitle(id string) string {
	for _, r := range check.Rules() {
		if r.ID == id {
			return r.Title
		}
	}
	return ""
}

// TestVersionCommand: `mcp-inspect version` prints what --version prints, instead of
// spawning a server called "version", and a malformed settings file does not stop it.
func TestVersionCommand(t *testing.T) {
	useSettings(t, "theme = \n")
	want, _, code := runIn(t, "--version")
	if code != 0 || !strings.HasPrefix(want, "mcp-inspect version ") {
		t.Fatalf("--version (exit %d): %q", code, want)
	}
	out, errs, code := runIn(t, "version")
	if code != 0 || out != want || errs != "" {
		t.Fatalf("version (exit %d): stdout %q, stderr %q; want %q", code, out, errs, want)
	}
}
