package mcpclient

import "bytes"

// validJSON reports what json.Valid(b) reports, in one pass without the decoder's state
// machine (a call's response frame spent as long in json.Valid as in its read(2)), and
// whether b holds a \u escape: only then can a string hold an unpaired surrogate
// (unpairedSurrogateAt). TestValidJSONMatchesValid and FuzzValidJSON hold it to json.Valid.
func validJSON(b []byte) (ok, uEscape bool) {
	v := jsonValidator{b: b}
	i, ok := v.value(skipWS(b, 0), 1)
	if !ok {
		return false, false
	}
	return skipWS(b, i) == len(b), v.uEscape
}

// validEnvelope is validJSON that also reads, in the same pass, the JSON-RPC members of a
// top-level object as scanEnvelope does (a second pass over every frame was a third of
// classifying a response). envOK is false when b is not a valid object or a member's key
// holds an escape; then env is not set and scanEnvelope reads it.
func validEnvelope(b []byte) (ok, uEscape bool, env envelope, envOK bool) {
	v := jsonValidator{b: b, collect: true}
	i, ok := v.value(skipWS(b, 0), 1)
	if !ok || skipWS(b, i) != len(b) {
		return false, false, envelope{}, false
	}
	return true, v.uEscape, v.env, b[skipWS(b, 0)] == '{' && !v.keyEscape
}

// maxJSONDepth is encoding/json's nesting limit: a container nested deeper is invalid.
const maxJSONDepth = 10000

type jsonValidator struct {
	b       []byte
	uEscape bool
	// collect says to keep the top-level object's JSON-RPC members in env; keyEscape is
	// set when one of its keys holds an escape, which only a decoder reads right.
	collect   bool
	env       envelope
	keyEscape bool
}

// value returns the index just past the JSON value at b[i], at nesting depth depth.
func (v *jsonValidator) value(i, depth int) (int, bool) {
	b := v.b
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		return v.str(i)
	case c == '{', c == '[':
		if depth > maxJSONDepth {
			return 0, false
		}
		return v.container(i, depth)
	case c == '-' || isDigit(c):
		return number(b, i)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	}
	return 0, false
}

// container returns the index just past the object or array at b[i].
func (v *jsonValidator) container(i, depth int) (int, bool) {
	b := v.b
	obj := b[i] == '{'
	end := byte(']')
	if obj {
		end = '}'
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == end {
		return i + 1, true
	}
	top := obj && depth == 1 && v.collect
	for {
		var ok bool
		var key []byte
		if obj {
			if i >= len(b) || b[i] != '"' {
				return 0, false
			}
			start := i
			if i, ok = v.str(i); !ok {
				return 0, false
			}
			key = b[start+1 : i-1]
			i = skipWS(b, i)
			if i >= len(b) || b[i] != ':' {
				return 0, false
			}
			i = skipWS(b, i+1)
		}
		start := i
		if i, ok = v.value(i, depth+1); !ok {
			return 0, false
		}
		if top {
			v.member(key, b[start:i:i])
		}
		i = skipWS(b, i)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipWS(b, i+1)
		case i < len(b) && b[i] == end:
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// member keeps a top-level member's value in env when it is a JSON-RPC one (the last of a
// repeated key, as encoding/json does).
func (v *jsonValidator) member(key, val []byte) {
	if !v.env.set(key, val) && bytes.IndexByte(key, '\\') >= 0 {
		v.keyEscape = true // it may spell a JSON-RPC member
	}
}

// str returns the index just past the string at b[i] ('"'): no control characters, only
// JSON's escapes. Other bytes pass as they are (json.Valid does not check UTF-8).
func (v *jsonValidator) str(i int) (int, bool) {
	b := v.b
	for i++; i < len(b); i++ {
		c := b[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		switch {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return 0, false
		}
		// A backslash.
		i++
		if i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if len(b)-i <= 4 || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
				return 0, false
			}
			v.uEscape = true
			i += 4
		default:
			return 0, false
		}
	}
	return 0, false
}

// number returns the index just past the number at b[i]: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func number(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return 0, false
	case b[i] == '0':
		i++
	case b[i] >= '1' && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		if i+1 >= len(b) || !isDigit(b[i+1]) {
			return 0, false
		}
		i = digits(b, i+1)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return 0, false
		}
		i = digits(b, i)
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

func literal(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
