package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Path is a location inside a JSON value: object member names and array indexes.
type Path []PathElem

// PathElem is one step of a Path: Key for an object member, Index for an array element.
type PathElem struct {
	Key     string
	Index   int
	IsIndex bool
}

// String writes the path in JSONPath notation: $.result.content[0].text, with
// ['odd key'] for names that are not plain identifiers.
func (p Path) String() string {
	var b strings.Builder
	b.WriteByte('$')
	for _, e := range p {
		switch {
		case e.IsIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.Index))
			b.WriteByte(']')
		case plainKey(e.Key):
			b.WriteByte('.')
			b.WriteString(e.Key)
		default:
			b.WriteString("['")
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(e.Key, `\`, `\\`), `'`, `\'`))
			b.WriteString("']")
		}
	}
	return b.String()
}

func plainKey(k string) bool {
	if k == "" {
		return false
	}
	for i, c := range k {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (p Path) with(e PathElem) Path {
	q := make(Path, len(p), len(p)+1)
	copy(q, p)
	return append(q, e)
}

// JSONPath is a compiled ignore path: a subset of JSONPath with $ (optional), .name,
// ['name'], [N], [*], .* and ..name (any depth). A path matches a location and everything
// under it. An optional "METHOD:" prefix limits it to messages of that method
// ("tools/call:$.result.content[0].text").
type JSONPath struct {
	// Method limits the path to responses to this method; empty means every message.
	Method string
	src    string
	segs   []pseg
}

type psegKind uint8

const (
	segKey psegKind = iota
	segIndex
	segAny
	segDescend // the next segment may match at any depth
)

type pseg struct {
	kind  psegKind
	key   string
	index int
}

// String is the path as given.
func (j *JSONPath) String() string { return j.src }

// ParseJSONPath compiles a path; it fails with a message that points at the bad character.
func ParseJSONPath(s string) (*JSONPath, error) {
	jp := &JSONPath{src: s}
	expr := s
	if i := strings.Index(s, ":$"); i > 0 {
		jp.Method, expr = s[:i], s[i+1:]
	}
	expr = strings.TrimSpace(expr)
	i := 0
	if strings.HasPrefix(expr, "$") {
		i = 1
	} else if expr != "" && expr[0] != '.' && expr[0] != '[' {
		expr = "." + expr // "result.x" means "$.result.x"
	}
	fail := func(at int, why string) (*JSONPath, error) {
		return nil, fmt.Errorf("JSONPath %q: %s at offset %d", s, why, at)
	}
	for i < len(expr) {
		switch expr[i] {
		case '.':
			if strings.HasPrefix(expr[i:], "..") {
				jp.segs = append(jp.segs, pseg{kind: segDescend})
				i += 2
				if i < len(expr) && expr[i] == '[' {
					continue
				}
			} else {
				i++
			}
			if i < len(expr) && expr[i] == '*' {
				jp.segs = append(jp.segs, pseg{kind: segAny})
				i++
				continue
			}
			j := i
			for j < len(expr) && expr[j] != '.' && expr[j] != '[' {
				j++
			}
			if j == i {
				return fail(i, "empty member name")
			}
			jp.segs = append(jp.segs, pseg{kind: segKey, key: expr[i:j]})
			i = j
		case '[':
			end := strings.IndexByte(expr[i:], ']')
			if end < 0 {
				return fail(i, "unclosed [")
			}
			inner := strings.TrimSpace(expr[i+1 : i+end])
			switch {
			case inner == "*":
				jp.segs = append(jp.segs, pseg{kind: segAny})
			case len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0]:
				key := inner[1 : len(inner)-1]
				key = strings.ReplaceAll(strings.ReplaceAll(key, `\'`, `'`), `\\`, `\`)
				jp.segs = append(jp.segs, pseg{kind: segKey, key: key})
			default:
				n, err := strconv.Atoi(inner)
				if err != nil || n < 0 {
					return fail(i, "want [N], [*] or ['name']")
				}
				jp.segs = append(jp.segs, pseg{kind: segIndex, index: n})
			}
			i += end + 1
		default:
			return fail(i, "want . or [")
		}
	}
	if len(jp.segs) > 0 && jp.segs[len(jp.segs)-1].kind == segDescend {
		return fail(len(expr), "nothing after ..")
	}
	return jp, nil
}

// Matches reports whether the path p is at or under a location the JSONPath names.
func (j *JSONPath) Matches(p Path) bool { return matchSegs(j.segs, p) }

func matchSegs(segs []pseg, p Path) bool {
	if len(segs) == 0 {
		return true
	}
	s := segs[0]
	if s.kind == segDescend {
		for k := 0; k < len(p); k++ {
			if matchSegs(segs[1:], p[k:]) {
				return true
			}
		}
		return false
	}
	if len(p) == 0 {
		return false
	}
	e := p[0]
	switch s.kind {
	case segKey:
		if e.IsIndex || e.Key != s.key {
			return false
		}
	case segIndex:
		if !e.IsIndex || e.Index != s.index {
			return false
		}
	case segAny:
	}
	return matchSegs(segs[1:], p[1:])
}

// Difference is one place where two JSON values differ. Recorded or Got is nil when the
// member is absent on that side.
type Difference struct {
	Path     string          `json:"path"`
	Recorded json.RawMessage `json:"recorded,omitempty"`
	Got      json.RawMessage `json:"got,omitempty"`
}

// Compare reports the differences between two JSON documents, structurally: member order
// and number spelling (1 vs 1.0) do not matter, strings that both hold JSON objects or
// arrays (JSON inside text content) are compared as JSON, and locations matched by ignore
// are skipped. Invalid JSON on either side is compared as text at the root. Neither
// document is copied: a Difference's values are slices of them when they are large.
func Compare(recorded, got json.RawMessage, ignore []*JSONPath) []Difference {
	if !json.Valid(recorded) || !json.Valid(got) {
		if bytes.Equal(bytes.TrimSpace(recorded), bytes.TrimSpace(got)) {
			return nil
		}
		return []Difference{{Path: "$", Recorded: jsonOrString(recorded), Got: jsonOrString(got)}}
	}
	return compareNodes(parseNode(recorded), parseNode(got), ignore)
}

// compareNodes is Compare on parsed documents.
func compareNodes(a, b jnode, ignore []*JSONPath) []Difference {
	c := comparer{ignore: ignore}
	c.member(nil, side{a, true}, side{b, true})
	return c.out
}

func jsonOrString(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	if json.Valid(raw) {
		return raw
	}
	b, _ := json.Marshal(string(raw))
	return b
}

func ignored(p Path, ignore []*JSONPath) bool {
	for _, j := range ignore {
		if j.Matches(p) {
			return true
		}
	}
	return false
}

// comparer walks two parsed JSON values side by side, collecting differences outside
// the ignored paths.
type comparer struct {
	ignore []*JSONPath
	out    []Difference
}

// side is one side's value at a path; ok is false when the member is absent there.
type side struct {
	v  jnode
	ok bool
}

// member compares the values at p, either of which may be absent.
func (c *comparer) member(p Path, a, b side) {
	if ignored(p, c.ignore) {
		return
	}
	if !a.ok || !b.ok {
		d := Difference{Path: p.String()}
		if a.ok {
			d.Recorded = a.v.shown()
		}
		if b.ok {
			d.Got = b.v.shown()
		}
		c.out = append(c.out, d)
		return
	}
	c.values(p, a.v, b.v)
}

// differ records that a and b differ at p.
func (c *comparer) differ(p Path, a, b jnode) {
	c.out = append(c.out, Difference{Path: p.String(), Recorded: a.shown(), Got: b.shown()})
}

// values compares two present values at a path that is not ignored.
func (c *comparer) values(p Path, a, b jnode) {
	if a.kind == b.kind {
		switch a.kind {
		case '{':
			c.objects(p, a.obj, b.obj)
			return
		case '[':
			c.arrays(p, a.arr, b.arr)
			return
		case '"':
			if bytes.Equal(a.raw, b.raw) {
				return
			}
			at, bt := a.text(), b.text()
			if bytes.Equal(at, bt) {
				return
			}
			// JSON inside text: compare what it says, not how it is spelled.
			if ja, jb, ok := embeddedJSON(at, bt); ok {
				c.values(p, ja, jb)
				return
			}
		case 'n':
			if numbersEqual(a.number(), b.number()) {
				return
			}
		default: // true, false, null
			return
		}
	}
	c.differ(p, a, b)
}

// objects compares two objects member by member, in sorted key order.
func (c *comparer) objects(p Path, a, b map[string]jnode) {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, dup := a[k]; !dup {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		x, okA := a[k]
		y, okB := b[k]
		c.member(p.with(PathElem{Key: k}), side{x, okA}, side{y, okB})
	}
}

// arrays compares two arrays item by item; extra items are absent on the other side.
func (c *comparer) arrays(p Path, a, b []jnode) {
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y side
		if i < len(a) {
			x = side{a[i], true}
		}
		if i < len(b) {
			y = side{b[i], true}
		}
		c.member(p.with(PathElem{Index: i, IsIndex: true}), x, y)
	}
}

// embeddedJSON parses two strings' texts that both hold a JSON object or array.
func embeddedJSON(a, b []byte) (jnode, jnode, bool) {
	ta, tb := bytes.TrimSpace(a), bytes.TrimSpace(b)
	if len(ta) == 0 || len(tb) == 0 || (ta[0] != '{' && ta[0] != '[') || (tb[0] != '{' && tb[0] != '[') {
		return jnode{}, jnode{}, false
	}
	if !json.Valid(ta) || !json.Valid(tb) {
		return jnode{}, jnode{}, false
	}
	return parseNode(ta), parseNode(tb), true
}

func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	if x, err := a.Int64(); err == nil {
		if y, err := b.Int64(); err == nil {
			return x == y
		}
	}
	x, errA := a.Float64()
	y, errB := b.Float64()
	return errA == nil && errB == nil && x == y
}
