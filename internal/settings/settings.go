// Package settings reads mcp-inspect's own settings file: a TOML file (TOML 1.0, through
// github.com/pelletier/go-toml/v2) in the user's config directory that gives the defaults
// of the theme, the protocol era, the request timeout, the roots, the redaction patterns,
// mouse support, key overrides and named server profiles (`--server NAME` without
// --config). Flags given on the command line win over the file; the file wins over the
// built-in defaults.
//
// A malformed file, a value of the wrong type, an unknown key (a typo) and an invalid value
// are errors that name the file, line and column: "config.toml:3:1: unknown key "thme" (did
// you mean "theme"?)". Loading never panics on any input.
package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/boundedfile"
	"github.com/mcp-inspect/mcp-inspect/internal/configdir"
	"github.com/mcp-inspect/mcp-inspect/internal/suggest"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// EnvPath is the environment variable that names the settings file instead of the default
// place; when set, the file must exist.
const EnvPath = "MCP_INSPECT_CONFIG"

// SplitMin and SplitMax bound the split setting (percent).
const (
	SplitMin = 20
	SplitMax = 80
)

// MaxFileSize bounds the settings file (1 MiB): a settings file is a few hundred bytes.
const MaxFileSize = 1 << 20

// Settings are the values read from the file. A zero field was not set in the file.
type Settings struct {
	// Path is the file read; "" when there was none.
	Path string
	// Theme is a themes name (the --theme default).
	Theme string
	// Era is "legacy", "modern" or "auto" (the --era default).
	Era string
	// Timeout is the per-request timeout (the --timeout default); 0 when not set.
	Timeout time.Duration
	// Roots are the roots offered to roots/list (the --root default): paths (a leading ~/
	// is the home directory) or file:// URIs.
	Roots []string
	// Redact are RE2 patterns whose matches are scrubbed from traces, added to --redact.
	Redact []string
	// Mouse turns mouse support on or off; nil when the file does not say.
	Mouse *bool
	// Split is the list's share, in percent (SplitMin to SplitMax), of a TUI pane that
	// shows a list beside or above its detail (Tools, Wire, Resources, Prompts, Logs,
	// Tasks); 0 when the file does not say (each pane's default).
	Split int
	// Keys are key overrides: an action of the key table ("wire.search") to the keys that
	// trigger it instead of its default ones (bubbletea key names: "ctrl+f", "F", "f5").
	Keys map[string][]string
	// Servers are the named server profiles, in file order.
	Servers []Server
	// Taps are the named tap profiles ([taps.NAME]), in file order: what `tap` with that
	// --name (or default name) takes when the command line gives none of it.
	Taps []Tap
	// Warnings are the values left out of the file because a check refused them and the
	// caller asked for a warning (Checks.ThemeWarns): "FILE:1:9: theme: unknown theme …".
	Warnings []string
	// SessionsMaxSize caps, in bytes, the automatic recordings kept in each sessions
	// directory of the state directory (sessions/, taps/NAME/): sessions_max_size, a size
	// such as "1GiB" or "500MB" or a number of bytes; 0 when not set.
	SessionsMaxSize int64
}

// Server is a named server profile: a command to start (stdio) or a remote server's URL.
type Server struct {
	// Name is the profile's table name ([servers.NAME]).
	Name string
	// Command and Args start a stdio server; Args go to it exactly as listed.
	Command string
	Args    []string
	// Env holds KEY=VALUE entries for a stdio server, sorted by key.
	Env []string
	// Cwd is the directory the server runs in ("" = the current one; a leading ~/ is the
	// home directory).
	Cwd string
	// Framing is a stdio server's framing ("newline", "content-length", "auto"; "" = unset).
	Framing string
	// URL is a remote server's http:// or https:// URL.
	URL string
	// Headers are "Name: value" lines sent to a remote server, sorted by name.
	Headers []string
	// BearerEnv names the variable whose value is sent as Authorization: Bearer.
	BearerEnv string
	// Transport is a remote server's transport ("http", "sse", "auto"; "" = unset).
	Transport string
	// Era overrides the file's era for this server ("" = unset).
	Era string
	// Timeout overrides the file's per-request timeout for this server (the --timeout
	// default when the profile is used); 0 when not set.
	Timeout time.Duration
}

// Tap is a named tap profile.
type Tap struct {
	// Name is the profile's table name ([taps.NAME]), the tap's --name.
	Name string
	// Inject are the tap's fault-injection rules ("FILTER => ACTION", as --inject takes
	// them; checked by Checks.Inject), used when the command line gives no --inject.
	Inject []string
}

// TapProfile returns the tap profile called name, nil when there is none.
func (s *Settings) TapProfile(name string) *Tap {
	for i := range s.Taps {
		if s.Taps[i].Name == name {
			return &s.Taps[i]
		}
	}
	return nil
}

// Remote reports whether the profile is a remote server (it has a URL).
func (s *Server) Remote() bool { return s.URL != "" }

// Lookup returns the profile called name, or an error that lists the profiles there are.
func (s *Settings) Lookup(name string) (*Server, error) {
	for i := range s.Servers {
		if s.Servers[i].Name == name {
			return &s.Servers[i], nil
		}
	}
	if s.Path == "" {
		return nil, fmt.Errorf("no server profile %q: there is no settings file (mcp-inspect settings path says where it goes); a server of a host's config file needs --config FILE", name)
	}
	var names []string
	for _, sv := range s.Servers {
		names = append(names, sv.Name)
	}
	have := "it has none"
	if len(names) > 0 {
		have = "it has " + strings.Join(names, ", ")
	}
	if near := suggest.Nearest(name, names); near != "" {
		have += fmt.Sprintf("; did you mean %q?", near)
	}
	return nil, fmt.Errorf("no server profile %q in %s (%s); a server of a host's config file needs --config FILE", name, s.Path, have)
}

// Checks validate values whose names another package owns; a nil check accepts anything.
// (Key overrides are checked against KeyActions, the UI's key table.)
type Checks struct {
	// Theme reports an unknown theme name.
	Theme func(name string) error
	// Inject reports a tap profile's inject rule that does not parse.
	Inject func(rule string) error
	// ThemeWarns makes a theme the Theme check refuses a warning, not an error: the theme
	// is left out (Settings.Theme stays "") and Settings.Warnings says why, with the file,
	// line and column. For the commands that show no theme (the headless ones), and for
	// those whose theme the command line or the environment chooses instead.
	ThemeWarns bool
}

// Location says where the settings file is looked for.
type Location struct {
	// Path is the file; "" when there is no config directory (see None).
	Path string
	// From says how Path was chosen: "MCP_INSPECT_CONFIG", "XDG_CONFIG_HOME", "HOME" or
	// "the user config directory".
	From string
	// Explicit is set when MCP_INSPECT_CONFIG named the file: then it must exist.
	Explicit bool
	// None says why there is no settings file when Path is "" (no $HOME and no absolute
	// $XDG_CONFIG_HOME): then the built-in defaults apply.
	None string
}

// Locate finds the settings file: $MCP_INSPECT_CONFIG, else
// $XDG_CONFIG_HOME/mcp-inspect/config.toml when that is absolute (on every system), else
// mcp-inspect/config.toml in the user config directory (~/.config on Linux; see
// configdir). With no config directory the Location has no Path and says why in None; that
// is no error. getenv reads the environment (os.Getenv). The error is always nil (kept for
// callers).
func Locate(getenv func(string) string) (Location, error) {
	if p := getenv(EnvPath); p != "" {
		return Location{Path: p, From: EnvPath, Explicit: true}, nil
	}
	d, from, why := configdir.Dir(getenv)
	if d == "" {
		return Location{None: why}, nil
	}
	return Location{Path: filepath.Join(d, "mcp-inspect", "config.toml"), From: from}, nil
}

// Load reads the file at loc. A missing file that was not named explicitly is no error:
// it gives empty Settings (Path ""), and so does a Location without a Path.
func Load(loc Location, checks Checks) (*Settings, error) {
	if loc.Path == "" {
		return &Settings{}, nil
	}
	data, err := boundedfile.Read(loc.Path, MaxFileSize)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !loc.Explicit {
			return &Settings{}, nil
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s=%s: no such file", EnvPath, loc.Path)
		}
		return nil, fmt.Errorf("settings file: %w", err)
	}
	return Parse(loc.Path, data, checks)
}

// Parse reads a settings file's bytes; name is the file's path for messages.
//
// A leading UTF-8 byte-order mark (some Windows editors write one) is accepted and skipped.
// Raw control characters other than tab, CR and LF are refused with their line and column
// (TOML 1.0 forbids them; the TOML parser finds them).
func Parse(name string, data []byte, checks Checks) (*Settings, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			msg := strings.TrimPrefix(de.Error(), "toml: ")
			if strings.Contains(msg, "at start of value") {
				msg += fmt.Sprintf(" (a string is quoted: %s; true and false are bare)", quotedHint(data, line, col))
			}
			return nil, fmt.Errorf("%s:%d:%d: %s", name, line, col, msg)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	at := indexPositions(data)
	if d := at.tooDeep; d != nil {
		return nil, fmt.Errorf("%s:%d:%d: the key %s… goes deeper than %d parts: a settings key has a few (servers.NAME.env.KEY has 4)", name, d.at.line, d.at.col, dotted(d.parts[:min(len(d.parts), 8)]), MaxKeyDepth)
	}
	r := &reader{name: name, at: at, checks: checks}
	s := &Settings{Path: name}
	if err := r.top(doc, s); err != nil {
		return nil, err
	}
	return s, nil
}

// quotedHint is the bare word at line:col (1-based) of data, quoted as the TOML string it
// was probably meant to be; "dark" when there is no word there.
func quotedHint(data []byte, line, col int) string {
	lines := strings.Split(string(data), "\n")
	word := ""
	if line >= 1 && line <= len(lines) && col >= 1 && col <= len(lines[line-1]) {
		rest := lines[line-1][col-1:]
		if end := strings.IndexAny(rest, " \t\r,]}#"); end >= 0 {
			rest = rest[:end]
		}
		word = rest
	}
	if word == "" || len(word) > 40 || !utf8.ValidString(word) || strings.ContainsAny(word, "\"'") || strings.IndexFunc(word, unicode.IsControl) >= 0 {
		word = "dark"
	}
	return strconv.Quote(word)
}

// topKeys are the keys the top level may hold.
func topKeys() []string {
	return []string{"theme", "era", "timeout", "roots", "redact", "mouse", "split", "sessions_max_size", "keys", "servers", "taps"}
}

// serverKeys are the keys a [servers.NAME] table may hold.
func serverKeys() []string {
	return []string{"command", "args", "env", "cwd", "framing", "url", "headers", "bearer_env", "transport", "era", "timeout"}
}

// reader turns the decoded document into Settings, naming the position of what is wrong.
type reader struct {
	name   string
	at     *positions
	checks Checks
}

// errAt is an error at the key path's value (or its key when the value has no position).
func (r *reader) errAt(path []string, format string, args ...any) error {
	p := r.at.find(path, true)
	return fmt.Errorf("%s:%d:%d: %s: %s", r.name, p.line, p.col, dotted(path), fmt.Sprintf(format, args...))
}

// errKey is an error at the key path's key.
func (r *reader) errKey(path []string, format string, args ...any) error {
	p := r.at.find(path, false)
	return fmt.Errorf("%s:%d:%d: %s", r.name, p.line, p.col, fmt.Sprintf(format, args...))
}

// unknown rejects the keys of table (at path) that are not in known, the first in the
// file first, with the nearest known key as a suggestion.
func (r *reader) unknown(path []string, table map[string]any, known []string) error {
	var bad []string
	for k := range table {
		if !slices.Contains(known, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	r.sortByPosition(path, bad)
	k := bad[0]
	where := "at the top level"
	if len(path) > 0 {
		where = "in [" + dotted(path) + "]"
	}
	msg := fmt.Sprintf("unknown key %q %s", k, where)
	if near := nearest(k, known); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	} else {
		msg += " (known: " + strings.Join(known, ", ") + ")"
	}
	return r.errKey(append(path, k), "%s", msg)
}

// sortByPosition orders keys of the table at path by where they are in the file.
func (r *reader) sortByPosition(path []string, keys []string) {
	table := r.at.node(path)
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := r.at.keyAt(table, keys[i]), r.at.keyAt(table, keys[j])
		if a.offset != b.offset {
			return a.offset < b.offset
		}
		return keys[i] < keys[j]
	})
}

func (r *reader) top(doc map[string]any, s *Settings) error {
	if err := r.unknown(nil, doc, topKeys()); err != nil {
		return err
	}
	var err error
	if s.Theme, err = r.str(doc, nil, "theme"); err != nil {
		return err
	}
	if s.Theme != "" && r.checks.Theme != nil {
		if err := r.checks.Theme(s.Theme); err != nil {
			err = r.errAt([]string{"theme"}, "%v", err)
			if !r.checks.ThemeWarns {
				return err
			}
			s.Theme, s.Warnings = "", append(s.Warnings, err.Error())
		}
	}
	if s.Era, err = r.era(doc, nil); err != nil {
		return err
	}
	if s.Timeout, err = r.timeout(doc, nil); err != nil {
		return err
	}
	if s.Roots, err = r.strs(doc, nil, "roots"); err != nil {
		return err
	}
	for i, root := range s.Roots {
		if root == "" {
			return r.errAt([]string{"roots", index(i)}, "an empty root")
		}
		s.Roots[i] = expandHome(root)
	}
	if s.Redact, err = r.strs(doc, nil, "redact"); err != nil {
		return err
	}
	for i, p := range s.Redact {
		if _, err := regexp.Compile(p); err != nil {
			return r.errAt([]string{"redact", index(i)}, "not an RE2 pattern: %v", err)
		}
		if p == "" {
			return r.errAt([]string{"redact", index(i)}, "an empty pattern would match everywhere")
		}
	}
	if v, ok := doc["mouse"]; ok {
		b, ok := v.(bool)
		if !ok {
			return r.errAt([]string{"mouse"}, "want true or false, got %s", kind(v))
		}
		s.Mouse = &b
	}
	if v, ok := doc["split"]; ok {
		n, ok := v.(int64)
		if !ok || n < SplitMin || n > SplitMax {
			return r.errAt([]string{"split"}, "want a whole percent from %d to %d (the list's share of a pane beside its detail), got %v", SplitMin, SplitMax, v)
		}
		s.Split = int(n)
	}
	if s.SessionsMaxSize, err = r.size(doc, "sessions_max_size"); err != nil {
		return err
	}
	if s.Keys, err = r.keys(doc); err != nil {
		return err
	}
	if s.Servers, err = r.servers(doc); err != nil {
		return err
	}
	s.Taps, err = r.taps(doc)
	return err
}

// taps reads the [taps.NAME] tables: inject = ["FILTER => ACTION", ...].
func (r *reader) taps(doc map[string]any) ([]Tap, error) {
	v, ok := doc["taps"]
	if !ok {
		return nil, nil
	}
	tables, ok := v.(map[string]any)
	if !ok {
		return nil, r.errAt([]string{"taps"}, "want tables such as [taps.NAME] with inject = [\"method:tools/call => delay 2s\"], got %s", kind(v))
	}
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	r.sortByPosition([]string{"taps"}, names)
	out := make([]Tap, 0, len(names))
	for _, n := range names {
		path := []string{"taps", n}
		t, ok := tables[n].(map[string]any)
		if !ok {
			return nil, r.errAt(path, "want a table with inject = [...], got %s", kind(tables[n]))
		}
		if err := r.unknown(path, t, []string{"inject"}); err != nil {
			return nil, err
		}
		rules, err := r.strs(t, path, "inject")
		if err != nil {
			return nil, err
		}
		for i, rule := range rules {
			if r.checks.Inject == nil {
				break
			}
			if err := r.checks.Inject(rule); err != nil {
				return nil, r.errAt(append(slices.Clone(path), "inject", index(i)), "%v", err)
			}
		}
		out = append(out, Tap{Name: n, Inject: rules})
	}
	return out, nil
}

// str reads an optional string at path+key.
func (r *reader) str(t map[string]any, path []string, key string) (string, error) {
	v, ok := t[key]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", r.errAt(append(slices.Clone(path), key), "want a string, got %s", kind(v))
	}
	return s, nil
}

// strs reads an optional array of strings at path+key.
func (r *reader) strs(t map[string]any, path []string, key string) ([]string, error) {
	v, ok := t[key]
	if !ok {
		return nil, nil
	}
	p := append(slices.Clone(path), key)
	arr, ok := v.([]any)
	if !ok {
		return nil, r.errAt(p, "want an array of strings, got %s", kind(v))
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, r.errAt(append(p, index(i)), "want a string, got %s", kind(e))
		}
		out = append(out, s)
	}
	return out, nil
}

// strMap reads an optional table of strings at path+key, as sorted "K<sep>V" lines.
func (r *reader) strMap(t map[string]any, path []string, key, sep string) ([]string, error) {
	v, ok := t[key]
	if !ok {
		return nil, nil
	}
	p := append(slices.Clone(path), key)
	m, ok := v.(map[string]any)
	if !ok {
		return nil, r.errAt(p, "want a table of strings such as { NAME = \"value\" }, got %s", kind(v))
	}
	var out []string
	for k, e := range m {
		s, ok := e.(string)
		if !ok {
			return nil, r.errAt(append(slices.Clone(p), k), "want a string, got %s", kind(e))
		}
		if k == "" || strings.ContainsAny(k, "= \t\r\n:") {
			return nil, r.errKey(append(slices.Clone(p), k), "%s: %q is not a usable name", dotted(p), k)
		}
		if strings.ContainsAny(s, "\r\n\x00") {
			return nil, r.errAt(append(slices.Clone(p), k), "a value cannot hold a line break or NUL")
		}
		out = append(out, k+sep+s)
	}
	sort.Strings(out)
	return out, nil
}

func (r *reader) era(t map[string]any, path []string) (string, error) {
	s, err := r.str(t, path, "era")
	if err != nil || s == "" {
		return s, err
	}
	if _, err := mcpclient.ParseEra(s); err != nil {
		return "", r.errAt(append(slices.Clone(path), "era"), "%v", err)
	}
	return s, nil
}

// timeout reads an optional duration string at path+"timeout" (the top level, or a
// profile).
func (r *reader) timeout(t map[string]any, path []string) (time.Duration, error) {
	p := append(slices.Clone(path), "timeout")
	if _, isInt := t["timeout"].(int64); isInt {
		return 0, r.errAt(p, "want a duration string such as \"30s\" or \"2m\", got an integer")
	}
	s, err := r.str(t, path, "timeout")
	if err != nil || s == "" {
		return 0, err
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, r.errAt(p, "want a duration such as \"30s\" or \"2m\", got %q", s)
	}
	if d <= 0 {
		return 0, r.errAt(p, "must be positive, got %q", s)
	}
	return d, nil
}

// keys reads [keys]: tables of actions per group (keys.wire.search = "ctrl+f", or
// [keys.wire] search = ["ctrl+f", "/"]).
func (r *reader) keys(doc map[string]any) (map[string][]string, error) {
	v, ok := doc["keys"]
	if !ok {
		return nil, nil
	}
	groups, ok := v.(map[string]any)
	if !ok {
		return nil, r.errAt([]string{"keys"}, "want a table such as [keys.wire] search = \"ctrl+f\", got %s", kind(v))
	}
	out := map[string][]string{}
	for g, gv := range groups {
		actions, ok := gv.(map[string]any)
		if !ok {
			return nil, r.errAt([]string{"keys", g}, "want a table of actions, such as [keys.%s] followed by action = \"key\" lines, got %s", g, kind(gv))
		}
		for a, av := range actions {
			path := []string{"keys", g, a}
			var ks []string
			switch av := av.(type) {
			case string:
				ks = []string{av}
			case []any:
				for i, e := range av {
					s, ok := e.(string)
					if !ok {
						return nil, r.errAt(append(path, index(i)), "want a key name, got %s", kind(e))
					}
					ks = append(ks, s)
				}
			default:
				return nil, r.errAt(path, "want a key name or an array of key names, got %s", kind(av))
			}
			if len(ks) == 0 {
				return nil, r.errAt(path, "give at least one key")
			}
			action := g + "." + a
			if err := CheckKeys(action, ks); err != nil {
				return nil, r.errKey(path, "keys.%s: %v", action, err)
			}
			out[action] = ks
		}
	}
	// A clash is reported at the override that brings the key, the first in the file.
	actions := make([]string, 0, len(out))
	for a := range out {
		actions = append(actions, a)
	}
	sort.Slice(actions, func(i, j int) bool {
		pi, pj := r.at.find(keyPath(actions[i]), false), r.at.find(keyPath(actions[j]), false)
		if pi.offset != pj.offset {
			return pi.offset < pj.offset
		}
		return actions[i] < actions[j]
	})
	for _, a := range actions {
		if err := KeyClash(a, out); err != nil {
			return nil, r.errKey(keyPath(a), "keys.%s: %v", a, err)
		}
	}
	return out, nil
}

// keyPath is the key path of an override ("wire.search" → keys, wire, search).
func keyPath(action string) []string {
	g, a, _ := strings.Cut(action, ".")
	return []string{"keys", g, a}
}

// servers reads [servers.NAME] tables, in file order.
func (r *reader) servers(doc map[string]any) ([]Server, error) {
	v, ok := doc["servers"]
	if !ok {
		return nil, nil
	}
	tables, ok := v.(map[string]any)
	if !ok {
		return nil, r.errAt([]string{"servers"}, "want tables such as [servers.NAME], got %s", kind(v))
	}
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	r.sortByPosition([]string{"servers"}, names)
	out := make([]Server, 0, len(names))
	for _, n := range names {
		sv, err := r.server(n, tables[n])
		if err != nil {
			return nil, err
		}
		out = append(out, sv)
	}
	return out, nil
}

func (r *reader) server(name string, v any) (Server, error) {
	path := []string{"servers", name}
	t, ok := v.(map[string]any)
	if !ok {
		return Server{}, r.errAt(path, "want a table with command = \"...\" or url = \"...\", got %s", kind(v))
	}
	if name == "" {
		return Server{}, r.errKey(path, "servers: a profile needs a name")
	}
	if err := r.unknown(path, t, serverKeys()); err != nil {
		return Server{}, err
	}
	sv := Server{Name: name}
	var err error
	for _, f := range []struct {
		key string
		dst *string
	}{{"command", &sv.Command}, {"cwd", &sv.Cwd}, {"framing", &sv.Framing}, {"url", &sv.URL}, {"bearer_env", &sv.BearerEnv}, {"transport", &sv.Transport}} {
		if *f.dst, err = r.str(t, path, f.key); err != nil {
			return Server{}, err
		}
	}
	sv.Cwd = expandHome(sv.Cwd)
	if sv.Era, err = r.era(t, path); err != nil {
		return Server{}, err
	}
	if sv.Timeout, err = r.timeout(t, path); err != nil {
		return Server{}, err
	}
	if sv.Args, err = r.strs(t, path, "args"); err != nil {
		return Server{}, err
	}
	if sv.Env, err = r.strMap(t, path, "env", "="); err != nil {
		return Server{}, err
	}
	if sv.Headers, err = r.strMap(t, path, "headers", ": "); err != nil {
		return Server{}, err
	}
	return sv, r.checkServer(path, t, &sv)
}

// checkServer enforces one of command and url, and the keys that go with each.
func (r *reader) checkServer(path []string, t map[string]any, sv *Server) error {
	switch {
	case sv.Command == "" && sv.URL == "":
		return r.errKey(path, "servers.%s: give command = \"...\" (a server to start) or url = \"https://...\" (a remote server)", sv.Name)
	case sv.Command != "" && sv.URL != "":
		return r.errAt(append(slices.Clone(path), "url"), "give command or url, not both")
	}
	only := func(keys []string, what string) error {
		for _, k := range keys {
			if _, ok := t[k]; ok {
				return r.errKey(append(slices.Clone(path), k), "servers.%s.%s is for %s", sv.Name, k, what)
			}
		}
		return nil
	}
	if sv.Remote() {
		if !strings.HasPrefix(sv.URL, "http://") && !strings.HasPrefix(sv.URL, "https://") {
			return r.errAt(append(slices.Clone(path), "url"), "want an http:// or https:// URL, got %q", sv.URL)
		}
		if sv.Transport != "" {
			if _, _, err := mcpclient.ParseTransport(sv.Transport); err != nil {
				return r.errAt(append(slices.Clone(path), "transport"), "%v", err)
			}
		}
		return only([]string{"args", "env", "cwd", "framing"}, "a server mcp-inspect starts (command = ...)")
	}
	if sv.Framing != "" {
		if _, err := mcpclient.ParseFraming(sv.Framing); err != nil {
			return r.errAt(append(slices.Clone(path), "framing"), "%v", err)
		}
	}
	return only([]string{"headers", "bearer_env", "transport"}, "a remote server (url = ...)")
}

// kind names a decoded TOML value's type for messages.
func kind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// expandHome makes a leading ~/ the home directory.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, rest)
		}
	}
	return p
}

// nearest is the known key closest to k when it looks like a typo of it (suggest.Nearest).
func nearest(k string, known []string) string { return suggest.Nearest(k, known) }
