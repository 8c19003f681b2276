// Package httpauth reads the WWW-Authenticate challenges of an HTTP response (RFC 9110
// §11.6.1, §11.2 for the grammar) as a debugger needs them: tolerant of what servers send
// (a parameter twice, single-quoted values), with each deviation named instead of the
// challenge refused.
package httpauth

import (
	"fmt"
	"strings"
)

// Challenge is one auth challenge: its scheme ("Bearer"), its parameters in the order sent
// (names lower-cased, as they are case-insensitive), or its token68.
type Challenge struct {
	Scheme  string
	Params  []Param
	Token68 string
}

// Param is one auth-param.
type Param struct {
	Name, Value string
}

// Get is the first value of parameter name ("" when absent).
func (c Challenge) Get(name string) string {
	for _, p := range c.Params {
		if p.Name == strings.ToLower(name) {
			return p.Value
		}
	}
	return ""
}

// Parse reads the values of the WWW-Authenticate headers of a response. Deviations from the
// grammar are returned as warnings, and the challenge is still read: a parameter given twice
// (RFC 9110 §11.2: each name only once per challenge), a value in single quotes (not a
// quoted-string: the quotes are taken off), an empty value.
func Parse(values []string) (cs []Challenge, warnings []string) {
	for _, v := range values {
		p := parser{s: v}
		for {
			c, ok := p.challenge(&warnings)
			if !ok {
				break
			}
			cs = append(cs, c)
		}
	}
	return cs, warnings
}

type parser struct {
	s string
	i int
}

func (p *parser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == ',') {
		p.i++
	}
}

func (p *parser) token() string {
	start := p.i
	for p.i < len(p.s) && isTChar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// challenge reads one challenge; false at the end.
func (p *parser) challenge(warnings *[]string) (Challenge, bool) {
	p.skip()
	scheme := p.token()
	if scheme == "" {
		if p.i < len(p.s) {
			*warnings = append(*warnings, fmt.Sprintf("unreadable at %q", p.s[p.i:]))
		}
		return Challenge{}, false
	}
	c := Challenge{Scheme: scheme}
	seen := map[string]bool{}
	for {
		for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
			p.i++
		}
		save := p.i
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
				p.i++
			}
		}
		name := p.token()
		rest := strings.TrimLeft(p.s[p.i:], " \t")
		if name == "" || !strings.HasPrefix(rest, "=") {
			if name != "" && len(c.Params) == 0 && c.Token68 == "" && save == p.i-len(name) {
				c.Token68 = name // "Basic dG9rZW4=" style
				continue
			}
			p.i = save // the next challenge's scheme
			return c, true
		}
		p.i = len(p.s) - len(rest) + 1
		for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
			p.i++
		}
		value := p.value(name, warnings)
		key := strings.ToLower(name)
		if seen[key] {
			*warnings = append(*warnings, fmt.Sprintf("%s: parameter %q given twice (RFC 9110 §11.2: once per challenge); both are kept, in order", scheme, name))
		}
		seen[key] = true
		c.Params = append(c.Params, Param{key, value})
	}
}

// value reads a token or a quoted-string (a single-quoted one with a warning).
func (p *parser) value(name string, warnings *[]string) string {
	if p.i >= len(p.s) {
		return ""
	}
	switch q := p.s[p.i]; q {
	case '"', '\'':
		p.i++
		var b strings.Builder
		for p.i < len(p.s) && p.s[p.i] != q {
			if q == '"' && p.s[p.i] == '\\' && p.i+1 < len(p.s) {
				p.i++
			}
			b.WriteByte(p.s[p.i])
			p.i++
		}
		if p.i < len(p.s) {
			p.i++
		} else {
			*warnings = append(*warnings, fmt.Sprintf("parameter %q: the quoted value is not closed", name))
		}
		if q == '\'' {
			*warnings = append(*warnings, fmt.Sprintf("parameter %q is in single quotes, which HTTP does not know (RFC 9110 §5.6.4: a quoted-string takes \"); read without them", name))
		}
		return b.String()
	}
	return p.token()
}

// isTChar reports an RFC 9110 tchar, and the token68 characters "/", "+", "=" too.
func isTChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~/=", c) >= 0 && c != '\'' && c != '='
}
