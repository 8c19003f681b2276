package settings

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// MaxKeyDepth bounds how many parts a key path of the file has, counting its table header,
// its dotted key, inline tables and array elements: servers.NAME.env.KEY, the deepest key
// mcp-inspect reads, has 4. A deeper key is refused with its place in the file before
// anything else is read from it.
const MaxKeyDepth = 32

// pos is a place in the file: byte offset, 1-based line and column (in bytes, as the TOML
// parser counts them).
type pos struct {
	offset, line, col int
}

// posNode is one key path part in the tree of positions: where its key and its value are
// (when the file has them), and the parts below it.
type posNode struct {
	key, value     pos
	hasKey, hasVal bool
	kids           map[string]*posNode
}

// child is the node of part below n, made when missing.
func (n *posNode) child(part string) *posNode {
	c := n.kids[part]
	if c == nil {
		if n.kids == nil {
			n.kids = map[string]*posNode{}
		}
		c = &posNode{}
		n.kids[part] = c
	}
	return c
}

// positions are where each key and value of the file is, by key path: what the decoded
// map[string]any no longer knows. Array elements are "[i]" path parts. The paths form a
// tree, so a key of n parts costs n steps, not n joined prefixes, and line and column come
// from a table of line starts, not from counting lines from the top each time: indexing
// is linear in the file's size.
type positions struct {
	root  posNode
	p     *unstable.Parser
	lines []int // byte offset of each line's start
	// tooDeep is set at the first key path with more than MaxKeyDepth parts: indexing
	// stops there.
	tooDeep *deepKey
}

// deepKey is a key path past MaxKeyDepth: its first parts and where the next one is.
type deepKey struct {
	parts []string
	at    pos
}

// indexPositions walks the file's expressions (the file already decoded without error).
func indexPositions(data []byte) *positions {
	var p unstable.Parser
	p.Reset(data)
	ix := &positions{p: &p, lines: lineStarts(data)}
	table := &ix.root
	var tableParts []string
	for ix.tooDeep == nil && p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table, tableParts = &ix.root, tableParts[:0]
			it := e.Key()
			for ix.tooDeep == nil && it.Next() {
				if table = ix.step(table, &tableParts, it.Node()); table != nil {
					ix.setKey(table, it.Node())
				}
			}
		case unstable.KeyValue:
			ix.keyValue(table, tableParts, e)
		}
	}
	return ix
}

// lineStarts is the byte offset where each line of data starts.
func lineStarts(data []byte) []int {
	lines := []int{0}
	for i, c := range data {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// step goes from n to its child for the key part node k, appending the part to *parts;
// past MaxKeyDepth it records tooDeep and returns nil.
func (ix *positions) step(n *posNode, parts *[]string, k *unstable.Node) *posNode {
	return ix.stepPart(n, parts, string(k.Data), ix.at(k.Raw))
}

// stepPart is step for any part; where is the part's place in the file.
func (ix *positions) stepPart(n *posNode, parts *[]string, part string, where pos) *posNode {
	if len(*parts) >= MaxKeyDepth {
		if ix.tooDeep == nil {
			ix.tooDeep = &deepKey{parts: slices.Clone(*parts), at: where}
		}
		return nil
	}
	*parts = append(*parts, part)
	return n.child(part)
}

// keyValue records a key = value line below the table node (whose path is parts).
func (ix *positions) keyValue(table *posNode, parts []string, e *unstable.Node) {
	parts = slices.Clip(parts)
	n := table
	it := e.Key()
	var last *unstable.Node
	for it.Next() {
		last = it.Node()
		if n = ix.step(n, &parts, last); n == nil {
			return
		}
		ix.setKey(n, last)
	}
	v := e.Value()
	if v.Kind == unstable.Array || v.Kind == unstable.InlineTable {
		// The parser gives an array no range and an inline table only its '{': the
		// value starts at the first byte after the '=' that follows the key.
		data := ix.p.Data()
		i := int(last.Raw.Offset + last.Raw.Length)
		for i < len(data) && data[i] != '=' {
			i++
		}
		for i++; i < len(data) && (data[i] == ' ' || data[i] == '\t'); i++ {
		}
		if i < len(data) {
			n.value, n.hasVal = ix.at(unstable.Range{Offset: uint32(i), Length: 1}), true
		}
	}
	ix.setValue(n, parts, v, ix.at(last.Raw))
}

func (ix *positions) setKey(n *posNode, k *unstable.Node) {
	if !n.hasKey {
		n.key, n.hasKey = ix.at(k.Raw), true
	}
}

// setValue records the value v of the node n (whose path is parts) and what it holds;
// where is the nearest place known before v (the parser gives an array no range).
func (ix *positions) setValue(n *posNode, parts []string, v *unstable.Node, where pos) {
	if v.Raw.Length > 0 {
		n.value, n.hasVal = ix.at(v.Raw), true
	}
	if n.hasVal {
		where = n.value
	}
	switch v.Kind {
	case unstable.Array:
		i := 0
		it := v.Children()
		for ix.tooDeep == nil && it.Next() {
			if e := it.Node(); e.Kind != unstable.Comment {
				elem := slices.Clip(parts)
				ew := where
				if e.Raw.Length > 0 {
					ew = ix.at(e.Raw)
				}
				if c := ix.stepPart(n, &elem, index(i), ew); c != nil {
					ix.setValue(c, elem, e, ew)
				}
				i++
			}
		}
	case unstable.InlineTable:
		it := v.Children()
		for ix.tooDeep == nil && it.Next() {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				ix.keyValue(n, parts, kv)
			}
		}
	}
}

// at is the position where r starts.
func (ix *positions) at(r unstable.Range) pos {
	off := int(r.Offset)
	line := sort.Search(len(ix.lines), func(i int) bool { return ix.lines[i] > off })
	return pos{offset: off, line: line, col: off - ix.lines[line-1] + 1}
}

// node is the node of path, nil when the file has nothing there.
func (ix *positions) node(path []string) *posNode {
	n := &ix.root
	for _, part := range path {
		if n = n.kids[part]; n == nil {
			return nil
		}
	}
	return n
}

// find is the position of the value at path, else of its key, else of the nearest
// enclosing key or value that has one (the start of the file at worst).
func (ix *positions) find(path []string, valueFirst bool) pos {
	chain := make([]*posNode, 0, len(path))
	for n := &ix.root; len(chain) < len(path); chain = append(chain, n) {
		if n = n.kids[path[len(chain)]]; n == nil {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		n := chain[i]
		switch {
		case n.hasVal && valueFirst:
			return n.value
		case n.hasKey:
			return n.key
		case n.hasVal:
			return n.value
		}
	}
	return pos{line: 1, col: 1}
}

// keyAt is the position of key k of the table at path (the zero pos when the file has no
// such key).
func (ix *positions) keyAt(table *posNode, k string) pos {
	if table == nil {
		return pos{}
	}
	if n := table.kids[k]; n != nil {
		return n.key
	}
	return pos{}
}

// index is an array element's path part.
func index(i int) string { return "[" + strconv.Itoa(i) + "]" }

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
