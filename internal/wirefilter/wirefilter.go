// Package wirefilter parses and applies the wire pane's filter expressions, in the spirit
// of mitmproxy's filters (~m, ~u) and termshark's display filter: space-separated terms
// are ANDed, "|" or "or" between terms is alternation, "!" or "not" negates, parentheses
// group, and a term is either key:value or a bare word (a substring of the raw bytes).
//
//	dir:in|out|stderr|lifecycle (also > for out, < for in)
//	kind:request|notification|response|error|batch|invalid|stderr|lifecycle|http
//	method:tools/*          glob (* any run, ? one character)
//	id:3                    the JSON-RPC id as written (quotes of a string id optional)
//	tool:echo               glob on the tool name of a tools/call or its response
//	text:foo, or foo        case-insensitive substring of the raw bytes or of the JSON's strings
//	is:problem              the event breaks a rule (a problem of warning severity or worse)
//	is:tool-error           a tools/call result with isError true
//	time:>2s time:<=1.5s time:1s..3s time:2s..   time since the first event (ranges inclusive)
//	ex:12                   the HTTP exchange whose request is event #12: the request and its
//	                        response's head, body, SSE frames and encoded form
//
// A value may list alternatives with "|" (kind:request|response) and may be quoted
// ("text:\"two words\""). The package does no I/O and knows nothing of the UI.
package wirefilter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Event is what a filter reads of one wire event. Raw's ok is false when the event's
// bytes are not at hand (paged out of memory): text, tool and tool-error terms then do
// not match it.
type Event interface {
	// Dir is "out" (client to server), "in" (server to client), "stderr" or "lifecycle".
	Dir() string
	// Kind is one of the kind keywords above.
	Kind() string
	// Method is the request's or notification's method, or the one a response answers.
	Method() string
	// ID is the JSON-RPC id as written ("" for none).
	ID() string
	// Elapsed is the time since the session's first event.
	Elapsed() time.Duration
	// HasProblem reports whether the event breaks a rule (a problem of warning severity).
	HasProblem() bool
	// Tool is the tool name of a tools/call request or of the response to one ("" if none
	// or not known).
	Tool() string
	// ToolError reports whether the event is a tools/call result with isError true.
	ToolError() bool
	// Raw is the event's bytes.
	Raw() ([]byte, bool)
	// Exchange is the Seq of the HTTP request an HTTP event belongs to (its own for the
	// request), 0 for any other event.
	Exchange() uint64
}

// SyntaxError is a filter that does not parse; Col is the 1-based column (in runes) of the
// offending text.
type SyntaxError struct {
	Col int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// Filter is a parsed expression. The zero Filter (and Parse("")) matches every event.
type Filter struct {
	src  string
	root node
}

// String is the expression as given.
func (f Filter) String() string { return f.src }

// Empty reports whether the filter matches everything because it has no terms.
func (f Filter) Empty() bool { return f.root == nil }

// NeedsBytes reports whether some term reads the event's bytes (text, tool, is:tool-error).
func (f Filter) NeedsBytes() bool { return f.root != nil && f.root.needsBytes() }

// Match reports whether ev passes the filter.
func (f Filter) Match(ev Event) bool { return f.root == nil || f.root.match(ev) }

type node interface {
	match(Event) bool
	needsBytes() bool
}

type andNode []node
type orNode []node
type notNode struct{ n node }

// term is one key:value with its alternatives (any of them matches).
type term struct {
	key  string
	alts []alt
}

type alt struct {
	s      string
	lo, hi time.Duration // for time:
	hasLo  bool
	hasHi  bool
	// lits, for method: and tool:, is what a matching value written as a JSON string
	// without escapes contains (globLits), for MayMatchFrame.
	lits []literal
	// empty, for method:, is whether the pattern matches no method ("").
	empty bool
}

func (a andNode) match(ev Event) bool {
	for _, n := range a {
		if !n.match(ev) {
			return false
		}
	}
	return true
}

func (a andNode) needsBytes() bool { return anyNeeds(a) }

func (o orNode) match(ev Event) bool {
	for _, n := range o {
		if n.match(ev) {
			return true
		}
	}
	return false
}

func (o orNode) needsBytes() bool { return anyNeeds(o) }

func anyNeeds(ns []node) bool {
	for _, n := range ns {
		if n.needsBytes() {
			return true
		}
	}
	return false
}

func (n notNode) match(ev Event) bool { return !n.n.match(ev) }
func (n notNode) needsBytes() bool    { return n.n.needsBytes() }

func (t *term) needsBytes() bool {
	switch t.key {
	case "text", "tool":
		return true
	case "is":
		for _, a := range t.alts {
			if a.s == "tool-error" {
				return true
			}
		}
	}
	return false
}

func (t *term) match(ev Event) bool {
	for _, a := range t.alts {
		if t.matchAlt(ev, a) {
			return true
		}
	}
	return false
}

func (t *term) matchAlt(ev Event, a alt) bool {
	switch t.key {
	case "dir":
		return ev.Dir() == a.s
	case "kind":
		return ev.Kind() == a.s
	case "method":
		return Glob(a.s, ev.Method())
	case "id":
		id := ev.ID()
		return id != "" && (id == a.s || strings.Trim(id, `"`) == a.s)
	case "tool":
		tool := ev.Tool()
		return tool != "" && Glob(a.s, tool)
	case "text":
		raw, ok := ev.Raw()
		return ok && Contains(raw, a.s)
	case "is":
		if a.s == "tool-error" {
			return ev.ToolError()
		}
		return ev.HasProblem()
	case "time":
		at := ev.Elapsed()
		return (!a.hasLo || at >= a.lo) && (!a.hasHi || at <= a.hi)
	case "ex":
		x := ev.Exchange()
		return x != 0 && strconv.FormatUint(x, 10) == a.s
	}
	return false
}

// Glob matches s against pattern, where * is any run of characters (slashes included)
// and ? is one character; everything else matches itself.
func Glob(pattern, s string) bool {
	px, sx := 0, 0
	nextPx, nextSx := -1, -1
	for px < len(pattern) || sx < len(s) {
		if px < len(pattern) {
			switch c := pattern[px]; c {
			case '*':
				nextPx, nextSx = px, sx+1
				px++
				continue
			case '?':
				if sx < len(s) {
					_, n := utf8.DecodeRuneInString(s[sx:])
					px++
					sx += n
					continue
				}
			default:
				if sx < len(s) && s[sx] == c {
					px++
					sx++
					continue
				}
			}
		}
		if nextSx > 0 && nextSx <= len(s) {
			px, sx = nextPx, nextSx
			continue
		}
		return false
	}
	return true
}

// Contains reports whether needle occurs in raw, ignoring case, either in the bytes
// as written or in the decoded text of the JSON strings (so "café" finds "caf\u00e9" and
// a quote finds \").
func Contains(raw []byte, needle string) bool {
	return Index(raw, needle) >= 0 || (bytes.IndexByte(raw, '\\') >= 0 && inJSONStrings(raw, needle))
}

// Index is the byte offset of the first occurrence of needle in raw, ignoring case
// (Unicode simple folding), or -1.
func Index(raw []byte, needle string) int {
	i, _ := Find(raw, needle)
	return i
}

// Find is Index with the end of the occurrence too (folding may change a character's
// length in bytes): raw[start:end] is what matched; start is -1 when nothing did.
func Find(raw []byte, needle string) (start, end int) {
	if needle == "" {
		return 0, 0
	}
	for i := 0; i < len(raw); i++ {
		if !utf8.RuneStart(raw[i]) {
			continue
		}
		if n := prefixFold(raw[i:], needle); n > 0 {
			return i, i + n
		}
	}
	return -1, -1
}

// prefixFold is the length of the start of b that equals needle ignoring case, or 0.
func prefixFold(b []byte, needle string) int {
	j := 0
	for _, nr := range needle {
		if j >= len(b) {
			return 0
		}
		r, size := utf8.DecodeRune(b[j:])
		if r != nr && !foldEq(r, nr) {
			return 0
		}
		j += size
	}
	return j
}

// foldEq reports whether r and s are the same letter in some case.
func foldEq(r, s rune) bool {
	if r < utf8.RuneSelf && s < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z' && r+'a'-'A' == s || 'A' <= s && s <= 'Z' && s+'a'-'A' == r
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f == s {
			return true
		}
	}
	return false
}

// inJSONStrings looks for needle in the decoded keys and string values of raw's JSON.
func inJSONStrings(raw []byte, needle string) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok && Index([]byte(s), needle) >= 0 {
			return true
		}
	}
}

// Parse parses an expression; the empty (or all-space) expression matches everything.
// A malformed one gives a *SyntaxError naming the column.
func Parse(src string) (Filter, error) {
	p := &parser{src: src}
	p.toks, p.err = lex(src)
	if p.err != nil {
		return Filter{}, p.err
	}
	if len(p.toks) == 0 {
		return Filter{src: src}, nil
	}
	n := p.or()
	if p.err == nil && p.pos < len(p.toks) {
		p.fail(p.toks[p.pos].col, "unexpected %q", p.toks[p.pos].text)
	}
	if p.err != nil {
		return Filter{}, p.err
	}
	return Filter{src: src, root: n}, nil
}
