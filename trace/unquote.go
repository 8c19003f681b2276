package trace

import (
	"bytes"
	"encoding/base64"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// quotedRaw is an event line's "raw" member kept as its quoted JSON text, a slice of the
// line being decoded (no copy): decodeRecord turns it into bytes once, so a 100 MB frame
// costs one 100 MB buffer, not a string plus its []byte copy. It is only valid until the
// line buffer is reused.
type quotedRaw []byte

func (q *quotedRaw) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*q = nil
		return nil
	}
	if len(b) < 2 || b[0] != '"' {
		return errors.New("raw: not a string")
	}
	*q = b
	return nil
}

// bytes decodes the quoted text: the JSON string's bytes, or with b64 the bytes its base64
// stands for. It allocates the result and nothing else of its size.
func (q quotedRaw) bytes(b64 bool) ([]byte, error) {
	s := unquoteJSON(q)
	if !b64 {
		return s, nil
	}
	return decodeBase64InPlace(s)
}

// decodeBase64InPlace decodes the base64 text s into s's own memory (the decoded bytes
// are fewer and written behind what is read) and returns them.
func decodeBase64InPlace(s []byte) ([]byte, error) {
	out := s[:base64.StdEncoding.DecodedLen(len(s))]
	n, err := base64.StdEncoding.Decode(out, s)
	if err != nil {
		return nil, err
	}
	return out[:n:n], nil
}

// inPlaceMin is the quoted size from which an owned line's "raw" is decoded in place:
// smaller frames get a buffer of their own, so a kept event does not hold its whole line.
const inPlaceMin = 64 << 10

// bytesInPlace is bytes decoding into q's own memory (the caller gives the line up): the
// result is a slice of q. Decoding never writes past what it has read, as no escape is
// shorter than what it stands for, except an invalid UTF-8 byte (one byte becomes U+FFFD's
// three): text that is not valid UTF-8 is decoded into a new buffer instead.
func (q quotedRaw) bytesInPlace(b64 bool) ([]byte, error) {
	s := q[1 : len(q)-1]
	if !utf8.Valid(s) {
		return q.bytes(b64)
	}
	if bytes.IndexByte(s, '\\') >= 0 {
		s = unquoteInto(q[:0], s)
	}
	if !b64 {
		return s[:len(s):len(s)], nil
	}
	return decodeBase64InPlace(s)
}

// unquoteJSON decodes a JSON string literal that the scanner has already validated, as
// encoding/json does: escapes resolved, a lone surrogate or an invalid UTF-8 byte becomes
// U+FFFD. The result is a new slice.
func unquoteJSON(q []byte) []byte {
	s := q[1 : len(q)-1]
	return unquoteInto(make([]byte, 0, len(s)+8), s)
}

// unquoteInto appends the decoded JSON string body s (no quotes) to out and returns it.
// out may share s's memory at or before s's start when s is valid UTF-8 (bytesInPlace).
func unquoteInto(out, s []byte) []byte {
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\\' && s[i] < utf8.RuneSelf {
			i++
		}
		out = append(out, s[:i]...)
		s = s[i:]
		if len(s) == 0 {
			break
		}
		if s[0] != '\\' {
			r, size := utf8.DecodeRune(s)
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, s[:size]...)
			}
			s = s[size:]
			continue
		}
		var n int
		out, n = appendEscape(out, s)
		s = s[n:]
	}
	return out
}

// appendEscape appends what the escape at the start of s stands for and returns how many
// bytes of s it took.
func appendEscape(out, s []byte) ([]byte, int) {
	if len(s) < 2 {
		return out, len(s)
	}
	switch c := s[1]; c {
	case '"', '\\', '/':
		return append(out, c), 2
	case 'b':
		return append(out, '\b'), 2
	case 'f':
		return append(out, '\f'), 2
	case 'n':
		return append(out, '\n'), 2
	case 'r':
		return append(out, '\r'), 2
	case 't':
		return append(out, '\t'), 2
	case 'u':
		r := unhex4(s[2:])
		if r < 0 {
			return utf8.AppendRune(out, utf8.RuneError), min(len(s), 6)
		}
		if utf16.IsSurrogate(r) {
			if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
				if r2 := unhex4(s[8:]); r2 >= 0 {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						return utf8.AppendRune(out, d), 12
					}
				}
			}
			r = utf8.RuneError
		}
		return utf8.AppendRune(out, r), 6
	}
	return out, 2
}

// unhex4 reads four hex digits, or returns -1.
func unhex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}
