package ui

import (
	"encoding/json"
	"strconv"
	"strings"
)

// jsonKind is the kind of a JSON value (RFC 8259 section 3).
type jsonKind uint8

const (
	jsonObject jsonKind = iota
	jsonArray
	jsonString
	jsonNumber
	jsonBool
	jsonNull
)

// jsonNode is one value of a parsed document: where its bytes are in the source, its place
// in the tree, and for a member of an object where its key is. Offsets are int32: the
// detail never parses more than showAllBytes.
type jsonNode struct {
	// start and end bound the value's bytes in the source (a container from its bracket
	// to its closing one, or to the end of the source when cut).
	start, end int32
	// keyStart and keyEnd bound the member's key token, quotes included (equal: no key).
	keyStart, keyEnd int32
	parent           int32 // -1 for the root
	// last is the index of the last node of the subtree (the node itself for a scalar):
	// the next sibling, if any, is last+1.
	last int32
	// index is the position among the parent's children; n counts a container's children.
	index, n int32
	depth    int32
	kind     jsonKind
	// complete is false for a value the source ends inside (a cut frame).
	complete bool
}

// jsonDoc is a JSON text parsed into a flat list of nodes in document order. The parse is
// tolerant: a source cut anywhere keeps the values up to the cut, marked incomplete, and
// a syntax error ends the document where it is found.
type jsonDoc struct {
	src   []byte
	nodes []jsonNode
	// errAt is the offset of the first byte that is not JSON (-1: none); cut is set when
	// the source ends inside the document.
	errAt int
	cut   bool
}

// jsonParser is parseJSONDoc's state: where it is, the open containers, the key of the
// member whose value comes next.
type jsonParser struct {
	d          *jsonDoc
	i          int
	stack      []int32
	keyS, keyE int32
}

// parser states: what the next token must be.
const (
	wantValue = iota
	wantKey
	wantNext // after a value: ',' or a closing bracket
)

// parseJSONDoc parses src (a whole JSON text, or a prefix of one) in one pass, without
// recursion: a deeply nested frame cannot exhaust the stack.
func parseJSONDoc(src []byte) *jsonDoc {
	p := &jsonParser{d: &jsonDoc{src: src, errAt: -1, nodes: make([]jsonNode, 0, nodeEstimate(src))}}
	d := p.d
	state := wantValue
	for state >= 0 {
		p.i = skipJSONSpace(src, p.i)
		if p.i >= len(src) {
			d.cut = len(d.nodes) > 0 && (len(p.stack) > 0 || state != wantNext)
			break
		}
		switch state {
		case wantKey, wantValue:
			if c := src[p.i]; c == '}' || c == ']' {
				state = p.closeEmpty(c)
			} else if state == wantKey {
				state = p.key()
			} else {
				state = p.value()
			}
		case wantNext:
			state = p.next()
		}
	}
	// Containers left open end with the source (or the error).
	for _, n := range p.stack {
		d.nodes[n].last = int32(len(d.nodes) - 1)
	}
	return d
}

// nodeEstimate bounds the number of values in src from above, closely for most documents:
// every value but the first follows a '[', ',' or ':' outside a string. Sizing the node
// list once spares a 5 MiB document's parse most of its copying.
func nodeEstimate(src []byte) int {
	n, inStr := 1, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case !inStr && (c == ',' || c == ':' || c == '['):
			n++
		}
	}
	return n
}

// fail ends the parse at a byte that is not JSON; end at the source's end (a cut).
func (p *jsonParser) fail(at int) int {
	if at >= len(p.d.src) {
		p.d.cut = true
	} else {
		p.d.errAt = at
	}
	return -1
}

// add appends a node under the innermost open container, with the pending key.
func (p *jsonParser) add(kind jsonKind, start, end int, complete bool) int32 {
	d := p.d
	parent, idx := int32(-1), int32(0)
	if len(p.stack) > 0 {
		parent = p.stack[len(p.stack)-1]
		idx = d.nodes[parent].n
		d.nodes[parent].n++
	}
	n := int32(len(d.nodes))
	d.nodes = append(d.nodes, jsonNode{start: int32(start), end: int32(end), keyStart: p.keyS, keyEnd: p.keyE,
		parent: parent, last: n, index: idx, depth: int32(len(p.stack)), kind: kind, complete: complete})
	p.keyS, p.keyE = 0, 0
	return n
}

// closeEmpty closes an empty container where a key or a value is wanted.
func (p *jsonParser) closeEmpty(c byte) int {
	if len(p.stack) == 0 {
		return p.fail(p.i)
	}
	top := p.stack[len(p.stack)-1]
	if p.d.nodes[top].n != 0 || (c == '}') != (p.d.nodes[top].kind == jsonObject) {
		return p.fail(p.i)
	}
	p.d.close(top, p.i+1)
	p.stack = p.stack[:len(p.stack)-1]
	p.i++
	return wantNext
}

// key reads a member's key and its colon.
func (p *jsonParser) key() int {
	src := p.d.src
	if src[p.i] != '"' {
		return p.fail(p.i)
	}
	end, ok := scanJSONString(src, p.i)
	if !ok {
		return p.fail(max(end, p.i))
	}
	p.keyS, p.keyE = int32(p.i), int32(end)
	p.i = skipJSONSpace(src, end)
	if p.i >= len(src) || src[p.i] != ':' {
		return p.fail(p.i)
	}
	p.i++
	return wantValue
}

// value reads a value: a scalar whole, or a container's opening bracket.
func (p *jsonParser) value() int {
	src, i := p.d.src, p.i
	switch c := src[i]; {
	case c == '{':
		p.stack = append(p.stack, p.add(jsonObject, i, len(src), false))
		p.i++
		return wantKey
	case c == '[':
		p.stack = append(p.stack, p.add(jsonArray, i, len(src), false))
		p.i++
		return wantValue
	case c == '"':
		end, ok := scanJSONString(src, i)
		if !ok && end < len(src) {
			return p.fail(i)
		}
		p.add(jsonString, i, end, ok)
		if !ok {
			return p.fail(end)
		}
		p.i = end
	case c == '-' || c >= '0' && c <= '9':
		end := i + 1
		for end < len(src) && strings.IndexByte("0123456789+-.eE", src[end]) >= 0 {
			end++
		}
		// At the source's end a number may go on: complete only at the top.
		p.add(jsonNumber, i, end, end < len(src) || len(p.stack) == 0)
		p.i = end
	case c == 't' || c == 'f' || c == 'n':
		word, kind := "null", jsonNull
		switch c {
		case 't':
			word, kind = "true", jsonBool
		case 'f':
			word, kind = "false", jsonBool
		}
		end := min(i+len(word), len(src))
		if string(src[i:end]) != word[:end-i] {
			return p.fail(i)
		}
		p.add(kind, i, end, end-i == len(word))
		if end-i < len(word) {
			return p.fail(end)
		}
		p.i = end
	default:
		return p.fail(i)
	}
	return wantNext
}

// next reads what follows a value: a comma, or the closing bracket of its container.
func (p *jsonParser) next() int {
	if len(p.stack) == 0 {
		return p.fail(p.i) // bytes after the document
	}
	top := p.stack[len(p.stack)-1]
	obj := p.d.nodes[top].kind == jsonObject
	switch c := p.d.src[p.i]; {
	case c == ',':
		p.i++
		if obj {
			return wantKey
		}
		return wantValue
	case obj && c == '}' || !obj && c == ']':
		p.d.close(top, p.i+1)
		p.stack = p.stack[:len(p.stack)-1]
		p.i++
		return wantNext
	}
	return p.fail(p.i)
}

// close ends the container n at end (just past its closing bracket).
func (d *jsonDoc) close(n int32, end int) {
	d.nodes[n].end, d.nodes[n].complete, d.nodes[n].last = int32(end), true, int32(len(d.nodes)-1)
}

func skipJSONSpace(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// scanJSONString returns the end (just past the closing quote) of the string token that
// starts at src[i]; ok is false when the source ends first (end is then len(src)) or a
// raw line break ends the line inside it (end is where).
func scanJSONString(src []byte, i int) (end int, ok bool) {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		case '\n':
			return j, false
		}
	}
	return len(src), false
}

// hasNext reports whether node n has a sibling after it (its line ends with a comma).
func (d *jsonDoc) hasNext(n int32) bool {
	nx := d.nodes[n].last + 1
	return int(nx) < len(d.nodes) && d.nodes[nx].parent == d.nodes[n].parent && d.nodes[n].parent >= 0
}

// token is the source bytes of node n's value.
func (d *jsonDoc) token(n int32) []byte { return d.src[d.nodes[n].start:d.nodes[n].end] }

// keyText is node n's key, decoded ("" without one; the raw token when it does not decode).
func (d *jsonDoc) keyText(n int32) (string, bool) {
	nd := &d.nodes[n]
	if nd.keyEnd == nd.keyStart {
		return "", false
	}
	raw := d.src[nd.keyStart:nd.keyEnd]
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return string(raw), true
	}
	return s, true
}

// path is node n's jq path: .result.content[0].text, with keys that are not identifiers
// quoted (."a b"), "." for the root.
func (d *jsonDoc) path(n int32) string {
	var parts []string
	for ; n >= 0 && d.nodes[n].parent >= 0; n = d.nodes[n].parent {
		nd := &d.nodes[n]
		if d.nodes[nd.parent].kind == jsonArray {
			parts = append(parts, "["+strconv.Itoa(int(nd.index))+"]")
			continue
		}
		k, _ := d.keyText(n)
		if jqIdent(k) {
			parts = append(parts, "."+k)
		} else {
			q, _ := json.Marshal(k)
			parts = append(parts, "."+string(q))
		}
	}
	if len(parts) == 0 {
		return "."
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
	}
	return b.String()
}

// jqIdent reports whether jq takes k after a dot unquoted ([A-Za-z_][A-Za-z0-9_]*).
func jqIdent(k string) bool {
	if k == "" {
		return false
	}
	for i, c := range k {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}
