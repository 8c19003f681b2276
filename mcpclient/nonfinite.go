package mcpclient

import (
	"bytes"
	"fmt"
	"strings"
)

// Non-finite numbers (issue 24). Python's json.dumps writes float('nan') as NaN and the
// infinities as Infinity and -Infinity by default, and JavaScript's JSON5-minded encoders
// do too; none of them is JSON (RFC 8259 §6), so a strict decoder rejects the whole
// message, and a response holding one would leave its request waiting out the timeout. The
// message is read leniently instead: each such number becomes null, it pairs and ends its
// request at once, and a CodeNonFinite problem names each one and where it was.

// readNonFinite returns body with every NaN, Infinity and -Infinity that stands where a
// JSON value may (outside strings) replaced by null, and what it replaced, e.g.
// `NaN at byte 45 (the value of "score")`. ok is false when there was none.
func readNonFinite(body []byte) (lenient []byte, found []string, ok bool) {
	var out bytes.Buffer
	inString, escaped := false, false
	last := byte(0) // the last byte outside a string that is not white space
	for i := 0; i < len(body); i++ {
		c := body[i]
		if inString {
			out.WriteByte(c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				last = '"'
			}
			continue
		}
		if c == '"' {
			inString = true
			out.WriteByte(c)
			continue
		}
		if last == ':' || last == ',' || last == '[' {
			if tok := nonFiniteAt(body[i:]); tok != "" {
				found = append(found, fmt.Sprintf("%s at byte %d%s", tok, i, valueOf(body[:i])))
				out.WriteString("null")
				i += len(tok) - 1
				last = 'l'
				continue
			}
		}
		out.WriteByte(c)
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			last = c
		}
	}
	if len(found) == 0 {
		return nil, nil, false
	}
	return out.Bytes(), found, true
}

// nonFiniteAt is the non-finite token b starts with, when it ends there (a delimiter or
// the end follows), "" otherwise.
func nonFiniteAt(b []byte) string {
	for _, tok := range [...]string{"-Infinity", "Infinity", "NaN"} { // longest first
		if !bytes.HasPrefix(b, []byte(tok)) {
			continue
		}
		if rest := b[len(tok):]; len(rest) == 0 || strings.IndexByte(",]} \t\r\n", rest[0]) >= 0 {
			return tok
		}
	}
	return ""
}

// valueOf names the member a value at the end of before belongs to (` (the value of
// "score")`), "" for an array element or when it cannot tell.
func valueOf(before []byte) string {
	b := bytes.TrimRight(before, " \t\r\n")
	if !bytes.HasSuffix(b, []byte(":")) {
		return ""
	}
	b = bytes.TrimRight(b[:len(b)-1], " \t\r\n")
	if !bytes.HasSuffix(b, []byte(`"`)) {
		return ""
	}
	start := bytes.LastIndexByte(b[:len(b)-1], '"')
	if start < 0 {
		return ""
	}
	return fmt.Sprintf(" (the value of %s)", b[start:])
}
