// Package jsontext writes JSON for people and holds the few wording helpers every view of
// mcp-inspect shares: a JSON value compacted on one line (Compact), indented with two
// spaces (Indent, Pretty, and IndentPrefix for a prefix of a large frame), the first line
// of a description (FirstLine), and a count with its noun (Count). The TUI, the headless
// commands, check and the tap all write these the same way by using this package.
package jsontext

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// Compact writes the JSON text raw on one line, without insignificant white space, as
// json.Compact does: {"a": [1, 2]} becomes {"a":[1,2]}. Text that is not JSON comes back
// as it is, less the white space around it; there is no error.
func Compact(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(bytes.TrimSpace(raw))
	}
	return b.String()
}

// Indent indents the JSON text raw with two spaces per level, as json.Indent does, after
// trimming the white space around it, and reports true. Text that is empty (or only white
// space) or not JSON comes back trimmed, with false; its escapes (\u001b) stay escapes, so
// a caller that shows the result sanitizes only what it shows.
func Indent(raw []byte) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	if !json.Valid(raw) {
		return string(raw), false
	}
	// IndentPrefix lays valid JSON out as json.Indent does, straight into the string it
	// returns: a 100 MB message costs one copy, not a growing buffer and its String
	// (issue 26).
	out, _ := IndentPrefix(raw, math.MaxInt)
	return out, true
}

// Pretty is Indent for a caller that shows raw either way: the indented JSON, or raw
// trimmed when it is not JSON.
func Pretty(raw []byte) string {
	s, _ := Indent(raw)
	return s
}

// IndentPrefix indents the JSON text src (or a prefix of it) as Indent does, with
// two spaces, in one pass, without checking or decoding anything: a prefix cut anywhere
// still indents up to the cut. It stops after maxLines lines and reports how many bytes
// of src it consumed, so a 5 MiB frame costs only what is shown. Text that is not JSON
// is laid out as far as its brackets, commas and colons go; there is no error.
func IndentPrefix(src []byte, maxLines int) (out string, used int) {
	var b strings.Builder
	b.Grow(len(src) + len(src)/4)
	used = indentInto(&b, src, maxLines)
	return b.String(), used
}

// WriteIndent writes raw to w indented as Indent lays it out, through a 64 KiB buffer: a
// 100 MB value costs the buffer, not its indented copy. It reports false, and writes raw
// trimmed, when raw is not JSON (or is empty). Errors are w's.
func WriteIndent(w io.Writer, raw []byte) (bool, error) {
	raw = bytes.TrimSpace(raw)
	bw := bufio.NewWriterSize(w, 64<<10)
	ok := len(raw) > 0 && json.Valid(raw)
	if ok {
		indentInto(bw, raw, math.MaxInt)
	} else {
		_, _ = bw.Write(raw)
	}
	return ok, bw.Flush()
}

// indentWriter is what the indenter writes to: a strings.Builder, or a bufio.Writer
// (whose first error it keeps and Flush reports).
type indentWriter interface {
	WriteByte(c byte) error
	WriteString(s string) (int, error)
}

// indentInto is IndentPrefix writing to b; it returns the bytes of src consumed.
func indentInto(b indentWriter, src []byte, maxLines int) int {
	depth, lines := 0, 1
	inStr, esc, open := false, false, false
	newline := func(d int) {
		b.WriteByte('\n')
		for i := 0; i < d; i++ {
			b.WriteString("  ")
		}
		lines++
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inStr {
			b.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		if lines >= maxLines {
			return i
		}
		if open {
			open = false
			if c == '}' || c == ']' {
				// An empty object or array stays on its line: {} and [].
				depth--
				b.WriteByte(c)
				continue
			}
			newline(depth)
		}
		switch c {
		case '"':
			inStr = true
			b.WriteByte(c)
		case '{', '[':
			b.WriteByte(c)
			depth++
			open = true
		case ',':
			b.WriteByte(c)
			newline(depth)
		case ':':
			b.WriteString(": ")
		case '}', ']':
			depth = max(depth-1, 0)
			newline(depth)
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return len(src)
}

// ByteSize writes a byte count for a column or a summary: "512 B", "1.5 KiB", "95.4 MiB",
// "1.25 GiB" (binary units, as trace stats and the session picker print them).
func ByteSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
}

// FirstLine is the first line of s for a one-line listing: s trimmed of white space, cut at
// its first newline with " …" marking that more follows ("Adds numbers.\nLong text" is
// "Adds numbers. …"). An empty s gives "".
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

// Count says n things with the noun agreeing with the number: one for exactly 1, many
// otherwise (0 included): Count(1, "tool", "tools") is "1 tool", Count(3, "entry",
// "entries") "3 entries".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
