package settings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// testChecks is a stand-in for cmd's theme check.
func testChecks() Checks {
	return Checks{
		Theme: func(name string) error {
			if name != "dark" && name != "light" {
				return fmt.Errorf("unknown theme %q", name)
			}
			return nil
		},
	}
}

const goodFile = `# mcp-inspect settings
theme = "dark"
era = "auto"
timeout = "90s"
roots = ["/srv/project", "file:///tmp/x"]
redact = ["sk-[A-Za-z0-9]+"]
mouse = false
split = 60

[keys]
wire.search = "ctrl+g"
global.quit = ["q", "ctrl+q"]

[servers.everything]
command = "node"
args = ["dist/index.js", "stdio"]
env = { API_KEY = "secret", DEBUG = "1" }
cwd = "/srv"
framing = "content-length"
timeout = "5m"

[servers."remote one"]
url = "https://example.com/mcp"
headers = { "X-Api-Key" = "k", Accept = "application/json" }
transport = "sse"
era = "modern"
`

func TestParseGood(t *testing.T) {
	s, err := Parse("config.toml", []byte(goodFile), testChecks())
	if err != nil {
		t.Fatal(err)
	}
	f := false
	want := &Settings{
		Path:    "config.toml",
		Theme:   "dark",
		Era:     "auto",
		Timeout: 90 * time.Second,
		Roots:   []string{"/srv/project", "file:///tmp/x"},
		Redact:  []string{"sk-[A-Za-z0-9]+"},
		Mouse:   &f,
		Split:   60,
		Keys:    map[string][]string{"wire.search": {"ctrl+g"}, "global.quit": {"q", "ctrl+q"}},
		Servers: []Server{
			{Name: "everything", Command: "node", Args: []string{"dist/index.js", "stdio"}, Env: []string{"API_KEY=secret", "DEBUG=1"}, Cwd: "/srv", Framing: "content-length", Timeout: 5 * time.Minute},
			{Name: "remote one", URL: "https://example.com/mcp", Headers: []string{"Accept: application/json", "X-Api-Key: k"}, Transport: "sse", Era: "modern"},
		},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got  %+v\nwant %+v", s, want)
	}
	if sv, err := s.Lookup("remote one"); err != nil || !sv.Remote() {
		t.Errorf("Lookup(remote one) = %+v, %v", sv, err)
	}
	_, err = s.Lookup("everythin")
	if err == nil || !strings.Contains(err.Error(), "it has everything, remote one") {
		t.Errorf("Lookup of a missing profile: %v", err)
	}
}

func TestParseEmptyAndHome(t *testing.T) {
	s, err := Parse("c.toml", nil, testChecks())
	if err != nil || s.Path != "c.toml" || s.Mouse != nil || s.Servers != nil || s.Timeout != 0 {
		t.Fatalf("empty file: %+v, %v", s, err)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	s, err = Parse("c.toml", []byte("roots = [\"~/src\"]\n[servers.a]\ncommand = \"x\"\ncwd = \"~/srv\"\n"), Checks{})
	if err != nil || s.Roots[0] != filepath.Join(home, "src") || s.Servers[0].Cwd != filepath.Join(home, "srv") {
		t.Errorf("~/: %+v, %v", s, err)
	}
}

// TestParseErrors: every malformed or invalid file is an error that names file:line:col
// and what is wrong.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
	}{
		{"unterminated string", "theme = \"dark\n", `c.toml:1:`},
		{"no value", "theme = \n", `c.toml:1:9: `},
		{"unquoted string", "theme = dark\n", `c.toml:1:9: unexpected character U+0064 'd' at start of value (a string is quoted: "dark"; true and false are bare)`},
		{"unquoted era", "era = modern # x\n", `c.toml:1:7: unexpected character U+006D 'm' at start of value (a string is quoted: "modern"; true and false are bare)`},
		{"unquoted in array", "roots = [/srv/a, \"b\"]\n", `c.toml:1:10: unexpected character U+002F '/' at start of value (a string is quoted: "/srv/a"; true and false are bare)`},
		{"no equals", "[servers.a]\ncommand\n", `c.toml:2:`},
		{"bad table header", "[servers.a\ncommand = \"x\"\n", `c.toml:1:`},
		{"duplicate key", "theme = \"dark\"\ntheme = \"light\"\n", `c.toml:2:1: key theme is already defined`},
		{"typo at top", "theme = \"dark\"\nthme = \"light\"\n", `c.toml:2:1: unknown key "thme" at the top level (did you mean "theme"?)`},
		{"unknown far from any", "colour_scheme = 1\n", `c.toml:1:1: unknown key "colour_scheme" at the top level (known: theme, era,`},
		{"typo in a profile", "[servers.a]\ncomand = \"x\"\n", `c.toml:2:1: unknown key "comand" in [servers.a] (did you mean "command"?)`},
		{"mouse not bool", "mouse = \"yes\"\n", `c.toml:1:9: mouse: want true or false, got a string`},
		{"split out of range", "split = 95\n", `c.toml:1:9: split: want a whole percent from 20 to 80 (the list's share of a pane beside its detail), got 95`},
		{"split not a number", "split = \"half\"\n", `c.toml:1:9: split: want a whole percent from 20 to 80 (the list's share of a pane beside its detail), got half`},
		{"theme not string", "theme = 3\n", `c.toml:1:9: theme: want a string, got an integer`},
		{"unknown theme", "theme = \"neon\"\n", `c.toml:1:9: theme: unknown theme "neon"`},
		{"bad era", "\nera = \"future\"\n", `c.toml:2:7: era: `},
		{"timeout integer", "timeout = 30\n", `c.toml:1:11: timeout: want a duration string such as "30s"`},
		{"timeout unparsable", "timeout = \"soon\"\n", `c.toml:1:11: timeout: want a duration such as "30s" or "2m", got "soon"`},
		{"timeout negative", "timeout = \"-1s\"\n", `c.toml:1:11: timeout: must be positive`},
		{"profile timeout unparsable", "[servers.a]\ncommand = \"x\"\ntimeout = \"5 min\"\n", `c.toml:3:11: servers.a.timeout: want a duration such as "30s" or "2m", got "5 min"`},
		{"profile timeout integer", "[servers.a]\nurl = \"http://h/mcp\"\ntimeout = 30\n", `c.toml:3:11: servers.a.timeout: want a duration string such as "30s"`},
		{"roots not array", "roots = \"/x\"\n", `c.toml:1:9: roots: want an array of strings, got a string`},
		{"root not string", "roots = [\n  \"/a\",\n  7,\n]\n", `c.toml:3:3: roots[1]: want a string, got an integer`},
		{"empty root", "roots = [\"\"]\n", `c.toml:1:10: roots[0]: an empty root`},
		{"bad regex", "redact = [\"ok\", \"(\"]\n", `c.toml:1:17: redact[1]: not an RE2 pattern`},
		{"empty regex", "redact = [\"\"]\n", `c.toml:1:11: redact[0]: an empty pattern would match everywhere`},
		{"keys not table", "keys = \"x\"\n", `c.toml:1:8: keys: want a table`},
		{"taps not tables", "taps = 1\n", `c.toml:1:8: taps: want tables such as [taps.NAME]`},
		{"typo in a tap profile", "[taps.fs]\ninjct = []\n", `c.toml:2:1: unknown key "injct" in [taps.fs] (did you mean "inject"?)`},
		{"tap inject not strings", "[taps.fs]\ninject = [1]\n", `c.toml:2:11: taps.fs.inject[0]: want a string, got an integer`},
		{"keys group not table", "[keys]\nquit = \"q\"\n", `c.toml:2:8: keys.quit: want a table of actions`},
		{"unknown action", "[keys.wire]\nserch = \"/\"\n", `c.toml:2:1: keys.wire.serch: no action "serch" in wire (its actions are jump, wire_filter, filter_expr, search, search_next, search_prev, flow)`},
		{"unknown key name", "[keys]\nwire.search = [\"ctrl+f\", \"nokey\"]\n", `c.toml:2:6: keys.wire.search: key "nokey": no such key`},
		{"key not string", "[keys]\nglobal.quit = [\"q\", 1]\n", `c.toml:2:21: keys.global.quit[1]: want a key name, got an integer`},
		{"no keys", "[keys]\nglobal.quit = []\n", `c.toml:2:15: keys.global.quit: give at least one key`},
		{"key clash with a list key", "[keys]\nwire.search = \"ctrl+f\"\n", `c.toml:2:6: keys.wire.search: key "ctrl+f" is already list.page_down's (by default) and both work in wire; give one of them another key`},
		{"key clash with a default", "[keys.wire]\nsearch = \"n\"\n", `c.toml:2:1: keys.wire.search: key "n" is already wire.search_next's (by default) and both work in wire; give one of them another key`},
		{"key clash with a global key", "[keys]\ncall.edit = [\"e\", \"q\"]\n", `c.toml:2:6: keys.call.edit: key "q" is already global.quit's (by default) and both work in call; give one of them another key`},
		// Issue 27 moved list keys: a settings file that puts the old key back on an action
		// says which action has it now.
		{"old list filter key", "[keys]\nlist.filter = \"/\"\n", `c.toml:2:6: keys.list.filter: key "/" is already list.search's (by default) and both work in list, tools, resources, prompts, logs, tasks; give one of them another key`},
		{"old next page key", "[keys]\nlist.next_page = \"n\"\n", `c.toml:2:6: keys.list.next_page: key "n" is already list.search_next's (by default) and both work in list, tools, resources, prompts; give one of them another key`},
		{"key clash of two overrides", "[keys]\nwire.jump = \"ctrl+j\"\nlist.top = \"ctrl+j\"\n", `c.toml:2:6: keys.wire.jump: key "ctrl+j" is already list.top's (by its override) and both work in wire; give one of them another key`},
		{"servers not table", "servers = 1\n", `c.toml:1:11: servers: want tables such as [servers.NAME]`},
		{"profile not table", "[servers]\nx = 1\n", `c.toml:2:5: servers.x: want a table`},
		{"profile empty", "[servers.a]\n", `c.toml:1:10: servers.a: give command = "..."`},
		{"command and url", "[servers.a]\ncommand = \"x\"\nurl = \"http://h\"\n", `c.toml:3:7: servers.a.url: give command or url, not both`},
		{"url not http", "[servers.a]\nurl = \"ftp://h\"\n", `c.toml:2:7: servers.a.url: want an http:// or https:// URL`},
		{"args not strings", "[servers.a]\ncommand = \"x\"\nargs = [\"a\", true]\n", `c.toml:3:14: servers.a.args[1]: want a string, got a boolean`},
		{"env not table", "[servers.a]\ncommand = \"x\"\nenv = [\"A=1\"]\n", `c.toml:3:7: servers.a.env: want a table of strings`},
		{"env value not string", "[servers.a]\ncommand = \"x\"\nenv = { A = 1 }\n", `c.toml:3:13: servers.a.env.A: want a string, got an integer`},
		{"env bad name", "[servers.a]\ncommand = \"x\"\nenv = { \"A=B\" = \"1\" }\n", `c.toml:3:9: servers.a.env: "A=B" is not a usable name`},
		{"header line break", "[servers.a]\nurl = \"http://h\"\nheaders = { A = \"x\\ny\" }\n", `c.toml:3:17: servers.a.headers.A: a value cannot hold a line break`},
		{"headers on a command", "[servers.a]\ncommand = \"x\"\nheaders = { A = \"b\" }\n", `c.toml:3:1: servers.a.headers is for a remote server`},
		{"env on a url", "[servers.a]\nurl = \"http://h\"\nenv = { A = \"b\" }\n", `c.toml:3:1: servers.a.env is for a server mcp-inspect starts`},
		{"bad framing", "[servers.a]\ncommand = \"x\"\nframing = \"lsp\"\n", `c.toml:3:11: servers.a.framing: framing "lsp": want newline, content-length or auto`},
		{"bad transport", "[servers.a]\nurl = \"http://h\"\ntransport = \"ws\"\n", `c.toml:3:13: servers.a.transport: `},
		{"bad profile era", "[servers.a]\ncommand = \"x\"\nera = \"x\"\n", `c.toml:3:7: servers.a.era: `},
		{"quoted name in message", "[servers.\"my srv\"]\ncommand = 1\n", `c.toml:2:11: servers."my srv".command: want a string, got an integer`},
		{"date value", "theme = 1979-05-27\n", `c.toml:1:9: theme: want a string, got a date or time`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse("c.toml", []byte(tc.file), testChecks())
			if err == nil {
				t.Fatalf("no error; got %+v", s)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n  %s\nwant it to start with\n  %s", err, tc.want)
			}
		})
	}
}

func TestLocate(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	loc, err := Locate(env(map[string]string{EnvPath: "/etc/mi.toml", "XDG_CONFIG_HOME": "/x"}))
	if err != nil || loc != (Location{Path: "/etc/mi.toml", From: EnvPath, Explicit: true}) {
		t.Errorf("%s wins: %+v, %v", EnvPath, loc, err)
	}
	loc, err = Locate(env(map[string]string{"XDG_CONFIG_HOME": "/x"}))
	if err != nil || loc != (Location{Path: filepath.Join("/x", "mcp-inspect", "config.toml"), From: "XDG_CONFIG_HOME"}) {
		t.Errorf("XDG_CONFIG_HOME: %+v, %v", loc, err)
	}
	// A relative XDG_CONFIG_HOME is ignored, as the XDG spec says.
	loc, err = Locate(env(map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": os.Getenv("HOME")}))
	if err == nil && strings.HasPrefix(loc.Path, "rel") {
		t.Errorf("relative XDG_CONFIG_HOME used: %+v", loc)
	}
	if err == nil && !strings.HasSuffix(loc.Path, filepath.Join("mcp-inspect", "config.toml")) {
		t.Errorf("default: %+v", loc)
	}
	// No config directory at all: no file, and why; Load gives the defaults.
	if runtime.GOOS == "linux" {
		loc, err = Locate(env(nil))
		if err != nil || loc.Path != "" || loc.None == "" {
			t.Errorf("no HOME: %+v, %v", loc, err)
		}
		if s, err := Load(loc, Checks{}); err != nil || s.Path != "" {
			t.Errorf("Load without a config directory: %+v, %v", s, err)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.toml")
	s, err := Load(Location{Path: missing}, Checks{})
	if err != nil || s.Path != "" {
		t.Errorf("a missing file in the default place: %+v, %v", s, err)
	}
	if _, err := Load(Location{Path: missing, Explicit: true}, Checks{}); err == nil || !strings.Contains(err.Error(), "MCP_INSPECT_CONFIG="+missing+": no such file") {
		t.Errorf("a missing named file: %v", err)
	}
	good := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(good, []byte("mouse = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = Load(Location{Path: good}, Checks{})
	if err != nil || s.Path != good || s.Mouse == nil || !*s.Mouse {
		t.Errorf("good file: %+v, %v", s, err)
	}
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("mouse = yes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(Location{Path: bad}, Checks{}); err == nil || !strings.HasPrefix(err.Error(), bad+":1:9: ") {
		t.Errorf("malformed file: %v", err)
	}
	// A directory where the file should be is refused, not read.
	if _, err := Load(Location{Path: dir}, Checks{}); err == nil {
		t.Error("a directory was read as the settings file")
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte(strings.Repeat("#", MaxFileSize+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(Location{Path: big}, Checks{}); err == nil {
		t.Error("a file over MaxFileSize was read")
	}
}

// TestServerOrder: profiles keep their order in the file, not the map's.
func TestServerOrder(t *testing.T) {
	var b strings.Builder
	names := []string{"zeta", "alpha", "mid", "beta", "omega", "a1"}
	for _, n := range names {
		fmt.Fprintf(&b, "[servers.%s]\ncommand = \"x\"\n", n)
	}
	s, err := Parse("c.toml", []byte(b.String()), Checks{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sv := range s.Servers {
		got = append(got, sv.Name)
	}
	if !slices.Equal(got, names) {
		t.Errorf("order %v, want %v", got, names)
	}
}

func TestNearest(t *testing.T) {
	for k, want := range map[string]string{"thme": "theme", "Theme": "theme", "timout": "timeout", "roots": "roots", "zzzzzz": ""} {
		if got := nearest(k, topKeys()); got != want {
			t.Errorf("nearest(%q) = %q, want %q", k, got, want)
		}
	}
}

// FuzzParse: no input panics, and an error always names the file.
func FuzzParse(f *testing.F) {
	f.Add([]byte(goodFile))
	f.Add([]byte("[keys]\nwire.search = [\"a\", 1]\n"))
	f.Add([]byte("a = [[1], {b = 2}]\n[[servers]]\nx = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse("f.toml", data, testChecks())
		if err != nil && !strings.HasPrefix(err.Error(), "f.toml") && !errors.Is(err, os.ErrNotExist) {
			t.Errorf("error without the file name: %v", err)
		}
	})
}

func TestCheckKeys(t *testing.T) {
	for _, tc := range []struct {
		action string
		keys   []string
		want   string // "" = valid
	}{
		{"wire.search", []string{"ctrl+f"}, ""},
		{"global.quit", []string{"q", "ctrl+q", "f10", "Q", "?", "+", "ctrl++", "ctrl+alt+shift+delete", "é"}, ""},
		{"wire.serch", []string{"/"}, `no action "serch" in wire (its actions are jump, wire_filter, filter_expr, search, search_next, search_prev, flow)`},
		{"global.saveSession", []string{"s"}, `no action "saveSession" in global (did you mean "save_session"?)`},
		{"wir.search", []string{"/"}, `no key group "wir" (the groups are global, list, detail,`},
		{"global.quit", nil, "give at least one key"},
		{"global.quit", []string{""}, "an empty key name"},
		{"global.quit", []string{"ctl+q"}, `key "ctl+q": "ctl" is not a modifier`},
		{"global.quit", []string{"alt+ctrl+q"}, `key "alt+ctrl+q": write the modifiers in the order ctrl+alt+shift+meta+hyper+super`},
		{"global.quit", []string{"ctrl+ctrl+q"}, `write the modifiers in the order`},
		{"global.quit", []string{"pagedown"}, `key "pagedown": no such key`},
		{"global.quit", []string{"f64"}, `key "f64": no such key`},
		{"global.quit", []string{"ctrl+"}, `no such key`},
		{"global.quit", []string{" "}, `write the space bar as "space"`},
		{"global.quit", []string{"\x07"}, `not a printable character`},
		{"global.quit", []string{"shift+a"}, `a shifted character is named by what it types`},
	} {
		err := CheckKeys(tc.action, tc.keys)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %q: %v", tc.action, tc.keys, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s %q: error %v, want %q", tc.action, tc.keys, err, tc.want)
		}
	}
}

// TestParseBOMAndControlBytes: a leading UTF-8 byte-order mark is skipped; a raw control
// byte anywhere else (TOML forbids them outside tab, CR, LF) is an error at file:line:col.
func TestParseBOMAndControlBytes(t *testing.T) {
	good := "theme = \"plain\" # c\nroots = [\"/a\", 'b']\n\n[servers.x]\nurl = \"https://x\"\n"
	s, err := Parse("f.toml", []byte("\ufeff"+good), Checks{})
	if err != nil || s.Theme != "plain" || len(s.Servers) != 1 {
		t.Fatalf("a leading byte-order mark: %+v, %v", s, err)
	}
	if _, err := Parse("f.toml", []byte("mouse = true\n\ufeff"), Checks{}); err == nil {
		t.Error("a byte-order mark after the start was accepted")
	}
	at := regexp.MustCompile(`^f\.toml:\d+:\d+: `)
	for _, c := range []string{"\x00", "\x01", "\x08", "\x0b", "\x0c", "\x1b", "\x1f", "\x7f"} {
		for i := 0; i <= len(good); i++ {
			d := good[:i] + c + good[i:]
			if _, err := Parse("f.toml", []byte(d), Checks{}); err == nil || !at.MatchString(err.Error()) {
				t.Fatalf("%q at %d of %q: %v", c, i, good, err)
			}
		}
	}
}

// TestKeyOverridesWithoutClash: moving a key away from its action frees it (a swap is no
// clash), keys that act in different panes or modes may be the same, and so may two
// actions that share a key by default.
func TestKeyOverridesWithoutClash(t *testing.T) {
	for _, file := range []string{
		"[keys.wire]\nsearch = \"n\"\nsearch_next = \"ctrl+n\"\n",
		"[keys]\nwire.search = \"s\"\n",             // s subscribes in 5 Resources only
		"[keys]\nform.check = [\"space\", \"c\"]\n", // space also toggles, by default
		"[keys]\nlogs.level_filter = \"p\"\n",       // p is the wire's jump to the partner
		"[keys]\nglobal.quit = \"ctrl+q\"\ncall.edit = \"q\"\n",
		"[keys]\njson.copy_path = \"c\"\n", // its key before issue 27: c calls by name in Tools only
	} {
		if _, err := Parse("c.toml", []byte(file), Checks{}); err != nil {
			t.Errorf("%q: %v", file, err)
		}
	}
}
