package trace

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A secret can reach the wire in more forms than its bytes (issues 15 and 26). Inside a JSON
// string any character may be written as \uXXXX (Python's json.dumps does it for every
// non-ASCII character; a surrogate pair above U+FFFF, hex digits in either case) and "/" as
// "\/"; a tool result whose text is itself JSON holds the secret one escape level deeper
// (\\u00f6 for an o with umlaut, \\\" for a quote), and JSON wrapped once more two levels
// deeper. In a URL or a form body each byte may be %XX (either case) and a space '+'. A
// server may send the secret base64-encoded (a Basic credential, a blob), wrapped in lines
// (PEM's 64 columns, MIME's 76), or as hex. The secret's written forms are its value (each
// character also %-encoded), its hex in lower and in upper case and its base64 cores (line
// breaks allowed between characters, '+' and '/' also %-encoded); Bytes looks for each of
// them as the content of a JSON string at every depth up to maxDepth, and as plain text.

// maxDepth is how many JSON-string levels deep a secret is looked for: in a string (1), in
// a string of the JSON text a string holds (2), and one level further (3).
const maxDepth = 3

// form is one written form of a secret before JSON escaping: one unit per character.
type form []unit

// unit is one character of a form.
type unit struct {
	r   rune // the character; a byte of a value that is not UTF-8 is rawByte(b)
	pct bool // it may also be written %XX (each of its UTF-8 bytes), and a space '+'
	brk bool // a line break (LF or CRLF) may follow it
}

// rawByte stands for a byte that is not part of valid UTF-8, as a rune no text decodes to.
func rawByte(b byte) rune { return -1 - rune(b) }

// char is one character read from a text as the content of a JSON string at some depth:
// its rune, where it ends, and whether it stands for itself (raw) rather than coming from an
// escape at that depth. A raw '"' is a string's edge, never a character of one.
type char struct {
	r   rune
	end int
	raw bool
}

// readChar reads the character at b[p:] at a JSON-string depth. Depth 0 is the bytes (a
// rune, or rawByte of a byte that is not UTF-8); at depth d a backslash read at depth d-1
// starts an escape made of characters read at depth d-1 (\\u00e4 is, at depth 2, the
// escape \u00e4). ok is false at the end of b and at a backslash that starts no valid
// escape, or an escape that would run across the edge of the string around it.
func readChar(b []byte, p, depth int) (c char, ok bool) {
	if p >= len(b) {
		return char{}, false
	}
	if x := b[p]; x != '\\' || depth == 0 {
		if x < utf8.RuneSelf {
			return char{r: rune(x), end: p + 1, raw: depth > 0}, true
		}
		r, n := utf8.DecodeRune(b[p:])
		if r == utf8.RuneError && n == 1 {
			r = rawByte(x)
		}
		return char{r: r, end: p + n, raw: depth > 0}, true
	}
	if depth == 1 {
		return readEscape1(b, p)
	}
	if c, ok = readChar(b, p, depth-1); !ok || c.r != '\\' {
		c.raw = true // a character of depth-1 that starts no escape at depth stands for itself
		return c, ok
	}
	e, ok := readChar(b, c.end, depth-1)
	if !ok || e.raw && e.r == '"' {
		return char{}, false
	}
	if v := unescapeShort(e.r); v >= 0 {
		return char{r: v, end: e.end}, true
	}
	if e.r != 'u' {
		return char{}, false
	}
	var v rune
	end := e.end
	for range 4 {
		h, ok := readChar(b, end, depth-1)
		d := hexValue(h.r)
		if !ok || d < 0 {
			return char{}, false
		}
		v, end = v<<4|d, h.end
	}
	return char{r: v, end: end}, true
}

// readEscape1 is readChar at depth 1 of the escape at b[p:] (b[p] is a backslash).
func readEscape1(b []byte, p int) (char, bool) {
	if p+1 >= len(b) {
		return char{}, false
	}
	if x := b[p+1]; x != 'u' {
		if v := unescapeShort(rune(x)); v >= 0 {
			return char{r: v, end: p + 2}, true
		}
		return char{}, false
	}
	v, ok := hex4(b, p+2)
	return char{r: v, end: p + 6}, ok
}

// unescapeShort is the character a two-character JSON escape \c stands for, or -1.
func unescapeShort(c rune) rune {
	switch c {
	case '"', '\\', '/':
		return c
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return -1
}

// hexValue is the value of a hex digit (either case), or -1.
func hexValue(c rune) rune {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return -1
}

// matcher matches a form at b[i:] at one JSON-string depth. It keeps the set of positions
// each prefix of the form can end at, so a secret of many backslashes against a run of them
// costs linear time, not 2^n.
type matcher struct {
	b     []byte
	depth int
	// strict is JSON text: there a raw '"' only ever ends a string and a backslash always
	// starts an escape. Loose is plain text (a stderr line, an HTTP head): a raw '"' is a
	// character and a backslash of the secret may also stand alone (depth 1 only).
	strict bool
	// deeper is set when a character read was a backslash: only then can the next depth
	// read the text differently (elsewhere a character reads the same at every depth).
	deeper bool
	// bufs back the two sets of ends while they are small.
	bufs [2][8]int
}

func (m *matcher) read(p int) (char, bool) {
	c, ok := readChar(m.b, p, m.depth)
	if ok && c.r == '\\' {
		m.deeper = true
	}
	return c, ok
}

// add puts j in the set ends, which it keeps sorted. Ends mostly come in order, so the
// place is looked for from the back (a long run of backslashes in plain text makes the set
// as long as the secret).
func add(ends []int, j int) []int {
	k := len(ends)
	for k > 0 && ends[k-1] > j {
		k--
	}
	if k > 0 && ends[k-1] == j {
		return ends
	}
	return slices.Insert(ends, k, j)
}

// match reports the furthest end of f written at b[i:], or -1.
func (m *matcher) match(i int, f form) int {
	cur, next := append(m.bufs[0][:0], i), m.bufs[1][:0]
	for k, u := range f {
		next = next[:0]
		for _, p := range cur {
			next = m.step(next, p, u)
		}
		if len(next) == 0 {
			return -1
		}
		if u.brk && k+1 < len(f) {
			cur = cur[:0] // read through: it becomes the ends with and without a line break
			for _, p := range next {
				cur = m.lineBreak(add(cur, p), p)
			}
			continue
		}
		cur, next = next, cur
	}
	return cur[len(cur)-1]
}

// lineBreak adds to ends the end of a line break (LF or CRLF) at b[p:], if there is one.
func (m *matcher) lineBreak(ends []int, p int) []int {
	c, ok := m.read(p)
	if ok && c.r == '\r' {
		c, ok = m.read(c.end)
	}
	if ok && c.r == '\n' {
		ends = add(ends, c.end)
	}
	return ends
}

// percent reports the end of r written %XX for each of its bytes at b[p:], or -1.
func (m *matcher) percent(p int, r rune) int {
	var buf [utf8.UTFMax]byte
	bs := buf[:0]
	if r < 0 {
		bs = append(bs, byte(-1-r))
	} else {
		bs = utf8.AppendRune(bs, r)
	}
	for _, x := range bs {
		c, ok := m.read(p)
		if !ok || c.r != '%' {
			return -1
		}
		hi, ok := m.read(c.end)
		if !ok || hexValue(hi.r) != rune(x>>4) {
			return -1
		}
		lo, ok := m.read(hi.end)
		if !ok || hexValue(lo.r) != rune(x&15) {
			return -1
		}
		p = lo.end
	}
	return p
}

// step adds to ends those of u written at b[p:].
func (m *matcher) step(ends []int, p int, u unit) []int {
	if !m.strict && u.r == '\\' && p < len(m.b) && m.b[p] == '\\' {
		ends = add(ends, p+1) // a lone backslash
	}
	c, ok := m.read(p)
	if !ok {
		return ends
	}
	switch {
	case c.r == u.r:
		if !m.strict || !c.raw || c.r != '"' { // a raw quote ends the string: no secret goes on through it
			ends = add(ends, c.end)
		}
	case u.r > 0xffff && c.r == 0xd800+(u.r-0x10000)>>10: // a surrogate pair
		if lo, ok := m.read(c.end); ok && lo.r == 0xdc00+(u.r-0x10000)&0x3ff {
			ends = add(ends, lo.end)
		}
	}
	if u.pct {
		switch {
		case c.r == '%':
			if e := m.percent(p, u.r); e >= 0 {
				ends = add(ends, e)
			}
		case c.r == '+' && u.r == ' ':
			ends = add(ends, c.end)
		}
	}
	return ends
}

// starts reports whether u can begin with the character c (read at depth 1; a backslash
// can begin anything one level deeper).
func (u unit) starts(c rune) bool {
	return c == u.r || c == '\\' || u.r > 0xffff && c == 0xd800+(u.r-0x10000)>>10 ||
		u.pct && (c == '%' || c == '+' && u.r == ' ')
}

// secretForms returns the written forms of value the redactor looks for: the value itself
// (each character also %-encoded), its hex in lower and in upper case, and its base64 cores
// (line breaks allowed between characters; '+' and '/' also %-encoded, as in a URL).
func secretForms(value []byte, cores [][]byte) []form {
	raw := make(form, 0, len(value))
	for i := 0; i < len(value); {
		r, n := utf8.DecodeRune(value[i:])
		if r == utf8.RuneError && n == 1 {
			r = rawByte(value[i])
		}
		raw = append(raw, unit{r: r, pct: true})
		i += n
	}
	hexForm := func(h string) form {
		f := make(form, len(h))
		for i := range len(h) {
			f[i] = unit{r: rune(h[i])}
		}
		return f
	}
	lower := hex.EncodeToString(value)
	forms := []form{raw, hexForm(lower)}
	if upper := strings.ToUpper(lower); upper != lower {
		forms = append(forms, hexForm(upper))
	}
	for _, core := range cores {
		f := make(form, len(core))
		for i, c := range core {
			f[i] = unit{r: rune(c), pct: c == '+' || c == '/', brk: true}
		}
		forms = append(forms, f)
	}
	return forms
}

// startSet says where a secret's forms can begin: first marks the bytes one can begin with
// (a backslash can begin every form), pairs the two bytes one can begin with when neither
// starts an encoding of a character (an escape, %XX, a '+' for a space, a line break).
type startSet struct {
	first [256]bool
	pairs [1 << 16 / 64]uint64 // bit x<<8|y
}

// startsAt reports whether a form can begin at b[i:].
func (s *startSet) startsAt(b []byte, i int) bool {
	x := b[i]
	if !s.first[x] || i+1 == len(b) {
		return false // a form is at least two bytes long
	}
	switch y := b[i+1]; y {
	case '\\', '%', '+', '\r', '\n':
		return true
	default:
		k := uint16(x)<<8 | uint16(y)
		return x == '\\' || s.pairs[k>>6]&(1<<(k&63)) != 0
	}
}

func newStartSet(forms []form) *startSet {
	s := &startSet{}
	s.first['\\'] = true
	pair := func(x, y byte) {
		s.first[x] = true
		k := uint16(x)<<8 | uint16(y)
		s.pairs[k>>6] |= 1 << (k & 63)
	}
	for _, f := range forms {
		if len(f) < 2 { // shorter than MinScrubLen: not a form addSecret makes
			for _, x := range f[0].raw() {
				for y := range 256 {
					pair(x, byte(y))
				}
			}
			continue
		}
		u, next := f[0], f[1].raw()
		if raw := u.raw(); len(raw) > 1 {
			pair(raw[0], raw[1])
		} else {
			pair(raw[0], next[0])
		}
		if u.pct {
			for _, d := range percentClues(u.raw()[0]) {
				pair('%', d[1])
			}
			if u.r == ' ' {
				pair('+', next[0])
			}
		}
	}
	return s
}

// raw is u written as itself.
func (u unit) raw() []byte {
	if u.r < 0 {
		return []byte{byte(-1 - u.r)}
	}
	return utf8.AppendRune(nil, u.r)
}

// wrapMin is the narrowest line of base64 the prefilter's clues allow for (PEM writes 64
// characters a line, MIME 76): in a frame with no backslash, a core wrapped narrower is
// found only when another clue lets the frame through. Matching itself allows a line
// break between any two characters.
const wrapMin = 16

// clues returns byte strings one of which a text holds whenever it holds a form of s with
// no JSON escape in it (a text with a backslash is scanned whatever it holds): the value,
// its JSON escaping, each of its bytes %-encoded, a prefix of it up to a space written '+',
// its hex, and for each base64 core what survives its line breaks (see b64Clues).
func (s *secret) clues() [][]byte {
	out := [][]byte{s.value, s.escaped}
	var seen [256]bool
	for i, x := range s.value {
		if !seen[x] {
			seen[x] = true
			out = append(out, percentClues(x)...)
		}
		if x != ' ' {
			continue
		}
		// The first space written '+' with every byte before it raw (a byte written %XX
		// is a clue of its own).
		if i > 0 {
			out = append(out, append(slices.Clip(s.value[:i]), '+'))
		} else {
			out = append(out, []byte("++"), []byte("+%"), append([]byte("+"), s.value[1:min(2, len(s.value))]...))
		}
	}
	lower := hex.EncodeToString(s.value)
	out = append(out, []byte(lower), []byte(strings.ToUpper(lower)))
	for _, core := range s.b64 {
		out = append(out, b64Clues(core)...)
		for _, c := range []byte("+/") {
			if bytes.IndexByte(core, c) >= 0 {
				out = append(out, percentClues(c)...)
			}
		}
	}
	return out
}

// percentClues returns x written %XX, each hex digit in either case.
func percentClues(x byte) [][]byte {
	cases := func(d byte) []byte {
		const lower, upper = "0123456789abcdef", "0123456789ABCDEF"
		if d < 10 {
			return []byte{lower[d]}
		}
		return []byte{lower[d], upper[d]}
	}
	var out [][]byte
	for _, hi := range cases(x >> 4) {
		for _, lo := range cases(x & 15) {
			out = append(out, []byte{'%', hi, lo})
		}
	}
	return out
}

// b64Clues returns byte strings one of which a text holds whenever it holds core broken
// into lines of wrapMin characters or more (LF or CRLF). A short core holds at most one
// line break: it is the core whole or with a break at each place. A longer one is cut into
// one piece more than the breaks it can hold; a break spoils at most one piece.
func b64Clues(core []byte) [][]byte {
	n := len(core)
	if n <= wrapMin+1 {
		out := [][]byte{core}
		for i := 1; i < n; i++ {
			for _, eol := range []string{"\n", "\r\n"} {
				out = append(out, slices.Concat(core[:i], []byte(eol), core[i:]))
			}
		}
		return out
	}
	pieces := (n-2)/wrapMin + 2
	out := make([][]byte, pieces)
	for j := range pieces {
		out[j] = core[j*n/pieces : (j+1)*n/pieces]
	}
	return out
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
		d := hexValue(rune(c))
		if d < 0 {
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}

// scrub replaces every written form of s in b with Mask; changed reports a hit. A match may
// start anywhere, even inside an escape (a secret's bytes make no escape whole, yet they
// must not be left in the trace): the mask then covers the escapes it cuts (see extend).
// jsonText says whether b is JSON (-1 until something needs to know; then it is cached for
// the caller's next secret): a match that needs plain-text reading (a raw quote, a lone
// backslash) is taken only in text that is not JSON, since in JSON it would run across a
// string's edge.
func (s *secret) scrub(b []byte, jsonText *int) (out []byte, changed bool) {
	m := matcher{b: b}
	isJSON := func() bool {
		if *jsonText < 0 {
			*jsonText = boolInt(isJSONMessage(b))
		}
		return *jsonText == 1
	}
	var w []byte
	last := 0
	walk := 0 // a boundary of characters at maxDepth, at or before i
	for i := 0; i < len(b); i++ {
		if !s.starts.startsAt(b, i) {
			continue
		}
		start, end := i, s.strictEnd(&m, i)
		if end >= 0 {
			start, end = extend(b, &walk, i, end)
		} else if s.loose {
			m.depth, m.strict = 1, false
			if end = m.match(i, s.forms[0]); end >= 0 && isJSON() {
				end = -1
			}
		}
		if end < 0 {
			continue
		}
		if w == nil {
			w = make([]byte, 0, len(b))
		}
		w = append(append(w, b[last:start]...), Mask...)
		last, walk = end, end
		i = end - 1
	}
	if w == nil {
		return b, false
	}
	return append(w, b[last:]...), true
}

// strictEnd reports the furthest end of a form of s written at b[i:] as JSON-string content
// at any depth up to maxDepth, or -1.
func (s *secret) strictEnd(m *matcher, i int) int {
	c, ok := readChar(m.b, i, 1)
	if !ok {
		return -1
	}
	best := -1
	for _, f := range s.forms {
		if !f[0].starts(c.r) {
			continue
		}
		for d := 1; d <= maxDepth; d++ {
			m.depth, m.strict, m.deeper = d, true, false
			best = max(best, m.match(i, f))
			if !m.deeper {
				break // the next depth reads the same characters
			}
		}
	}
	return best
}

// extend widens a strict match [i, end) to whole characters at maxDepth, so that masking it
// cuts no escape at any depth: a match may start inside an escape (the secret "u00e4-key"
// in \u00e4-key), or inside one of a deeper depth (\\u00e4 read at depth 1 is a backslash
// and "u00e4"), or end inside one. walk is a boundary of such characters at or before i,
// found by reading from the last one.
func extend(b []byte, walk *int, i, end int) (start, stop int) {
	for {
		n := *walk + charLen(b, *walk)
		if n > i {
			break
		}
		*walk = n
	}
	stop = *walk
	for stop < end {
		stop += charLen(b, stop)
	}
	return *walk, stop
}

// charLen is the length of the character at b[p:] read at the deepest depth it reads at.
func charLen(b []byte, p int) int {
	for d := maxDepth; d >= 1; d-- {
		if c, ok := readChar(b, p, d); ok {
			return c.end - p
		}
	}
	return 1
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
