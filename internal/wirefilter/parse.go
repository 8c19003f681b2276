package wirefilter

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// token is one lexed piece: an operator ( ) ! | or a term; col is its 1-based rune column.
type token struct {
	text string
	op   byte // '(', ')', '!', '|', or 0 for a term
	col  int
	// key and vals are a term's parts (key "text" for a bare word); vcol are the
	// columns of the values.
	key  string
	vals []string
	vcol []int
}

// lex splits src into tokens. A term runs to the next space or parenthesis outside quotes.
func lex(src string) ([]token, error) {
	var toks []token
	rs := []rune(src)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
			continue
		case r == '(' || r == ')' || r == '!' || r == '|':
			toks = append(toks, token{text: string(r), op: byte(r), col: i + 1})
			i++
			continue
		}
		start := i
		t := token{col: i + 1}
		// The key: letters and '-' up to ':'.
		j := i
		for j < len(rs) && (unicode.IsLetter(rs[j]) || rs[j] == '-') {
			j++
		}
		vstart := i
		if j < len(rs) && rs[j] == ':' && j > i {
			t.key = strings.ToLower(string(rs[i:j]))
			vstart = j + 1
		}
		// The values: runs separated by '|', each possibly quoted.
		var cur []rune
		curCol := vstart + 1
		quoted := false
		k := vstart
	scan:
		for k < len(rs) {
			c := rs[k]
			switch {
			case c == '"':
				end := k + 1
				for end < len(rs) && rs[end] != '"' {
					if rs[end] == '\\' && end+1 < len(rs) {
						end++
					}
					end++
				}
				if end >= len(rs) {
					return nil, &SyntaxError{Col: k + 1, Msg: "unclosed quote"}
				}
				cur = append(cur, []rune(unescape(string(rs[k+1:end])))...)
				quoted = true
				k = end + 1
			case unicode.IsSpace(c) || c == '(' || c == ')':
				break scan
			case c == '|':
				t.vals, t.vcol = append(t.vals, string(cur)), append(t.vcol, curCol)
				cur, quoted = nil, false
				k++
				curCol = k + 1
			default:
				cur = append(cur, c)
				k++
			}
		}
		if len(cur) > 0 || quoted || len(t.vals) > 0 {
			t.vals, t.vcol = append(t.vals, string(cur)), append(t.vcol, curCol)
		}
		t.text = string(rs[start:k])
		i = k
		if t.key == "" {
			switch strings.ToLower(t.text) {
			case "or":
				t.op = '|'
			case "not":
				t.op = '!'
			case "and":
				continue
			default:
				t.key = "text"
			}
		}
		toks = append(toks, t)
	}
	return toks, nil
}

// unescape undoes \" and \\ inside a quoted value.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

type parser struct {
	src  string
	toks []token
	pos  int
	err  error
}

func (p *parser) fail(col int, format string, args ...any) {
	if p.err == nil {
		p.err = &SyntaxError{Col: col, Msg: fmt.Sprintf(format, args...)}
	}
}

func (p *parser) peek() *token {
	if p.pos < len(p.toks) {
		return &p.toks[p.pos]
	}
	return nil
}

// or := and ( '|' and )*
func (p *parser) or() node {
	var alts orNode
	alts = append(alts, p.and())
	for t := p.peek(); p.err == nil && t != nil && t.op == '|'; t = p.peek() {
		p.pos++
		if n := p.peek(); n == nil || n.op == '|' || n.op == ')' {
			p.fail(t.col, "%q needs a term after it", t.text)
			return nil
		}
		alts = append(alts, p.and())
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return alts
}

// and := unary+
func (p *parser) and() node {
	var all andNode
	for t := p.peek(); p.err == nil && t != nil && t.op != '|' && t.op != ')'; t = p.peek() {
		all = append(all, p.unary())
	}
	if len(all) == 0 {
		col := len([]rune(p.src)) + 1
		if t := p.peek(); t != nil {
			col = t.col
		}
		p.fail(col, "a term is missing here")
		return nil
	}
	if len(all) == 1 {
		return all[0]
	}
	return all
}

// unary := '!' unary | '(' or ')' | term
func (p *parser) unary() node {
	t := p.peek()
	if t == nil {
		p.fail(len([]rune(p.src))+1, "a term is missing at the end")
		return nil
	}
	p.pos++
	switch t.op {
	case '!':
		return notNode{p.unary()}
	case '(':
		n := p.or()
		if c := p.peek(); p.err == nil && (c == nil || c.op != ')') {
			p.fail(t.col, "unclosed parenthesis")
		}
		p.pos++
		return n
	}
	return p.term(t)
}

// term checks a key:value token's key and values.
func (p *parser) term(t *token) node {
	out := &term{key: t.key}
	if len(t.vals) == 0 {
		// The value goes right after the colon; a parenthesis there ends the term.
		after := t.col + utf8.RuneCountInString(t.text)
		if next := p.peek(); next != nil && next.op == '(' && next.col == after {
			p.fail(after, "%s: needs a value right after the colon; a parenthesis groups whole terms: (%s:a | %s:b), or say %s:a|b", t.key, t.key, t.key, t.key)
			return nil
		}
		p.fail(t.col, "%s: needs a value", t.key)
		return nil
	}
	for i, v := range t.vals {
		col := t.vcol[i]
		if v == "" {
			p.fail(col, "%s: empty value", t.key)
			return nil
		}
		a, ok := p.value(t.key, v, col)
		if !ok {
			return nil
		}
		if t.key == "method" || t.key == "tool" {
			a.lits = globLits(a.s)
			a.empty = t.key == "method" && Glob(a.s, "")
		}
		out.alts = append(out.alts, a)
	}
	return out
}

// value checks one value of key.
func (p *parser) value(key, v string, col int) (alt, bool) {
	switch key {
	case "dir":
		switch v {
		case ">", "→":
			v = "out"
		case "<", "←":
			v = "in"
		}
		if !oneOf(v, "in", "out", "stderr", "lifecycle") {
			p.fail(col, "dir: %q is not in, out, stderr or lifecycle", v)
			return alt{}, false
		}
	case "kind":
		v = strings.ToLower(v)
		if !oneOf(v, "request", "notification", "response", "error", "batch", "invalid", "stderr", "lifecycle", "http") {
			p.fail(col, "kind: %q is not request, notification, response, error, batch, invalid, stderr, lifecycle or http", v)
			return alt{}, false
		}
	case "is":
		v = strings.ToLower(v)
		switch v {
		case "problem", "problems":
			v = "problem"
		case "tool-error", "toolerror":
			v = "tool-error"
		default:
			p.fail(col, "is: %q is not problem or tool-error", v)
			return alt{}, false
		}
	case "time":
		return p.timeValue(v, col)
	case "ex":
		v = strings.TrimPrefix(v, "#")
		if n, err := strconv.ParseUint(v, 10, 64); err != nil || n == 0 {
			p.fail(col, "ex: %q is not an event number (the HTTP request's #, as the list shows it)", v)
			return alt{}, false
		}
	case "method", "id", "tool", "text":
	default:
		p.fail(col-len([]rune(key))-1, "unknown key %q (dir, kind, method, id, tool, text, is, time, ex)", key)
		return alt{}, false
	}
	return alt{s: v}, true
}

// timeValue parses >D, <D (strict), >=D, <=D, D..D, D.., ..D (ranges inclusive; D a Go
// duration such as 2s or 1.5s).
func (p *parser) timeValue(v string, col int) (alt, bool) {
	var a alt
	dur := func(s string, at int) (time.Duration, bool) {
		d, err := time.ParseDuration(s)
		if err != nil {
			p.fail(at, "time: %q is not a duration such as 2s or 500ms", s)
			return 0, false
		}
		return d, true
	}
	var ok bool
	switch {
	case strings.HasPrefix(v, ">"):
		s := strings.TrimPrefix(strings.TrimPrefix(v, ">"), "=")
		a.lo, ok = dur(s, col+len(v)-len(s))
		a.hasLo = true
		if !strings.HasPrefix(v, ">=") {
			a.lo++ // strictly after
		}
	case strings.HasPrefix(v, "<"):
		s := strings.TrimPrefix(strings.TrimPrefix(v, "<"), "=")
		a.hi, ok = dur(s, col+len(v)-len(s))
		a.hasHi = true
		if !strings.HasPrefix(v, "<=") {
			a.hi-- // strictly before
		}
	case strings.Contains(v, ".."):
		lo, hi, _ := strings.Cut(v, "..")
		ok = true
		if lo != "" {
			a.lo, ok = dur(lo, col)
			a.hasLo = true
		}
		if ok && hi != "" {
			a.hi, ok = dur(hi, col+utf8.RuneCountInString(lo)+2)
			a.hasHi = true
		}
		if ok && !a.hasLo && !a.hasHi {
			p.fail(col, "time: .. needs a bound")
			ok = false
		}
	default:
		p.fail(col, "time: %q needs >, < or a range a..b", v)
	}
	return a, ok
}

func oneOf(v string, set ...string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}
