// Package sanitize makes untrusted text safe to draw on a terminal. Everything an MCP server
// sends (names, descriptions, results, stderr, raw bytes, error messages) passes through it
// before reaching the screen: control characters, escape sequences, bidi overrides and other
// invisible formatting characters are shown as visible escapes, never interpreted (case B23).
package sanitize

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mode says how line breaks and tabs are treated.
type Mode uint8

const (
	// Text keeps "\n" as a line break and expands "\t" to spaces: for multi-line content.
	Text Mode = iota
	// Line shows "\n" and "\t" as visible escapes too: for one-line places (lists, titles).
	Line
	// Stream keeps "\n" and "\t" as they are: for a byte stream written to a terminal
	// (internal/termout), where a tab is harmless and columns must stay as written.
	Stream
)

// TabWidth is how many spaces a tab becomes in Text mode.
const TabWidth = 4

// String returns s with every dangerous or invisible character replaced by a visible escape.
// Invalid UTF-8 bytes become <XX>.
func String(s string, mode Mode) string {
	if isSafe(s, mode) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	Visit([]byte(s), mode, func(text string, escaped bool) { b.WriteString(text) })
	return b.String()
}

// OneLine is String(s, Line): one line, nothing interpreted.
func OneLine(s string) string { return String(s, Line) }

// QuotePath is a file path in double quotes for a message: controls escaped as OneLine
// does, backslashes kept, so a Windows path reads C:\Users\x, not %q's C:\\Users\\x.
func QuotePath(p string) string { return `"` + OneLine(p) + `"` }

// Block is String(s, Text): line breaks kept, tabs expanded.
func Block(s string) string { return String(s, Text) }

// isSafe is the fast path: printable ASCII (plus \n in Text mode) needs no work.
func isSafe(s string, mode Mode) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if (c == '\n' && mode != Line) || (c == '\t' && mode == Stream) {
			continue
		}
		return false
	}
	return true
}

// Visit walks b and calls emit with runs of safe text (escaped=false) and visible escapes
// (escaped=true), in order, so a caller can style the escapes. "\n" in Text mode is emitted
// as safe text.
func Visit(b []byte, mode Mode, emit func(text string, escaped bool)) {
	start := 0
	flush := func(i int) {
		if i > start {
			emit(string(b[start:i]), false)
		}
	}
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			flush(i)
			switch {
			case c == '\n' && mode != Line:
				emit("\n", false)
			case c == '\t' && mode == Stream:
				emit("\t", false)
			case c == '\t' && mode == Text:
				emit(strings.Repeat(" ", TabWidth), false)
			default:
				emit(escapeASCII(c), true)
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			flush(i)
			emit(fmt.Sprintf("<%02X>", c), true)
			i++
			start = i
			continue
		}
		if Dangerous(r) {
			flush(i)
			emit(fmt.Sprintf("<U+%04X>", r), true)
			i += n
			start = i
			continue
		}
		i += n
	}
	flush(len(b))
}

// escapeASCII names a C0 control or DEL the way Go and C would write it.
func escapeASCII(c byte) string {
	switch c {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	return fmt.Sprintf(`\x%02x`, c)
}

// Dangerous reports whether a (valid, non-ASCII) rune must not reach the terminal as is: C1
// controls, bidi embeddings/overrides/isolates and marks, line/paragraph separators, and the
// other invisible format characters (Unicode category Cf), the zero-width joiner included:
// terminals and tmux disagree on the width of a joined emoji sequence, which puts the display
// out of step (stale characters, a border shifted by a column), so "👩‍💻" shows as
// "👩<U+200D>💻".
func Dangerous(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case unicode.Is(unicode.Cf, r):
		// Includes U+200E/F, U+202A-202E, U+2066-2069, U+061C, U+200B, U+FEFF, U+00AD,
		// and the tag characters U+E0000-E007F used to smuggle hidden text.
		return true
	case r >= 0xfff9 && r <= 0xfffb:
		return true
	}
	return false
}

// Contains reports whether s holds anything String would escape (besides "\n" and "\t" in
// Text mode); the UI uses it for a warning badge.
func Contains(s string, mode Mode) bool {
	if isSafe(s, mode) {
		return false
	}
	found := false
	Visit([]byte(s), mode, func(_ string, escaped bool) { found = found || escaped })
	return found
}

// HasControls reports whether raw frame bytes hold a terminal control character (a C0
// control other than tab, DEL, a C1 control) or an invisible or bidi formatting character,
// ignoring a final line ending. Invalid UTF-8 bytes are not controls: they are escaped too,
// but the caller reports them as what they are (case B05), so a badge stays exact.
func HasControls(raw []byte) bool {
	for len(raw) > 0 && (raw[len(raw)-1] == '\n' || raw[len(raw)-1] == '\r') {
		raw = raw[:len(raw)-1]
	}
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c >= 0x20 && c < 0x7f, c == '\t':
			i++
			continue
		case c < utf8.RuneSelf:
			return true
		}
		r, n := utf8.DecodeRune(raw[i:])
		if r != utf8.RuneError || n > 1 {
			if Dangerous(r) {
				return true
			}
		}
		i += n
	}
	return false
}

// Token is one piece of a raw frame as the wire pane draws it.
type Token uint8

const (
	// Plain is printable text, shown as is.
	Plain Token = iota
	// Escaped is a visible escape for a control byte, an invalid byte or a dangerous rune.
	Escaped
	// Chunk marks where a new read() began inside the frame.
	Chunk
	// Break follows a visible "\n": the display line ends here.
	Break
)

// ChunkMark is drawn at read boundaries.
const ChunkMark = "¦"

// Raw walks exact frame bytes for display: every control byte is escaped (including the
// line ending, so "\r\n" is visible), a Break token follows each "\n", and a Chunk token
// sits at each offset in chunks (sorted offsets into b). A boundary that falls inside a
// multi-byte character is marked after that character, so the character stays whole.
func Raw(b []byte, chunks []int, emit func(text string, t Token)) {
	ci := 0
	start := 0
	flush := func(i int) {
		if i > start {
			emit(string(b[start:i]), Plain)
		}
	}
	for i := 0; i < len(b); {
		if ci < len(chunks) && chunks[ci] <= i {
			flush(i)
			start = i
			for ci < len(chunks) && chunks[ci] <= i {
				ci++
			}
			if i > 0 {
				emit(ChunkMark, Chunk)
			}
		}
		c := b[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		var esc string
		n := 1
		if c < utf8.RuneSelf {
			esc = escapeASCII(c)
		} else {
			r, size := utf8.DecodeRune(b[i:])
			switch {
			case r == utf8.RuneError && size <= 1:
				esc = fmt.Sprintf("<%02X>", c)
			case Dangerous(r):
				esc = fmt.Sprintf("<U+%04X>", r)
				n = size
			default:
				i += size
				continue
			}
		}
		flush(i)
		emit(esc, Escaped)
		if c == '\n' {
			emit("", Break)
		}
		i += n
		start = i
	}
	flush(len(b))
}
