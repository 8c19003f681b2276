package hostconfig

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// env is a fixed environment for expansion.
func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

func load(t *testing.T, rel string, opt Options) *File {
	t.Helper()
	if opt.LookupEnv == nil {
		opt.LookupEnv = env(nil)
	}
	if opt.Home == "" {
		opt.Home = "/home/ana"
	}
	f, err := Load(filepath.Join("testdata", rel), opt)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func server(t *testing.T, f *File, name string) *Server {
	t.Helper()
	s, err := f.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func names(f *File) []string {
	var out []string
	for _, s := range f.Servers {
		out = append(out, s.Name)
	}
	return out
}

func hasNote(notes []string, sub string) bool {
	for _, n := range notes {
		if strings.Contains(n, sub) {
			return true
		}
	}
	return false
}

func TestClaudeDesktop(t *testing.T) {
	f := load(t, "claude-desktop/claude_desktop_config.json", Options{LookupEnv: env(map[string]string{"GITHUB_TOKEN": "ghp_x"})})
	if f.Format != ClaudeDesktop {
		t.Fatalf("format %s", f.Format)
	}
	if got, want := names(f), []string{"filesystem", "github", "my server", "sqlite-old"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("names %q, want file order %q", got, want)
	}
	fs := server(t, f, "filesystem")
	if fs.Type != "stdio" || fs.Command != "npx" || !fs.Stdio() {
		t.Fatalf("filesystem: %+v", fs)
	}
	if got := fs.Args[3]; got != "/Users/ana/Library/Mobile Documents/com~apple~CloudDocs/Shared Notes" {
		t.Fatalf("an argument with spaces must stay one argument, got %q", got)
	}
	// Claude Desktop does not expand variables: the server sees the text as written.
	gh := server(t, f, "github")
	if !reflect.DeepEqual(gh.Env, []string{"GITHUB_PERSONAL_ACCESS_TOKEN=${GITHUB_TOKEN}"}) {
		t.Fatalf("github env %q", gh.Env)
	}
	my := server(t, f, "my server")
	if my.Command != "/Users/ana/Application Support/My Server/bin/server" {
		t.Fatalf("command with spaces: %q", my.Command)
	}
	if !reflect.DeepEqual(my.Args, []string{"--port", "0", "--verbose"}) || !hasNote(my.Notes, "args[1] is 0") {
		t.Fatalf("non-string arg: %q %q", my.Args, my.Notes)
	}
	if !reflect.DeepEqual(my.Env, []string{"LOG_LEVEL=debug", "RETRIES=3"}) {
		t.Fatalf("env sorted, numbers as text: %q", my.Env)
	}
	old := server(t, f, "sqlite-old")
	if !old.Disabled || old.Args[2] != `C:\Users\ana\My Data\test.db` {
		t.Fatalf("disabled entry: %+v", old)
	}
	if fs.Disabled {
		t.Fatal("filesystem is not disabled")
	}
	if _, err := f.Lookup("nope"); err == nil || !strings.Contains(err.Error(), "filesystem, github, my server, sqlite-old") {
		t.Fatalf("lookup error should list names: %v", err)
	}
}

func TestVSCodeWorkspace(t *testing.T) {
	f := load(t, "my project/.vscode/mcp.json", Options{LookupEnv: env(map[string]string{"HOME": "/home/ana"})})
	if f.Format != VSCode {
		t.Fatalf("format %s", f.Format)
	}
	ws, _ := filepath.Abs(filepath.Join("testdata", "my project"))
	if got, want := names(f), []string{"perplexity", "fetch", "github"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("names %q", got)
	}
	if !hasNote(f.Notes, `1 "inputs" are not prompted for`) {
		t.Fatalf("file notes %q", f.Notes)
	}
	p := server(t, f, "perplexity")
	if p.Command != "uv" || p.Args[2] != ws+"/servers/perplexity" {
		t.Fatalf("workspaceFolder (with a space in it) in args: %q", p.Args)
	}
	if p.Cwd != ws+"/servers" {
		t.Fatalf("cwd %q", p.Cwd)
	}
	want := []string{
		"API_BASE=https://example.test/v1",
		"HOME_DIR=/home/ana",
		"MISSING=",
		"PERPLEXITY_API_KEY=${input:perplexity-key}",
		"QUOTED=two words\tand a tab",
		"SINGLE=$NOT_EXPANDED",
	}
	if !reflect.DeepEqual(p.Env, want) {
		t.Fatalf("env:\n got %q\nwant %q", p.Env, want)
	}
	if !hasNote(p.Notes, "${input:perplexity-key} is an input") || !hasNote(p.Notes, "${env:MCP_INSPECT_SURELY_UNSET} is not set") {
		t.Fatalf("notes %q", p.Notes)
	}
	fetch := server(t, f, "fetch")
	if fetch.Type != "stdio" || !fetch.Stdio() {
		t.Fatalf("a server without type but with a command is stdio: %+v", fetch)
	}
	gh := server(t, f, "github")
	if gh.Type != "http" || gh.URL != "https://api.githubcopilot.com/mcp/" || gh.Stdio() {
		t.Fatalf("http entry: %+v", gh)
	}
}

func TestVSCodeSettings(t *testing.T) {
	f := load(t, "vscode-user/settings.json", Options{})
	if f.Format != VSCode {
		t.Fatalf("format %s", f.Format)
	}
	m := server(t, f, "memory")
	if !reflect.DeepEqual(m.Env, []string{"MEMORY_FILE_PATH=/home/ana/.memory.json"}) || !hasNote(m.Notes, "env REMOVE_ME is null") {
		t.Fatalf("memory: %+v", m)
	}
}

func TestCursor(t *testing.T) {
	f := load(t, "cursor-project/.cursor/mcp.json", Options{LookupEnv: env(map[string]string{"PGPASSWORD": "s3cret"})})
	if f.Format != Cursor {
		t.Fatalf("format %s", f.Format)
	}
	pg := server(t, f, "postgres")
	if pg.Args[2] != "postgresql://localhost/cursor-project" || !reflect.DeepEqual(pg.Env, []string{"PGPASSWORD=s3cret"}) {
		t.Fatalf("postgres: %+v", pg)
	}
	if n := server(t, f, "notes"); n.Command != "/home/ana/bin/notes-mcp" || len(n.Args) != 0 {
		t.Fatalf("notes: %+v", n)
	}
	if l := server(t, f, "linear"); l.Type != "http" || l.Stdio() || l.URL != "https://mcp.linear.app/sse" {
		t.Fatalf("linear: %+v", l)
	}
}

func TestClaudeCode(t *testing.T) {
	f := load(t, "claude-code/.mcp.json", Options{LookupEnv: env(map[string]string{"API_KEY": "k1", "REGION": ""})})
	if f.Format != ClaudeCode {
		t.Fatalf("format %s", f.Format)
	}
	a := server(t, f, "api-server")
	if a.Command != "/opt/tools/api-mcp" {
		t.Fatalf("default applies when unset: %q", a.Command)
	}
	if !reflect.DeepEqual(a.Args, []string{"--config", "${CONFIG_PATH}"}) || !hasNote(a.Notes, "${CONFIG_PATH} is not set") {
		t.Fatalf("unset without default stays, with a note: %q %q", a.Args, a.Notes)
	}
	if !reflect.DeepEqual(a.Env, []string{"API_KEY=k1", "REGION=eu-west-1"}) {
		t.Fatalf("env (empty value takes the default): %q", a.Env)
	}
	if s := server(t, f, "sentry"); s.Type != "http" {
		t.Fatalf("sentry: %+v", s)
	}
}

func TestStripJSONC(t *testing.T) {
	in := `{
  // line comment with "quotes" and a , comma
  "a": "http://x/*not a comment*/", /* block
  comment */ "b": [1, 2,],
  "c": "trailing \" , }",
}`
	out, err := StripJSONC([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	keys, vals, err := orderedObject(out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !reflect.DeepEqual(keys, []string{"a", "b", "c"}) || string(vals["a"]) != `"http://x/*not a comment*/"` || string(vals["c"]) != `"trailing \" , }"` {
		t.Fatalf("keys %q vals %q", keys, vals)
	}
	if strings.Count(string(out), "\n") != strings.Count(in, "\n") {
		t.Fatal("line numbers must be kept")
	}
	if _, err := StripJSONC([]byte(`{"a":1 /* open`)); err == nil {
		t.Fatal("unterminated comment must be an error")
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"not object", `[1]`, "not a JSON object"},
		{"no servers", `{"editor.fontSize": 14}`, `top-level keys: editor.fontSize`},
		{"stdio without command", `{"servers": {"x": {"type": "stdio"}}}`, `needs a "command"`},
		{"nothing", `{"mcpServers": {"x": {"env": {}}}}`, `neither "command" nor "url"`},
		{"bad args", `{"mcpServers": {"x": {"command": "a", "args": "b c"}}}`, `"args" must be an array`},
	} {
		_, err := Parse([]byte(tc.in), "/tmp/c.json", Options{LookupEnv: env(nil)})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// Only a file without a servers object is ErrNoServers (which listing skips quietly).
	_, err := Parse([]byte(`{"numStartups": 3, "projects": {}}`), "/home/ana/.claude.json", Options{LookupEnv: env(nil)})
	if !errors.Is(err, ErrNoServers) || err.Error() != `/home/ana/.claude.json: no "mcpServers" (Claude Desktop, Claude Code, Cursor) or "servers" (VS Code) object; top-level keys: numStartups, projects` {
		t.Fatalf("no servers: %v", err)
	}
	if _, err := Parse([]byte(`[1]`), "/tmp/c.json", Options{LookupEnv: env(nil)}); errors.Is(err, ErrNoServers) {
		t.Fatalf("not an object: %v", err)
	}
	f, err := Parse([]byte(`{"mcpServers": {"x": {"command": ["node", "a b.js"], "args": ["--v"], "enabled": false}}}`), "/tmp/c.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	x := f.Servers[0]
	if x.Command != "node" || !reflect.DeepEqual(x.Args, []string{"a b.js", "--v"}) || !x.Disabled {
		t.Fatalf("argv command and enabled:false: %+v", x)
	}
	// The argv's rest is expanded as "args" elements are, and an argv of one leaves no args.
	f, err = Parse([]byte(`{"mcpServers": {"x": {"command": ["node", "${userHome}/s.js"]}, "y": {"command": ["run"]}}}`), "/p/.cursor/mcp.json",
		Options{Home: "/home/me", LookupEnv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Servers[0].Args; !reflect.DeepEqual(got, []string{"/home/me/s.js"}) {
		t.Fatalf("argv rest not expanded: %q", got)
	}
	if got := f.Servers[1].Args; got != nil {
		t.Fatalf("argv of one: args %#v, want nil", got)
	}
}

// An entry's keys are matched exactly, as the hosts' JSON.parse matches them: "arGs" and
// "Command" are not "args" and "command" (encoding/json alone would take them), so the
// server is what the host would run, and what a wrap of the entry leaves it (the fuzz case
// of configwrap's FuzzWrapRoundTrip that found it).
func TestEntryKeysMatchExactly(t *testing.T) {
	data := []byte(`{"mcpServers":{"s":{"command":["node","a.js"],"arGs":["x"],"Env":{"K":"v"}}}}`)
	f, err := Parse(data, "/p/.cursor/mcp.json", Options{Home: "/home/ana", LookupEnv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	s := server(t, f, "s")
	if s.Command != "node" || !reflect.DeepEqual(s.Args, []string{"a.js"}) || len(s.Env) != 0 {
		t.Fatalf("command %q args %q env %q: keys in other letter case were read", s.Command, s.Args, s.Env)
	}
	_, err = Parse([]byte(`{"mcpServers":{"t":{"Command":"node"}}}`), "/p/.cursor/mcp.json", Options{Home: "/home/ana", LookupEnv: env(nil)})
	if err == nil || !strings.Contains(err.Error(), `neither "command" nor "url" is set`) {
		t.Fatalf(`"Command" alone: %v (want: neither "command" nor "url" is set)`, err)
	}
}
