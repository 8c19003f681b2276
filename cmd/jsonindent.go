package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/internal/termout"
)

// indentWriter indents compact JSON as json.Indent(dst, src, "", "  ") does and replaces
// invalid UTF-8 inside strings as bytes.ToValidUTF8(src, "\uFFFD") does, streaming: a
// 100 MB result is written through, not copied into an indented buffer (issue 26). It
// takes the document in any number of writes; call flush at the end.
type indentWriter struct {
	w        *bufio.Writer
	depth    int
	inString bool
	escaped  bool // the previous byte in the string was a backslash
	invalid  bool // the previous bytes in the string were invalid UTF-8 (one U+FFFD for a run)
	open     byte // '{' or '[' just written, its newline held until the next byte shows it is not empty
	partial  []byte
}

func newIndentWriter(w io.Writer) *indentWriter {
	return &indentWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

func (iw *indentWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(iw.partial) > 0 {
		// Finish a rune split across writes.
		orig := len(iw.partial)
		buf := iw.partial
		take := 0
		for take < len(p) && !utf8.FullRune(buf) {
			buf = append(buf, p[take])
			take++
		}
		if !utf8.FullRune(buf) {
			iw.partial = buf
			return n, nil
		}
		r, size := utf8.DecodeRune(buf)
		iw.stringRune(buf[:size], r == utf8.RuneError && size == 1)
		if size >= orig {
			p = p[size-orig:]
			iw.partial = nil
		} else {
			// An invalid lead byte: what followed it in the held bytes goes again.
			iw.partial = append([]byte(nil), buf[size:orig]...)
		}
	}
	iw.writeBytes(p)
	return n, nil
}

func (iw *indentWriter) writeBytes(p []byte) {
	for len(p) > 0 {
		if iw.inString {
			p = iw.stringPart(p)
			continue
		}
		c := p[0]
		p = p[1:]
		iw.structural(c)
	}
}

// stringPart writes the string bytes at the start of p up to and including its closing
// quote and returns the rest.
func (iw *indentWriter) stringPart(p []byte) []byte {
	i := 0
	for i < len(p) {
		c := p[i]
		if c >= utf8.RuneSelf {
			break
		}
		iw.invalid = false
		if iw.escaped {
			iw.escaped = false
		} else if c == '\\' {
			iw.escaped = true
		} else if c == '"' {
			iw.w.Write(p[:i+1])
			iw.inString = false
			return p[i+1:]
		}
		i++
	}
	iw.w.Write(p[:i])
	p = p[i:]
	if len(p) == 0 {
		return p
	}
	if !utf8.FullRune(p) {
		iw.partial = append(iw.partial[:0], p...)
		return nil
	}
	r, size := utf8.DecodeRune(p)
	iw.stringRune(p[:size], r == utf8.RuneError && size == 1)
	return p[size:]
}

// stringRune writes one multi-byte rune of a string, or U+FFFD for a run of invalid bytes.
func (iw *indentWriter) stringRune(b []byte, bad bool) {
	iw.escaped = false
	if !bad {
		iw.invalid = false
		iw.w.Write(b)
		return
	}
	if !iw.invalid {
		iw.w.WriteString("\uFFFD")
	}
	iw.invalid = true
}

// structural writes one byte outside strings.
func (iw *indentWriter) structural(c byte) {
	if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
		if iw.depth == 0 && iw.open == 0 {
			iw.w.WriteByte(c) // json.Indent keeps what trails the value (Encode's newline)
		}
		return
	}
	if iw.open != 0 {
		o := iw.open
		iw.open = 0
		if (o == '{' && c == '}') || (o == '[' && c == ']') {
			iw.w.WriteByte(c)
			return
		}
		iw.depth++
		iw.newline()
	}
	switch c {
	case '"':
		iw.inString = true
		iw.invalid = false
		iw.w.WriteByte(c)
	case '{', '[':
		iw.w.WriteByte(c)
		iw.open = c
	case '}', ']':
		iw.depth--
		iw.newline()
		iw.w.WriteByte(c)
	case ',':
		iw.w.WriteByte(c)
		iw.newline()
	case ':':
		iw.w.WriteString(": ")
	default:
		iw.w.WriteByte(c)
	}
}

func (iw *indentWriter) newline() {
	iw.w.WriteByte('\n')
	const spaces = "                                "
	for n := 2 * iw.depth; n > 0; {
		k := min(n, len(spaces))
		iw.w.WriteString(spaces[:k])
		n -= k
	}
}

// flush writes what is buffered, a rune cut short as U+FFFD.
func (iw *indentWriter) flush() error {
	if len(iw.partial) > 0 {
		iw.partial = nil
		iw.stringRune(nil, true)
	}
	return iw.w.Flush()
}

// writeDoc writes the --json document as writeJSON does, but a big result is written from
// the response's bytes as they are, not marshalled into a copy first (issue 26): the
// document is marshalled with a placeholder result and the result goes where it stood.
func writeDoc(w io.Writer, doc *jsonDoc) error {
	const place = `"result":0`
	if len(doc.Result) < 64<<10 || !json.Valid(doc.Result) {
		return writeJSON(w, doc)
	}
	d := *doc
	d.Result = json.RawMessage("0")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&d); err != nil {
		return err
	}
	compact := buf.Bytes()
	// Inside a JSON string every quote is escaped, so the first match is the member.
	at := bytes.Index(compact, []byte(place))
	if at < 0 {
		return writeJSON(w, doc)
	}
	at += len(place) - 1
	iw := newIndentWriter(termout.JSONOf(w))
	iw.Write(compact[:at])
	iw.Write(doc.Result)
	iw.Write(compact[at+1:])
	return iw.flush()
}
