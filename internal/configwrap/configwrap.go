// Package configwrap rewrites one server entry of a host's config file (Claude Desktop,
// Claude Code, Cursor, VS Code; JSON with comments and trailing commas allowed) so the host
// starts the server through `mcp-inspect tap`, and restores it.
//
// The edit is surgical: only the entry's "command" and "args" values change (an "args"
// member is added when the entry had none); every other byte of the file — other entries,
// keys, comments, formatting — stays as it was. Wrapping
//
//	"everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}
//
// gives
//
//	"everything": {"command": "/abs/mcp-inspect", "args": ["tap", "--name", "everything", "--", "npx", "-y", "@modelcontextprotocol/server-everything"]}
//
// The original command and arguments are carried as their exact JSON text, so variables such
// as ${workspaceFolder} stay for the host to expand. Unwrap takes them back from after the
// "--"; when a backup of the file holds the entry as it was before wrapping, its exact text
// (formatting, an absent "args") is restored.
package configwrap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/hostconfig"
)

// ErrWrapped is returned by Wrap for an entry that already goes through the tap.
var ErrWrapped = errors.New("already wrapped")

// ErrNotWrapped is returned by Unwrap for an entry that does not go through the tap.
var ErrNotWrapped = errors.New("not wrapped")

// Options say how to wrap.
type Options struct {
	// Exe is the mcp-inspect binary the host will run (an absolute path).
	Exe string
	// Name is the tap's --name; default the entry's name.
	Name string
	// Extra are more tap flags, put before "--" (e.g. "--record", "/tmp/x.jsonl").
	Extra []string
}

// span is a value's bytes [start, end) in the file.
type span struct{ start, end int }

// member is one member of a JSON object: the key's first byte (its quote) and the value.
type member struct {
	key      string
	keyStart int
	val      span
	raw      json.RawMessage
}

// doc is a config file ready for editing: the original bytes and a copy with comments and
// trailing commas blanked out (same offsets), which is what gets parsed.
type doc struct {
	orig  []byte
	clean []byte
	bom   bool
}

func parseDoc(data []byte) (*doc, error) {
	d := &doc{}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		d.bom = true
		data = data[3:]
	}
	clean, err := hostconfig.StripJSONC(data)
	if err != nil {
		return nil, err
	}
	d.orig, d.clean = data, clean
	return d, nil
}

func (d *doc) bytes() []byte {
	if d.bom {
		return append([]byte("\xef\xbb\xbf"), d.orig...)
	}
	return d.orig
}

// members lists the members of the object at sp.
func (d *doc) members(sp span) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(d.clean[sp.start:sp.end]))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var out []member
	for dec.More() {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		end := sp.start + int(dec.InputOffset())
		ks := sp.start + before + bytes.IndexByte(d.clean[sp.start+before:], '"')
		out = append(out, member{key: key, keyStart: ks, val: span{end - len(raw), end}, raw: raw})
	}
	return out, nil
}

func find(ms []member, key string) *member {
	var m *member
	for i := range ms {
		if ms[i].key == key {
			m = &ms[i] // the last one wins, as in JSON.parse
		}
	}
	return m
}

// entry locates server name: the servers object's members and the entry's.
func (d *doc) entry(name string) (servers []member, e *member, fields []member, err error) {
	top, err := d.members(span{0, len(d.clean)})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("not a JSON object: %w", err)
	}
	var srv *member
	switch {
	case find(top, "mcpServers") != nil:
		srv = find(top, "mcpServers")
	case find(top, "servers") != nil:
		srv = find(top, "servers")
	case find(top, "mcp") != nil:
		mcp, err := d.members(find(top, "mcp").val)
		if err == nil {
			srv = find(mcp, "servers")
		}
		if srv == nil {
			return nil, nil, nil, errors.New(`"mcp" has no "servers" object`)
		}
	default:
		return nil, nil, nil, errors.New(`no "mcpServers" (Claude Desktop, Claude Code, Cursor) or "servers" (VS Code) object`)
	}
	servers, err = d.members(srv.val)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("the servers are not a JSON object: %w", err)
	}
	e = find(servers, name)
	if e == nil {
		names := make([]string, len(servers))
		for i, s := range servers {
			names[i] = s.key
		}
		if len(names) == 0 {
			return nil, nil, nil, errors.New("the file has no servers")
		}
		return nil, nil, nil, fmt.Errorf("no server %q; the file has: %s", name, strings.Join(names, ", "))
	}
	fields, err = d.members(e.val)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("server %q: %w", name, err)
	}
	return servers, e, fields, nil
}

// argvOf is the entry's command line as raw JSON values: "command" (a string, or an array
// some hand-written files use), then the elements of "args".
func argvOf(fields []member) ([]json.RawMessage, error) {
	cmd := find(fields, "command")
	if cmd == nil || string(cmd.raw) == "null" {
		if find(fields, "url") != nil || find(fields, "serverUrl") != nil {
			return nil, errors.New("it is not a stdio server (it has a url): only stdio servers can be tapped")
		}
		return nil, errors.New(`it has no "command"`)
	}
	var argv []json.RawMessage
	var s string
	if json.Unmarshal(cmd.raw, &s) == nil {
		argv = append(argv, cmd.raw)
	} else if err := json.Unmarshal(cmd.raw, &argv); err != nil || len(argv) == 0 {
		return nil, errors.New(`"command" must be a string`)
	}
	if a := find(fields, "args"); a != nil && string(a.raw) != "null" {
		var args []json.RawMessage
		if err := json.Unmarshal(a.raw, &args); err != nil {
			return nil, errors.New(`"args" must be an array`)
		}
		argv = append(argv, args...)
	}
	return argv, nil
}

// tapArgs returns the elements after the tap's "--" when the entry runs `mcp-inspect tap`
// (whatever the binary is called: its first argument is "tap" and a "--" follows), and the
// tap's --name.
func tapArgs(fields []member) (rest []json.RawMessage, name string, ok bool) {
	argv, err := argvOf(fields)
	if err != nil || len(argv) < 3 {
		return nil, "", false
	}
	var sub string
	_ = json.Unmarshal(argv[1], &sub)
	if sub != "tap" {
		return nil, "", false
	}
	for i := 2; i < len(argv); i++ {
		var a string
		_ = json.Unmarshal(argv[i], &a)
		if a == "--name" && i+1 < len(argv) {
			_ = json.Unmarshal(argv[i+1], &name)
		}
		if a == "--" {
			return argv[i+1:], name, i+1 < len(argv)
		}
	}
	return nil, "", false
}

// parseEntry parses the config data and finds server name's entry: the document, the
// entry's member and its fields (errors as parseDoc's and entry's).
func parseEntry(data []byte, name string) (*doc, *member, []member, error) {
	d, err := parseDoc(data)
	if err != nil {
		return nil, nil, nil, err
	}
	_, e, fields, err := d.entry(name)
	if err != nil {
		return nil, nil, nil, err
	}
	return d, e, fields, nil
}

// Wrapped reports whether server name of the config data runs through the tap.
func Wrapped(data []byte, name string) (bool, error) {
	_, _, fields, err := parseEntry(data, name)
	if err != nil {
		return false, err
	}
	_, _, ok := tapArgs(fields)
	return ok, nil
}

// Wrap rewrites server name of the config data to start through the tap and returns the
// new file contents. It refuses (ErrWrapped) an entry that already does.
func Wrap(data []byte, name string, opt Options) ([]byte, error) {
	if opt.Exe == "" {
		return nil, errors.New("configwrap: no mcp-inspect binary given")
	}
	d, e, fields, err := parseEntry(data, name)
	if err != nil {
		return nil, err
	}
	if _, _, ok := tapArgs(fields); ok {
		return nil, fmt.Errorf("server %q: %w (it already runs through mcp-inspect tap)", name, ErrWrapped)
	}
	argv, err := argvOf(fields)
	if err != nil {
		return nil, fmt.Errorf("server %q: %w", name, err)
	}
	tapName := opt.Name
	if tapName == "" {
		tapName = name
	}
	elems := []json.RawMessage{jsonString("tap"), jsonString("--name"), jsonString(tapName)}
	for _, x := range opt.Extra {
		elems = append(elems, jsonString(x))
	}
	elems = append(elems, jsonString("--"))
	elems = append(elems, argv...)
	return d.setCommand(e, fields, jsonString(opt.Exe), joinArray(elems), true), nil
}

// Unwrap restores server name of the config data to start the server directly, and
// returns the new file contents. backup, when not nil, is an earlier version of the file
// (the backup Wrap's caller kept): if its entry is the unwrapped form of this one, its
// exact "command" and "args" text is restored. It fails with ErrNotWrapped for an entry
// that does not run through the tap.
func Unwrap(data []byte, name string, backup []byte) ([]byte, error) {
	d, e, fields, err := parseEntry(data, name)
	if err != nil {
		return nil, err
	}
	rest, _, ok := tapArgs(fields)
	if !ok {
		return nil, fmt.Errorf("server %q: %w (it does not run through mcp-inspect tap)", name, ErrNotWrapped)
	}
	if backup != nil {
		if out, ok := unwrapFromBackup(d, e, fields, rest, backup, name); ok {
			return out, nil
		}
	}
	return d.setCommand(e, fields, rest[0], joinArray(rest[1:]), true), nil
}

// unwrapFromBackup restores the backup's exact text of the entry's command and args when
// the backup's entry is what the wrapped one started.
func unwrapFromBackup(d *doc, e *member, fields []member, rest []json.RawMessage, backup []byte, name string) ([]byte, bool) {
	bd, _, bfields, err := parseEntry(backup, name)
	if err != nil {
		return nil, false
	}
	if _, _, wrapped := tapArgs(bfields); wrapped {
		return nil, false
	}
	argv, err := argvOf(bfields)
	if err != nil || !sameValues(argv, rest) {
		return nil, false
	}
	cmd := find(bfields, "command")
	var args json.RawMessage
	if a := find(bfields, "args"); a != nil {
		args = bd.orig[a.val.start:a.val.end]
	}
	return d.setCommand(e, fields, bd.orig[cmd.val.start:cmd.val.end], args, args != nil), true
}

// sameValues compares two lists of JSON values by their compact text.
func sameValues(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		var x, y bytes.Buffer
		if json.Compact(&x, a[i]) != nil || json.Compact(&y, b[i]) != nil || x.String() != y.String() {
			return false
		}
	}
	return true
}

// setCommand replaces the entry's command value with cmd and its args value with args
// (adding an "args" member after "command" when there is none; removing it when keepArgs
// is false), and returns the new file. Edits go from the end of the file backwards so
// offsets stay valid.
func (d *doc) setCommand(e *member, fields []member, cmd, args json.RawMessage, keepArgs bool) []byte {
	type edit struct {
		start, end int
		text       []byte
	}
	c := find(fields, "command")
	a := find(fields, "args")
	var edits []edit
	switch {
	case a != nil && keepArgs:
		edits = append(edits, edit{a.val.start, a.val.end, args})
	case a != nil:
		// Remove the member with the separator before it (or after it, when it is first).
		start, end := a.keyStart, a.val.end
		if i := lastSignificant(d.clean[:start]); i >= 0 && d.clean[i] == ',' {
			start = i
		} else if j := nextSignificant(d.clean, end); j >= 0 && d.clean[j] == ',' {
			end = j + 1
		}
		edits = append(edits, edit{start, end, nil})
	case keepArgs:
		ins := append([]byte(`, "args": `), args...)
		edits = append(edits, edit{c.val.end, c.val.end, ins})
	}
	edits = append(edits, edit{c.val.start, c.val.end, cmd})
	// Apply from the highest offset down.
	for i := 0; i < len(edits); i++ {
		for j := i + 1; j < len(edits); j++ {
			if edits[j].start > edits[i].start {
				edits[i], edits[j] = edits[j], edits[i]
			}
		}
	}
	out := append([]byte(nil), d.orig...)
	for _, ed := range edits {
		out = append(out[:ed.start], append(append([]byte(nil), ed.text...), out[ed.end:]...)...)
	}
	nd := &doc{orig: out, bom: d.bom}
	return nd.bytes()
}

func lastSignificant(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return i
		}
	}
	return -1
}

func nextSignificant(b []byte, from int) int {
	for i := from; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return i
		}
	}
	return -1
}

func jsonString(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// joinArray writes a one-line JSON array of the values as given.
func joinArray(elems []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, e := range elems {
		if i > 0 {
			b.WriteString(", ")
		}
		b.Write(e)
	}
	b.WriteByte(']')
	return b.Bytes()
}
