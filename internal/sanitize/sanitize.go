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

	"github.com/clipperhouse/displaywidth"
	"github.com/clipperhouse/uax29/v2/graphemes"
	"github.com/mattn/go-runewidth"
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
	var str string // b as a string, made at the first rune that needs its cluster
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
		if Dangerous(r) || Blank(r) || prepend(r) {
			flush(i)
			emit(fmt.Sprintf("<U+%04X>", r), true)
			i += n
			start = i
			continue
		}
		if str == "" {
			str = string(b)
		}
		end, esc := cluster(str, i, i > start && b[i-1] >= 0x20 && b[i-1] < 0x7f, i == start)
		start = escapeMarked(str, i, end, start, esc, func(t string) { emit(t, false) }, func(e string) { emit(e, true) })
		i = end
	}
	flush(len(b))
}

// cluster finds the grapheme cluster that holds the rune at str[i:] (starting at i, or at
// i-1 when afterASCII and that printable ASCII character is its base: "1" of a keycap;
// atStart says nothing of the input is drawn right before str[i:]) and
// returns where the part Visit handles ends. esc is nil when every terminal draws the
// cluster at the width the panes measure it at (a single rune, "é" as e and U+0301, Hangul
// syllables from jamo); otherwise it marks, by byte offset from i, the runes to show as
// escapes: the ones that join the base (marks, emoji modifiers, variation selectors, a
// virama), up to the next rune that stands on its own (the consonant after a virama),
// where the part ends (Visit goes on from there). Terminals disagree on
// those clusters: tmux 3.3 sums the width of each code point (❤️ is 1 cell, 👍🏽 4, क्ष 2),
// kitty and WezTerm measure emoji sequences as one (2), and the width the panes lay out with
// (x/ansi's grapheme width, as lipgloss measures) says 2, 2 and 1: text laid out one way and
// drawn another leaves stale cells and shifted borders (issue 26).
func cluster(str string, i int, afterASCII, atStart bool) (end int, esc []bool) {
	base := i
	cl, gw := firstCluster(str[i:])
	if afterASCII {
		if c, w := firstCluster(str[i-1:]); len(c) > 1 {
			base, cl, gw = i-1, c, w
		}
	}
	if r, n := utf8.DecodeRuneInString(cl); base == i && (runeWidth(r) == 0 || atStart && joins(r)) {
		// A mark with no base of its own (at the start, or after an escape) would join
		// whatever is drawn before it, an escape's ">" say: shown as an escape.
		return i + n, []bool{true}
	}
	// A dangerous rune inside (a zero-width joiner) is escaped by Visit, which splits the
	// cluster there: what counts is the part before it.
	for j, r := range cl {
		if j > 0 && (Dangerous(r) || Blank(r) || prepend(r) || r == utf8.RuneError) { // and invalid UTF-8
			cl = cl[:j]
			gw = graphemeWidth(cl)
			break
		}
	}
	end = base + len(cl)
	if end <= i { // never: a dangerous rune at i is escaped before; but never loop
		_, n := utf8.DecodeRuneInString(str[i:])
		return i + n, nil
	}
	if gw == TermWidth(cl) {
		return end, nil
	}
	if utf8.RuneCountInString(cl) == 1 {
		// One rune measured two ways (a regional indicator alone: 2 cells as a grapheme,
		// 1 by wcwidth): shown as an escape.
		return end, []bool{true}
	}
	esc = make([]bool, end-i)
	r0, first := utf8.DecodeRuneInString(cl)
	if base == i && graphemeWidth(cl[:first]) != runeWidth(r0) {
		esc[0] = true // the base alone is measured two ways too (a regional indicator)
	}
	escaped := false
	for j := base + first; j < end; {
		r, n := utf8.DecodeRuneInString(str[j:])
		if escaped && j > i && runeWidth(r) > 0 && !joins(r) {
			// A rune of its own after an escape (the consonant after a virama): Visit starts
			// the next cluster there. Right after the base it would join it again.
			return j, esc[:j-i]
		}
		if j >= i {
			esc[j-i], escaped = true, true
		}
		j += n
	}
	return end, esc
}

// escapeMarked shows the runes of str[i:end] that esc marks (cluster's answer; nil marks
// none) as escapes: text gets what is pending before each (from start), then escape gets
// "<U+XXXX>". It returns where the text still pending starts.
func escapeMarked(str string, i, end, start int, esc []bool, text, escape func(string)) int {
	for j := i; esc != nil && j < end; {
		r, n := utf8.DecodeRuneInString(str[j:])
		if esc[j-i] {
			if j > start {
				text(str[start:j])
			}
			escape(fmt.Sprintf("<U+%04X>", r))
			start = j + n
		}
		j += n
	}
	return start
}

// TermWidth is the width of s as a terminal that draws code point by code point (tmux)
// lays it out: the sum of each rune's wcwidth, Hangul vowel and final jamo joining the
// syllable before them at no width. Text Visit returns has the same TermWidth as x/ansi's
// grapheme width (what the panes lay out with).
func TermWidth(s string) int {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}

// runeWidth is one rune's width in TermWidth.
func runeWidth(r rune) int {
	if r < 0x80 {
		if r >= 0x20 && r < 0x7f {
			return 1
		}
		return 0
	}
	if r >= 0x1160 && r <= 0x11ff || r >= 0xd7b0 && r <= 0xd7ff {
		return 0 // medial vowel and final consonant jamo
	}
	c := runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}
	return c.RuneWidth(r)
}

// The two width models are x/ansi's (what lipgloss lays out with), configured as it
// configures the libraries it measures with: grapheme clusters by uax29 and displaywidth,
// code points by go-runewidth. sanitize calls the libraries themselves: session and
// mcpclient depend on it, and on no UI package.

// firstCluster is the first grapheme cluster of s and its width (x/ansi's
// FirstGraphemeCluster with GraphemeWidth).
func firstCluster(s string) (string, int) {
	c := graphemes.FromString(s).First()
	return c, graphemeWidth(c)
}

// graphemeWidth is the width of s in grapheme clusters (x/ansi's StringWidth, for text
// without escape sequences).
func graphemeWidth(s string) int { return displaywidth.Options{EastAsianWidth: false}.String(s) }

// joins reports whether r joins the character before it into one grapheme cluster (a
// combining or spacing mark, an emoji modifier, a variation selector).
func joins(r rune) bool {
	var buf [1 + utf8.UTFMax]byte
	buf[0] = 'a'
	n := utf8.EncodeRune(buf[1:], r)
	c, _ := firstCluster(string(buf[:1+n]))
	return len(c) > 1
}

// Blank reports whether r is a character that draws nothing though it is no space: the
// Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and the blank Braille pattern (U+2800).
// A tool or prompt name made of them looks empty, or like another name; they are shown as
// escapes so that it does not.
func Blank(r rune) bool {
	switch r {
	case 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800:
		return true
	}
	return false
}

// prepend reports the grapheme prepend characters that are not format characters (Unicode
// 15.1 GCB=Prepend less Cf): they join the character drawn after them, which after Visit
// may be an escape's "<", not the one that followed in the text. Shown as escapes.
func prepend(r rune) bool {
	switch {
	case r == 0x0d4e, r == 0x111c2, r == 0x111c3, r == 0x1193f, r == 0x11941, r == 0x11a3a,
		r >= 0x11a84 && r <= 0x11a89, r == 0x11d46, r == 0x11f02:
		return true
	}
	return false
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
	var str string // b as a string, made at the first rune that needs its cluster
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
			case Dangerous(r) || Blank(r) || prepend(r):
				esc = fmt.Sprintf("<U+%04X>", r)
				n = size
			default:
				// As Visit: a cluster terminals draw at other widths shows its joiners as
				// escapes (a read boundary inside it is marked after it).
				if str == "" {
					str = string(b)
				}
				end, escs := cluster(str, i, i > start && b[i-1] >= 0x20 && b[i-1] < 0x7f, i == start)
				start = escapeMarked(str, i, end, start, escs, func(t string) { emit(t, Plain) }, func(e string) { emit(e, Escaped) })
				i = end
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
