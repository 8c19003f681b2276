package trace

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// jnode is a JSON value parsed without decoding it: each node keeps its text in the
// document (raw), strings and numbers stay text until they are compared, so comparing two
// 100 MB results copies neither (issue 26: decoding both into Go values and encoding the
// differing ones again cost 16x the result).
type jnode struct {
	kind byte   // '{', '[', '"', 'n' (number), 't', 'f', '0' (null)
	raw  []byte // the value's text, a slice of the document
	obj  map[string]jnode
	arr  []jnode
}

// parseNode parses doc, which must be valid JSON (json.Valid): encoding/json's depth limit
// bounds the recursion. Members repeated in an object keep the last, as encoding/json does.
func parseNode(doc []byte) jnode {
	p := nodeParser{b: doc}
	return p.value()
}

type nodeParser struct {
	b []byte
	i int
}

func (p *nodeParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *nodeParser) value() jnode {
	p.space()
	start := p.i
	var n jnode
	switch c := p.b[p.i]; c {
	case '{':
		n = jnode{kind: '{', obj: map[string]jnode{}}
		p.i++
		for p.space(); p.b[p.i] != '}'; p.space() {
			ks := p.i
			p.skipString()
			key := string(unquoteJSON(p.b[ks:p.i]))
			p.space()
			p.i++ // ':'
			n.obj[key] = p.value()
			p.space()
			if p.b[p.i] == ',' {
				p.i++
			}
		}
		p.i++
	case '[':
		n = jnode{kind: '['}
		p.i++
		for p.space(); p.b[p.i] != ']'; p.space() {
			n.arr = append(n.arr, p.value())
			p.space()
			if p.b[p.i] == ',' {
				p.i++
			}
		}
		p.i++
	case '"':
		n.kind = '"'
		p.skipString()
	case 't':
		n.kind = 't'
		p.i += 4
	case 'f':
		n.kind = 'f'
		p.i += 5
	case 'n':
		n.kind = '0'
		p.i += 4
	default:
		n.kind = 'n'
		for p.i < len(p.b) && strings.IndexByte("+-0123456789.eE", p.b[p.i]) >= 0 {
			p.i++
		}
	}
	n.raw = p.b[start:p.i]
	return n
}

// skipString moves past the string literal at p.i.
func (p *nodeParser) skipString() {
	p.i++
	for {
		switch p.b[p.i] {
		case '\\':
			p.i += 2
		case '"':
			p.i++
			return
		default:
			p.i++
		}
	}
}

// text is a string node's value: a slice of the document when it has no escapes and is
// valid UTF-8 (no copy), else decoded as encoding/json does.
func (n jnode) text() []byte {
	s := n.raw[1 : len(n.raw)-1]
	if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
		return s
	}
	return unquoteJSON(n.raw)
}

// number is a number node's text as a json.Number.
func (n jnode) number() json.Number { return json.Number(n.raw) }

// shown is the node's text for a Difference: compacted when small, the document's own
// text when large (no copy of a 100 MB value).
func (n jnode) shown() json.RawMessage {
	if len(n.raw) >= 1<<20 {
		return json.RawMessage(n.raw)
	}
	var b bytes.Buffer
	if json.Compact(&b, n.raw) != nil {
		return json.RawMessage(n.raw)
	}
	return b.Bytes()
}
