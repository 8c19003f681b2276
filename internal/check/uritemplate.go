package check

import (
	"fmt"
	"strings"
)

// ValidURITemplate reports whether t is a URI Template of RFC 6570 (any level): literals
// without the characters §2.1 forbids and with valid percent-encodings, and expressions
// "{" [operator] varspec *("," varspec) "}" whose operator is one of + # . / ; ? & (the
// reserved = , ! @ | are not), whose variable names are letters, digits, "_", percent
// encodings and inner dots, with an optional ":N" prefix (1-9999) or "*" explode. The
// error names the first problem and its byte offset.
func ValidURITemplate(t string) error {
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == '{':
			end := strings.IndexByte(t[i:], '}')
			if end < 0 {
				return fmt.Errorf("uriTemplate %q: expression at byte %d has no closing }", t, i)
			}
			if err := validExpression(t[i+1 : i+end]); err != nil {
				return fmt.Errorf("uriTemplate %q: expression at byte %d: %v", t, i, err)
			}
			i += end + 1
		case c == '}':
			return fmt.Errorf("uriTemplate %q: } at byte %d closes no expression", t, i)
		case c == '%':
			if !pctEncoded(t[i:]) {
				return fmt.Errorf("uriTemplate %q: %% at byte %d is not a percent-encoding", t, i)
			}
			i += 3
		case c <= 0x20 || c == 0x7f || strings.IndexByte("\"'<>\\^`|", c) >= 0:
			return fmt.Errorf("uriTemplate %q: byte %d (%q) may not appear in a literal", t, i, c)
		default:
			i++
		}
	}
	return nil
}

func pctEncoded(s string) bool {
	hex := func(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F' }
	return len(s) >= 3 && s[0] == '%' && hex(s[1]) && hex(s[2])
}

// validExpression checks the inside of one {…}.
func validExpression(e string) error {
	if e == "" {
		return fmt.Errorf("empty")
	}
	if strings.IndexByte("=,!@|", e[0]) >= 0 {
		return fmt.Errorf("operator %q is reserved (RFC 6570 §2.2)", e[0])
	}
	if strings.IndexByte("+#./;?&", e[0]) >= 0 {
		e = e[1:]
	}
	for _, spec := range strings.Split(e, ",") {
		if err := validVarspec(spec); err != nil {
			return err
		}
	}
	return nil
}

// validVarspec checks varname [":" max-length / "*"].
func validVarspec(v string) error {
	name, mod := v, ""
	if i := strings.IndexAny(v, ":*"); i >= 0 {
		name, mod = v[:i], v[i:]
	}
	if name == "" {
		return fmt.Errorf("a variable has no name")
	}
	if name[0] == '.' || name[len(name)-1] == '.' || strings.Contains(name, "..") {
		return fmt.Errorf("variable %q: dots only between name characters", name)
	}
	for i := 0; i < len(name); {
		c := name[i]
		switch {
		case c == '%':
			if !pctEncoded(name[i:]) {
				return fmt.Errorf("variable %q: %% is not a percent-encoding", name)
			}
			i += 3
		case c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			i++
		default:
			return fmt.Errorf("variable %q: %q is not allowed in a variable name", name, c)
		}
	}
	switch {
	case mod == "" || mod == "*":
	case mod[0] == ':':
		n := mod[1:]
		if n == "" || len(n) > 4 || n[0] == '0' || strings.Trim(n, "0123456789") != "" {
			return fmt.Errorf("variable %q: prefix %q is not 1-9999", name, mod)
		}
	default:
		return fmt.Errorf("variable %q: modifier %q", name, mod)
	}
	return nil
}
