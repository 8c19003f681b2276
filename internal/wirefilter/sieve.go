package wirefilter

import (
	"bytes"
	"slices"
	"strings"
)

// Sieve tells, from a few substring searches, that no filter of a set can match a JSON-RPC
// frame going one way, so a forwarding path may send it on without parsing it. It is made
// once per set of filters (NewSieve) by asking which strings a matching frame would have
// to contain: a frame of kind error has the member "error", one matched by
// method:tools/list the string "tools/list" quoted. A frame without a backslash (an escape
// could spell them otherwise) that contains none of them is ruled out. Some are needed
// together (tool:delete_* needs "tools/call" quoted and delete_): such a frame is ruled out
// when one of them is missing.
type Sieve struct {
	// needs is what a frame some filter may match holds: all of one of them.
	needs [][]literal
	// none: some filter may match a frame whatever its bytes hold (say, text:, kind:invalid,
	// or method:* on a response): nothing is ruled out.
	none bool
}

// NewSieve is the sieve of filters for frames going dir ("out": client to server, "in":
// server to client).
func NewSieve(dir string, filters []Filter) Sieve {
	p := probe{dir: dir}
	for _, f := range filters {
		if f.root == nil || maybe(f.root, p.eval) != no || p.namesRequest(f.root) {
			return Sieve{none: true}
		}
	}
	return Sieve{needs: minimal(p.needs)}
}

// minimal drops each need that holds all of another: a frame that has all of it has the
// other's too, so its search can only repeat what the other's told.
func minimal(needs [][]literal) [][]literal {
	var out [][]literal
	for j, n := range needs {
		redundant := false
		for i, m := range needs {
			if i != j && len(m) < len(n) && subset(m, n) {
				redundant = true
				break
			}
		}
		if !redundant {
			out = append(out, n)
		}
	}
	return out
}

// subset reports whether every literal of a is in b.
func subset(a, b []literal) bool {
	for _, l := range a {
		if !slices.Contains(b, l) {
			return false
		}
	}
	return true
}

// RulesOut reports whether no filter of the sieve can match the frame raw (the message
// without its line ending): when it is a response, one to a request nobody remembers (its
// method and tool ""). Then also no method: or tool: term matches what it carries as a
// request, so its response, matched without it, is matched the same: it need not be
// remembered. False says nothing: the frame must be parsed to know.
func (s *Sieve) RulesOut(raw []byte) bool {
	if s.none || bytes.IndexByte(raw, '\\') >= 0 {
		return false
	}
next:
	for _, all := range s.needs {
		for _, lit := range all {
			if !containsLit(raw, lit) {
				continue next
			}
		}
		return false
	}
	return true
}

// probe evaluates filters on a frame going dir that lacks what each term needs (so a term
// that needs something is false), and collects what they need.
type probe struct {
	dir   string
	needs [][]literal
}

// absent records that a term needs all of lits and reports the probe's frame lacks them.
func (p *probe) absent(lits ...literal) bool {
	for _, have := range p.needs {
		if slices.Equal(have, lits) {
			return true
		}
	}
	p.needs = append(p.needs, lits)
	return true
}

func (p *probe) eval(t *term) tri {
	switch t.key {
	case "dir":
		for _, a := range t.alts {
			if a.s == p.dir {
				return yes
			}
		}
		return no
	case "id":
		// The id as written is part of the bytes, escapes and all.
		for _, a := range t.alts {
			if a.s == "" || !p.absent(newLiteral(a.s)) {
				return unknown
			}
		}
		return no
	case "kind":
		for _, a := range t.alts {
			switch a.s {
			case "request", "notification":
				p.absent(literal{`"method"`, 4})
			case "response":
				p.absent(literal{`"result"`, 4})
			case "error":
				p.absent(literal{`"error"`, 1})
			case "stderr", "lifecycle", "http": // not frames
			default: // batch, invalid: not told by a member's name
				return unknown
			}
		}
		return no
	case "method", "tool":
		if p.ownMethodOrTool(t) {
			return unknown
		}
		return no
	}
	return unknown // text, is, time, ex
}

// ownMethodOrTool reports whether t may match the frame's own method (or a tools/call's
// tool), or the lack of one (""); false records the strings that say it cannot.
func (p *probe) ownMethodOrTool(t *term) bool {
	for _, a := range t.alts {
		if a.empty {
			return true
		}
		if t.key == "tool" {
			// A tool is named by a tools/call request; tool:"" matches nothing.
			p.absent(append([]literal{{`"tools/call"`, 6}}, a.lits...)...)
		} else {
			p.absent(a.lits...)
		}
	}
	return false
}

// namesRequest reports whether some method: or tool: term of n may match what a frame
// carries as a request, or the lack of one: a response's match would then depend on
// knowing its request.
func (p *probe) namesRequest(n node) bool {
	named := false
	maybe(n, func(t *term) tri {
		if (t.key == "method" || t.key == "tool") && p.ownMethodOrTool(t) {
			named = true
		}
		return unknown
	})
	return named
}

// literal is a string a frame is searched for, with the index of its rarest byte
// (rarest), which the search looks for first.
type literal struct {
	s string
	k int
}

func newLiteral(s string) literal { return literal{s, rarest(s)} }

// containsLit is bytes.Contains for the short literals a filter looks for in JSON, where
// the first byte of most ('"') is everywhere: it looks for the literal's rarest byte.
func containsLit(raw []byte, lit literal) bool {
	n, k := len(lit.s), lit.k
	if n == 0 {
		return true
	}
	c := lit.s[k]
	last := len(raw) - (n - k) // the last place c can be
	for from := k; from <= last; {
		i := bytes.IndexByte(raw[from:last+1], c)
		if i < 0 {
			return false
		}
		at := from + i - k
		if string(raw[at:at+n]) == lit.s {
			return true
		}
		from += i + 1
	}
	return false
}

// rarest is the index of the byte of lit least often seen in JSON-RPC messages (a rough
// ranking: JSON's punctuation, lowercase vowels, common consonants, other letters and
// digits, the rest).
func rarest(lit string) int {
	best, score := 0, -1
	for i := range len(lit) {
		c := lit[i]
		var r int
		switch {
		case c == '"' || c == ':' || c == ',' || c == ' ':
			r = 0
		case c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u':
			r = 1
		case c == 't' || c == 'n' || c == 's' || c == 'r' || c == 'c' || c == 'l':
			r = 2
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			r = 3
		default:
			r = 4
		}
		if r > score {
			best, score = i, r
		}
	}
	return best
}

// globLits is what the bytes of a JSON string without escapes that pattern matches must
// contain: the pattern quoted when it has no wildcard, else its literal runs.
func globLits(pattern string) []literal {
	if !strings.ContainsAny(pattern, "*?") {
		return []literal{newLiteral(`"` + pattern + `"`)}
	}
	var lits []literal
	for _, lit := range strings.FieldsFunc(pattern, func(r rune) bool { return r == '*' || r == '?' }) {
		lits = append(lits, newLiteral(lit))
	}
	return lits
}
