// Package hostconfig reads the MCP server entries of the config files that hosts keep, so
// mcp-inspect can start a server exactly as a host would:
//
//   - Claude Desktop (claude_desktop_config.json): {"mcpServers": {NAME: {command, args, env}}};
//     no variable expansion.
//   - Claude Code (.mcp.json, ~/.claude.json): "mcpServers", with "type" and ${VAR} /
//     ${VAR:-default} expansion.
//   - Cursor (.cursor/mcp.json, ~/.cursor/mcp.json): "mcpServers", with ${env:NAME},
//     ${userHome}, ${workspaceFolder}, ${workspaceFolderBasename}, ${pathSeparator} (${/})
//     and "envFile".
//   - VS Code (.vscode/mcp.json, the user mcp.json, or settings.json under "mcp"):
//     {"servers": {NAME: {type, command, args, env, envFile, cwd}}, "inputs": [...]}, with
//     the same predefined variables as Cursor; ${input:ID} cannot be prompted for here, so it
//     is left as written, with a note.
//
// Files may carry comments and trailing commas (JSONC), as VS Code allows. Entries keep their
// order in the file. "disabled": true (or "enabled": false) marks an entry disabled, as Cline,
// Windsurf and several other hosts write it. Entries with a "url", or a type other than
// "stdio", are listed but cannot be started: mcp-inspect speaks stdio only so far.
//
// Everything that looks wrong but does not stop a host (an unset variable, a missing envFile,
// an env value of null) becomes a Note on the entry rather than an error; so does, with
// Options.Commands, a command the file's host may not start on Windows (npx for npx.cmd in
// a Claude config: ResolveCommand). Locations lists where each host's files are on an OS.
package hostconfig

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/boundedfile"
)

// Format names a host's config file format.
type Format string

// The formats Parse recognises.
const (
	ClaudeDesktop Format = "claude-desktop"
	ClaudeCode    Format = "claude-code"
	Cursor        Format = "cursor"
	VSCode        Format = "vscode"
)

// Server is one entry of a config file, with variables expanded.
type Server struct {
	// Name is the entry's key.
	Name string
	// Type is the transport as written ("stdio", "http", "sse", "streamable-http", ...), or
	// derived: "stdio" when there is a command, "http" when there is only a url.
	Type string
	// Command and Args start a stdio server; Args go to it exactly as listed.
	Command string
	Args    []string
	// Env holds KEY=VALUE entries, sorted by key: the envFile's first, then "env" over them.
	Env []string
	// Cwd is the working directory ("cwd"), empty when not given.
	Cwd string
	// URL is the endpoint of an HTTP or SSE server.
	URL string
	// Headers are the entry's "headers" as "Name: value" lines, sorted by name, variables
	// expanded (HTTP and SSE servers).
	Headers []string
	// Disabled is set by "disabled": true or "enabled": false.
	Disabled bool
	// Notes say what could not be resolved exactly as the host would.
	Notes []string
}

// Remote reports whether the entry is a remote server mcp-inspect can reach: a URL with
// type http, streamable-http or sse.
func (s *Server) Remote() bool {
	switch s.Type {
	case "http", "streamable-http", "streamablehttp", "sse":
		return s.URL != ""
	}
	return false
}

// Stdio reports whether the entry is a stdio server mcp-inspect can start.
func (s *Server) Stdio() bool {
	return s.Type == "stdio" && s.Command != ""
}

// File is a parsed config file.
type File struct {
	Path   string
	Format Format
	// Servers are in the order of the file.
	Servers []Server
	// Notes are about the file as a whole (inputs that are not prompted for, ignored parts).
	Notes []string
}

// Options tune variable expansion. Zero values take the defaults named on each field.
type Options struct {
	// Workspace is ${workspaceFolder}. Default: the parent of the file's directory when that
	// directory is .vscode or .cursor, else the file's own directory.
	Workspace string
	// Home is ${userHome}; default os.UserHomeDir.
	Home string
	// LookupEnv reads the environment; default os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Commands, when set, resolves each stdio entry's command as its OS finds programs and
	// notes one the file's host may fail to start (ResolveCommand, Resolution.Note: on
	// Windows, a batch file such as npx.cmd named in a Claude config); nil checks nothing.
	Commands *CommandLookup
}

func (o *Options) defaults(path string) {
	if o.Workspace == "" {
		dir := filepath.Dir(path)
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		switch filepath.Base(dir) {
		case ".vscode", ".cursor":
			dir = filepath.Dir(dir)
		}
		o.Workspace = dir
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
}

// ErrNoServers is Parse's error (wrapped, with the path and the keys there are) for a file
// with no servers object: Claude Code's ~/.claude.json, for one, holds its other settings
// without any.
var ErrNoServers = errors.New(`no "mcpServers" (Claude Desktop, Claude Code, Cursor) or "servers" (VS Code) object`)

// MaxFileSize bounds a config file (16 MiB): a mistaken path (a log, a disk image) is
// refused rather than read whole.
const MaxFileSize = 16 << 20

// MaxEnvFileSize bounds an envFile (1 MiB): envFile /dev/zero or a huge file is refused.
const MaxEnvFileSize = 1 << 20

// Load reads and parses the config file at path, at most MaxFileSize bytes; a FIFO is read
// only if its writer is there, a device is refused (internal/boundedfile).
func Load(path string, opt Options) (*File, error) {
	data, err := boundedfile.Read(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	return Parse(data, path, opt)
}

// Parse parses a config file's contents; path decides the format where the contents do not
// (an "mcpServers" file under .cursor is Cursor's, one named .mcp.json or .claude.json is
// Claude Code's) and anchors relative envFile paths and the default workspace.
func Parse(data []byte, path string, opt Options) (*File, error) {
	opt.defaults(path)
	clean, err := StripJSONC(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	keys, top, err := orderedObject(clean)
	if err != nil {
		return nil, fmt.Errorf("%s: not a JSON object: %w", path, err)
	}
	f := &File{Path: path}
	var servers json.RawMessage
	var inputs json.RawMessage
	switch {
	case top["mcpServers"] != nil:
		servers = top["mcpServers"]
		f.Format = mcpServersFormat(path)
		if top["servers"] != nil {
			f.Notes = append(f.Notes, `the file has both "mcpServers" and "servers"; only "mcpServers" is read`)
		}
		if f.Format == ClaudeCode && top["projects"] != nil {
			f.Notes = append(f.Notes, `per-project servers under "projects" are not read; only the top-level "mcpServers"`)
		}
	case top["servers"] != nil:
		servers, inputs, f.Format = top["servers"], top["inputs"], VSCode
	case top["mcp"] != nil:
		_, mcp, err := orderedObject(top["mcp"])
		if err != nil || mcp["servers"] == nil {
			return nil, fmt.Errorf(`%s: "mcp" has no "servers" object`, path)
		}
		servers, inputs, f.Format = mcp["servers"], mcp["inputs"], VSCode
	default:
		return nil, fmt.Errorf(`%s: %w; top-level keys: %s`, path, ErrNoServers, strings.Join(keys, ", "))
	}
	names, entries, err := orderedObject(servers)
	if err != nil {
		return nil, fmt.Errorf("%s: the servers are not a JSON object: %w", path, err)
	}
	if n := countInputs(inputs); n > 0 {
		f.Notes = append(f.Notes, fmt.Sprintf(`%d "inputs" are not prompted for: ${input:...} references stay as written`, n))
	}
	x := &expander{format: f.Format, opt: opt}
	for _, name := range names {
		s, err := parseServer(name, entries[name], x, path)
		if err != nil {
			return nil, fmt.Errorf("%s: server %q: %w", path, name, err)
		}
		f.Servers = append(f.Servers, s)
	}
	return f, nil
}

func countInputs(raw json.RawMessage) int {
	var in []json.RawMessage
	if json.Unmarshal(raw, &in) != nil {
		return 0
	}
	return len(in)
}

// mcpServersFormat tells Claude Desktop, Claude Code and Cursor files apart by path.
func mcpServersFormat(path string) Format {
	base := filepath.Base(path)
	if base == ".mcp.json" || base == ".claude.json" {
		return ClaudeCode
	}
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		if part == ".cursor" {
			return Cursor
		}
	}
	return ClaudeDesktop
}

// Lookup finds the entry called name; the error lists the names there are.
func (f *File) Lookup(name string) (*Server, error) {
	for i := range f.Servers {
		if f.Servers[i].Name == name {
			return &f.Servers[i], nil
		}
	}
	names := make([]string, 0, len(f.Servers))
	for _, s := range f.Servers {
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s has no servers", f.Path)
	}
	return nil, fmt.Errorf("%s has no server %q; it has: %s", f.Path, name, strings.Join(names, ", "))
}

// entry is the union of the fields the formats use.
type entry struct {
	Type      string            `json:"type"`
	Transport string            `json:"transport"`
	Command   json.RawMessage   `json:"command"`
	Args      json.RawMessage   `json:"args"`
	Env       json.RawMessage   `json:"env"`
	EnvFile   string            `json:"envFile"`
	Cwd       string            `json:"cwd"`
	URL       string            `json:"url"`
	ServerURL string            `json:"serverUrl"`
	Headers   map[string]string `json:"headers"`
	Disabled  *bool             `json:"disabled"`
	Enabled   *bool             `json:"enabled"`
}

// decodeEntry decodes a server entry, its keys matched exactly, as the hosts (JSON.parse)
// match them: encoding/json alone would also take "Args" or "arGs" for "args", which no
// host runs, and which the wrap of the entry (configwrap) rightly leaves alone.
func decodeEntry(raw json.RawMessage) (entry, error) {
	var e entry
	_, vals, err := orderedObject(raw)
	if err != nil {
		return e, err
	}
	t := reflect.TypeFor[entry]()
	exact := make(map[string]json.RawMessage, t.NumField())
	for i := range t.NumField() {
		if k := t.Field(i).Tag.Get("json"); vals[k] != nil {
			exact[k] = vals[k]
		}
	}
	b, err := json.Marshal(exact)
	if err != nil {
		return e, err
	}
	return e, json.Unmarshal(b, &e)
}

func parseServer(name string, raw json.RawMessage, x *expander, path string) (Server, error) {
	e, err := decodeEntry(raw)
	if err != nil {
		return Server{}, fmt.Errorf("not an object of the expected shape: %w", err)
	}
	s := Server{Name: name}
	x.notes = &s.Notes
	if e.Disabled != nil && *e.Disabled || e.Enabled != nil && !*e.Enabled {
		s.Disabled = true
	}
	if err := s.parseCommand(e, x); err != nil {
		return s, err
	}
	if err := s.parseEnv(e, x, path); err != nil {
		return s, err
	}
	if e.Cwd != "" {
		s.Cwd = x.expand(e.Cwd)
	}
	s.URL = x.expand(firstNonEmpty(e.URL, e.ServerURL))
	for k, v := range e.Headers {
		s.Headers = append(s.Headers, k+": "+x.expand(v))
	}
	sort.Strings(s.Headers)
	s.Type = strings.ToLower(firstNonEmpty(e.Type, e.Transport))
	switch {
	case s.Type == "":
		if s.Command != "" {
			s.Type = "stdio"
		} else if s.URL != "" {
			s.Type = "http"
		}
	case s.Type == "local":
		s.Type = "stdio"
	}
	if s.Type == "stdio" && s.Command == "" {
		return s, errors.New(`a stdio server needs a "command"`)
	}
	if s.Type == "stdio" && x.opt.Commands != nil {
		if n := ResolveCommand(s.Command, *x.opt.Commands).Note(x.format); n != "" {
			s.Notes = append(s.Notes, n)
		}
	}
	if s.Type == "" {
		return s, errors.New(`neither "command" nor "url" is set`)
	}
	return s, nil
}

// parseCommand sets Command and Args from the entry's "command" (a string, or an argv
// array, noted) and "args" (non-strings are passed as their JSON text, noted).
func (s *Server) parseCommand(e entry, x *expander) error {
	if len(e.Command) > 0 && string(e.Command) != "null" {
		var cmd string
		if err := json.Unmarshal(e.Command, &cmd); err != nil {
			// Some hand-written configs put the whole argv in "command".
			var argv []string
			if err2 := json.Unmarshal(e.Command, &argv); err2 != nil || len(argv) == 0 {
				return fmt.Errorf(`"command" must be a string`)
			}
			cmd = argv[0]
			for _, a := range argv[1:] {
				s.Args = append(s.Args, x.expand(a)) // expanded as "args" elements are
			}
			s.Notes = append(s.Notes, `"command" is an array; its first element is the command and the rest come before "args"`)
		}
		s.Command = x.expand(cmd)
	}
	if len(e.Args) > 0 && string(e.Args) != "null" {
		var args []any
		if err := json.Unmarshal(e.Args, &args); err != nil {
			return fmt.Errorf(`"args" must be an array`)
		}
		for i, a := range args {
			str, ok := a.(string)
			if !ok {
				b, _ := json.Marshal(a)
				str = string(b)
				s.Notes = append(s.Notes, fmt.Sprintf("args[%d] is %s, not a string; passed as its JSON text", i, str))
			}
			s.Args = append(s.Args, x.expand(str))
		}
	}
	if strings.Contains(s.Command, " ") && len(s.Args) == 0 {
		if _, err := os.Stat(s.Command); err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("the command %q has spaces and no args: hosts do not split it either; use \"args\"", s.Command))
		}
	}
	return nil
}

// parseEnv sets Env (sorted KEY=VALUE) from the entry's "envFile" (relative to the config
// file at path) and then "env", which wins; a null in "env" removes the key, noted.
func (s *Server) parseEnv(e entry, x *expander, path string) error {
	env := map[string]string{}
	if e.EnvFile != "" {
		ef := x.expand(e.EnvFile)
		if !filepath.IsAbs(ef) {
			ef = filepath.Join(filepath.Dir(path), ef)
		}
		vals, notes, err := readEnvFile(ef)
		for _, n := range notes {
			s.Notes = append(s.Notes, "envFile: "+n)
		}
		if err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("envFile: %v", err))
		}
		for k, v := range vals {
			env[k] = v
		}
	}
	if len(e.Env) > 0 && string(e.Env) != "null" {
		keys, vals, err := orderedObject(e.Env)
		if err != nil {
			return fmt.Errorf(`"env" must be an object`)
		}
		for _, k := range keys {
			raw := vals[k]
			var v string
			switch {
			case string(raw) == "null":
				s.Notes = append(s.Notes, fmt.Sprintf("env %s is null (the host removes it from the environment); mcp-inspect leaves the inherited value", k))
				delete(env, k)
				continue
			case json.Unmarshal(raw, &v) == nil:
			default:
				var b bytes.Buffer
				_ = json.Compact(&b, raw)
				v = b.String()
			}
			v = x.expand(v)
			if strings.ContainsRune(k, 0) || strings.ContainsRune(v, 0) {
				s.Notes = append(s.Notes, fmt.Sprintf("env %s holds a NUL byte, which no environment entry can: skipped", strconv.QuoteToASCII(k)))
				continue
			}
			env[k] = v
		}
	}
	for k, v := range env {
		s.Env = append(s.Env, k+"="+v)
	}
	sort.Strings(s.Env)
	return nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// readEnvFile reads a dotenv file: KEY=VALUE lines, "#" comments, an optional "export ",
// values optionally in single or double quotes (double quotes understand \n, \t, \" and \\).
// A line holding a NUL byte (which no environment entry can hold: the server would not
// start) is skipped with a note naming path:line; the other entries are kept.
func readEnvFile(path string) (map[string]string, []string, error) {
	data, err := boundedfile.Read(path, MaxEnvFileSize)
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return out, notes, fmt.Errorf("%s:%d: want KEY=VALUE", path, n)
		}
		if strings.ContainsRune(line, 0) {
			notes = append(notes, fmt.Sprintf("%s:%d: %s holds a NUL byte, which no environment entry can: skipped", path, n, strconv.QuoteToASCII(k)))
			continue
		}
		v = strings.TrimSpace(v)
		switch {
		case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
			v = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\\`, `\`).Replace(v[1 : len(v)-1])
		case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
			v = v[1 : len(v)-1]
		default:
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
		}
		out[k] = v
	}
	return out, notes, sc.Err()
}

// expander replaces ${...} references the way the file's host does.
type expander struct {
	format Format
	opt    Options
	notes  *[]string
}

func (x *expander) note(s string) {
	for _, n := range *x.notes {
		if n == s {
			return
		}
	}
	*x.notes = append(*x.notes, s)
}

func (x *expander) expand(s string) string {
	if x.format == ClaudeDesktop || !strings.Contains(s, "${") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		ref := s[i+2 : i+j]
		if v, ok := x.resolve(ref); ok {
			b.WriteString(v)
		} else {
			b.WriteString(s[i : i+j+1])
		}
		s = s[i+j+1:]
	}
}

// resolve gives the value of one ${ref}; false leaves the reference as written.
func (x *expander) resolve(ref string) (string, bool) {
	if x.format == ClaudeCode {
		name, def, hasDef := strings.Cut(ref, ":-")
		if v, ok := x.opt.LookupEnv(name); ok && (v != "" || !hasDef) {
			return v, true
		}
		if hasDef {
			return def, true
		}
		x.note(fmt.Sprintf("${%s} is not set in the environment; left as written", name))
		return "", false
	}
	switch {
	case ref == "workspaceFolder":
		return x.opt.Workspace, true
	case ref == "workspaceFolderBasename":
		return filepath.Base(x.opt.Workspace), true
	case ref == "userHome":
		return x.opt.Home, true
	case ref == "pathSeparator" || ref == "/":
		return string(filepath.Separator), true
	case strings.HasPrefix(ref, "env:"):
		name := strings.TrimPrefix(ref, "env:")
		v, ok := x.opt.LookupEnv(name)
		if !ok {
			x.note(fmt.Sprintf("${env:%s} is not set; it expands to an empty string, as in the host", name))
		}
		return v, true
	case strings.HasPrefix(ref, "input:"):
		x.note(fmt.Sprintf("${%s} is an input the host would prompt for; mcp-inspect leaves it as written (pass the value with -e or edit the file)", ref))
		return "", false
	}
	x.note(fmt.Sprintf("${%s} is not a variable mcp-inspect knows; left as written", ref))
	return "", false
}

// orderedObject decodes a JSON object into its members, keeping the order of the keys (a
// duplicate key keeps its first position and its last value, as JSON.parse does).
func orderedObject(raw json.RawMessage) ([]string, map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, errors.New("not an object")
	}
	var keys []string
	vals := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, dup := vals[k]; !dup {
			keys = append(keys, k)
		}
		vals[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	return keys, vals, nil
}

// StripJSONC turns JSON with comments (// and /* */) and trailing commas, as VS Code and
// Cursor accept, into plain JSON. Offsets are kept: comments become spaces, so a decode
// error still points at the right line. A UTF-8 byte order mark is dropped.
func StripJSONC(data []byte) ([]byte, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	out := make([]byte, len(data))
	copy(out, data)
	inString := false
	lastSig := -1 // index of the last significant byte outside strings and comments
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
				lastSig = i
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for i < len(out) && out[i] != '\n' {
				out[i] = ' '
				i++
			}
			continue
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			if end < 0 {
				return nil, fmt.Errorf("unterminated /* comment at byte %d", i)
			}
			stop := i + 2 + end + 2
			for ; i < stop; i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			i--
			continue
		case (c == '}' || c == ']') && lastSig >= 0 && out[lastSig] == ',':
			out[lastSig] = ' '
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			lastSig = i
		}
	}
	return out, nil
}
