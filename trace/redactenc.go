package trace

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A secret can reach the wire in more forms than its bytes (issue 15): inside a JSON string
// any character may be written as \uXXXX (Python's json.dumps does it for every non-ASCII
// character; a surrogate pair above U+FFFF, hex digits in either case), "/" may be "\/",
// and a server may send the secret base64-encoded (a Basic credential, a blob). These are
// the forms Bytes scrubs besides the raw value and encoding/json's escaping of it.

// escapedForm matches a secret written inside a JSON string with any mix of escapes.
type escapedForm struct {
	runes []rune
}

// base64Cores returns the base64 text that stands for value wherever it sits in a longer
// encoded blob: for each of the three byte alignments and both alphabets (standard and
// URL-safe), the run of characters whose six bits all come from value. Masking that run
// leaves at most a few bits of the secret at its edges.
func base64Cores(value []byte) [][]byte {
	var out [][]byte
	for k := 0; k < 3; k++ {
		buf := append(make([]byte, k), value...)
		first := (8*k + 5) / 6             // first character made only of value's bits
		last := (8*(k+len(value)) - 6) / 6 // last such character (inclusive)
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			s := []byte(enc.EncodeToString(buf))
			if last < first || last >= len(s) {
				continue
			}
			core := s[first : last+1]
			if len(core) < MinScrubLen {
				continue
			}
			dup := false
			for _, c := range out {
				dup = dup || bytes.Equal(c, core)
			}
			if !dup {
				out = append(out, core)
			}
		}
	}
	return out
}

// shortEscape is the two-character JSON escape of r, if it has one (RFC 8259 §7).
func shortEscape(r rune) byte {
	switch r {
	case '"':
		return '"'
	case '\\':
		return '\\'
	case '/':
		return '/'
	case '\b':
		return 'b'
	case '\f':
		return 'f'
	case '\n':
		return 'n'
	case '\r':
		return 'r'
	case '\t':
		return 't'
	}
	return 0
}

// hex4 reads four hex digits (either case) at b[i:]; ok is false when they are not there.
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var v rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// matchRune reports the end of one JSON-string encoding of r at b[i:], or -1.
func matchRune(b []byte, i int, r rune) int {
	if i >= len(b) {
		return -1
	}
	if b[i] != '\\' {
		got, n := utf8.DecodeRune(b[i:])
		if got == r && (got != utf8.RuneError || n > 1) {
			return i + n
		}
		return -1
	}
	if i+1 >= len(b) {
		return -1
	}
	if c := b[i+1]; c != 'u' {
		if e := shortEscape(r); e != 0 && e == c {
			return i + 2
		}
		return -1
	}
	v, ok := hex4(b, i+2)
	if !ok {
		return -1
	}
	if r <= 0xffff {
		if v == r {
			return i + 6
		}
		return -1
	}
	// A surrogate pair.
	hi, lo := 0xd800+((r-0x10000)>>10), 0xdc00+((r-0x10000)&0x3ff)
	if v != hi || i+7 >= len(b) || b[i+6] != '\\' || b[i+7] != 'u' {
		return -1
	}
	if v2, ok := hex4(b, i+8); ok && v2 == lo {
		return i + 12
	}
	return -1
}

// matchFrom reports the furthest end of runes written at b[i:], or -1. Strict is JSON
// text: there a raw '"' only ever ends a string and a backslash always starts an escape.
// Loose is plain text (a stderr line, an HTTP head): a raw '"' is a character and a
// backslash of the secret may also stand alone. The ends reachable after each rune are
// kept as a set, so a secret of many backslashes costs linear time, not 2^n.
func matchFrom(b []byte, i int, runes []rune, strict bool) int {
	cur := []int{i}
	var next []int
	add := func(j int) {
		if j >= 0 && !slices.Contains(next, j) {
			next = append(next, j)
		}
	}
	for _, r := range runes {
		next = next[:0]
		for _, p := range cur {
			if strict && r == '"' && p < len(b) && b[p] == '"' {
				continue // a raw quote ends the string: the secret cannot go on through it
			}
			add(matchRune(b, p, r))
			if !strict && r == '\\' && p < len(b) && b[p] == '\\' {
				add(p + 1) // a lone backslash
			}
		}
		if len(next) == 0 {
			return -1
		}
		cur, next = next, cur
	}
	return slices.Max(cur)
}

// scrub replaces every escaped form of the secret in b with Mask; changed reports a hit.
// A match that needs plain-text reading (a raw quote, a lone backslash) is taken only when
// b is not JSON, since in JSON such a match would run across a string's edge.
func (f *escapedForm) scrub(b []byte) (out []byte, changed bool) {
	if len(f.runes) == 0 {
		return b, false
	}
	first := []byte(string(f.runes[0]))
	jsonText := -1 // unknown until a loose match needs it
	var w []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' && b[i] != first[0] {
			continue
		}
		end := matchFrom(b, i, f.runes, true)
		if end < 0 {
			if end = matchFrom(b, i, f.runes, false); end >= 0 {
				if jsonText < 0 {
					jsonText = boolInt(isJSONMessage(b))
				}
				if jsonText == 1 {
					end = -1
				}
			}
		}
		if end < 0 {
			// Step over a whole escape sequence: a match never starts inside one.
			i += escapeLen(b, i) - 1
			continue
		}
		if w == nil {
			w = make([]byte, 0, len(b))
		}
		w = append(append(w, b[last:i]...), Mask...)
		last = end
		i = end - 1
	}
	if w == nil {
		return b, false
	}
	return append(w, b[last:]...), true
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

// isJSONMessage reports whether b is one JSON text, bare or in a Content-Length frame.
func isJSONMessage(b []byte) bool {
	if json.Valid(b) {
		return true
	}
	_, body, ok := mcpclient.SplitHeader(b)
	return ok && json.Valid(body)
}

// escapeLen is the length of the JSON escape sequence at b[i:] (6 for \uXXXX, 2 for a short
// escape), or 1 when b[i] is not the start of a valid one.
func escapeLen(b []byte, i int) int {
	if b[i] != '\\' || i+1 >= len(b) {
		return 1
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if _, ok := hex4(b, i+2); ok {
			return 6
		}
	}
	return 1
}
