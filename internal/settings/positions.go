package settings

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// pos is a place in the file: byte offset, 1-based line and column.
type pos struct {
	offset, line, col int
}

// positions are where each key and value of the file is, by key path (joinPath): what
// the decoded map[string]any no longer knows. Array elements are "[i]" path parts.
type positions struct {
	key   map[string]pos
	value map[string]pos
}

// indexPositions walks the file's expressions (the file already decoded without error).
func indexPositions(data []byte) *positions {
	ix := &positions{key: map[string]pos{}, value: map[string]pos{}}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = table[:0]
			it := e.Key()
			for it.Next() {
				table = append(table, string(it.Node().Data))
				ix.setKey(&p, table, it.Node())
			}
		case unstable.KeyValue:
			ix.keyValue(&p, table, e)
		}
	}
	return ix
}

// keyValue records a key = value line under the table path prefix.
func (ix *positions) keyValue(p *unstable.Parser, prefix []string, e *unstable.Node) {
	path := append([]string(nil), prefix...)
	it := e.Key()
	var last *unstable.Node
	for it.Next() {
		last = it.Node()
		path = append(path, string(last.Data))
		ix.setKey(p, path, last)
	}
	v := e.Value()
	if v.Kind == unstable.Array || v.Kind == unstable.InlineTable {
		// The parser gives an array no range and an inline table only its '{': the
		// value starts at the first byte after the '=' that follows the key.
		data := p.Data()
		i := int(last.Raw.Offset + last.Raw.Length)
		for i < len(data) && data[i] != '=' {
			i++
		}
		for i++; i < len(data) && (data[i] == ' ' || data[i] == '\t'); i++ {
		}
		if i < len(data) {
			ix.value[joinPath(path)] = at(p, unstable.Range{Offset: uint32(i), Length: 1})
		}
	}
	ix.setValue(p, path, v)
}

func (ix *positions) setKey(p *unstable.Parser, path []string, n *unstable.Node) {
	k := joinPath(path)
	if _, ok := ix.key[k]; !ok {
		ix.key[k] = at(p, n.Raw)
	}
}

func (ix *positions) setValue(p *unstable.Parser, path []string, v *unstable.Node) {
	if v.Raw.Length > 0 {
		ix.value[joinPath(path)] = at(p, v.Raw)
	}
	switch v.Kind {
	case unstable.Array:
		i := 0
		it := v.Children()
		for it.Next() {
			if n := it.Node(); n.Kind != unstable.Comment {
				ix.setValue(p, append(append([]string(nil), path...), index(i)), n)
				i++
			}
		}
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if n := it.Node(); n.Kind == unstable.KeyValue {
				ix.keyValue(p, path, n)
			}
		}
	}
}

func at(p *unstable.Parser, r unstable.Range) pos {
	s := p.Shape(r).Start
	return pos{offset: s.Offset, line: s.Line, col: s.Column}
}

// find is the position of the value at path, else of its key, else of the nearest
// enclosing key or value that has one (the start of the file at worst).
func (ix *positions) find(path []string, valueFirst bool) pos {
	for n := len(path); n > 0; n-- {
		k := joinPath(path[:n])
		if v, ok := ix.value[k]; ok && valueFirst {
			return v
		}
		if v, ok := ix.key[k]; ok {
			return v
		}
		if v, ok := ix.value[k]; ok {
			return v
		}
	}
	return pos{line: 1, col: 1}
}

// index is an array element's path part.
func index(i int) string { return "[" + strconv.Itoa(i) + "]" }

// joinPath makes a key path one map key; NUL cannot be in a TOML key unescaped, and an
// escaped one only costs a position.
func joinPath(path []string) string { return strings.Join(path, "\x00") }

// dotted writes a key path as TOML would ("servers.\"my server\".args[1]").
func dotted(path []string) string {
	var b strings.Builder
	for i, part := range path {
		if strings.HasPrefix(part, "[") {
			b.WriteString(part)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		if part != "" && strings.IndexFunc(part, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
		}) < 0 {
			b.WriteString(part)
		} else {
			b.WriteString(strconv.Quote(part))
		}
	}
	return b.String()
}
