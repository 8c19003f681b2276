package shellwords

import (
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// Quoting is a command-line syntax: how a line the user pastes into a shell is written
// (Join) and read back (Split). The zero value is POSIX.
type Quoting int

const (
	// POSIX is sh's syntax (Linux, macOS): Join and Split of this package.
	POSIX Quoting = iota
	// Windows is a cmd.exe line whose words the program splits by CommandLineToArgvW's
	// rules: JoinWindows and SplitWindows.
	Windows
)

// For is the quoting of the OS named by goos (a runtime.GOOS value): Windows for
// "windows", POSIX for every other.
func For(goos string) Quoting {
	if goos == "windows" {
		return Windows
	}
	return POSIX
}

// Join writes argv in q's syntax (Join or JoinWindows).
func (q Quoting) Join(argv []string) string {
	if q == Windows {
		return JoinWindows(argv)
	}
	return Join(argv)
}

// Split reads line in q's syntax (Split, or SplitWindows with the process environment),
// with the errors of those.
func (q Quoting) Split(line string) ([]string, error) {
	if q == Windows {
		return SplitWindows(line, os.LookupEnv)
	}
	return Split(line)
}

// Var is a reference to the environment variable name as the shell expands it inside
// double quotes: $NAME (POSIX) or %NAME% (cmd.exe). name must be a plain identifier
// ([A-Za-z0-9_]); the caller checks.
func (q Quoting) Var(name string) string {
	if q == Windows {
		return "%" + name + "%"
	}
	return "$" + name
}

// JoinWindows writes argv as a cmd.exe command line: cmd passes the line on as it reads it,
// and the program splits it by the rules of CommandLineToArgvW and the C runtime (backslashes
// escape only a quote; 2n backslashes before a quote are n and the quote delimits, 2n+1 are n
// and a literal quote). Each word takes the first form that fits:
//
//   - bare: letters, digits and - _ . / \ : = + (and not a word that starts with - and holds
//     . or :, which PowerShell can pass split in two, -foo .bar);
//   - in double quotes, as is: no ", $, `, %, control character or typographic quote (which
//     PowerShell takes for a quote), and no trailing backslash;
//   - otherwise escaped for the program as above, with cmd's ^ before each of ^ & | < > % that
//     cmd would see outside quotes; when a % would sit inside cmd's quotes (where ^ is
//     literal) or the word leaves cmd's quotes open, every " and metacharacter of the word
//     gets a ^, so cmd sees no quotes at all. A % is always ^%: cmd expands %NAME% in an
//     interactive line, but not %NAME^%.
//
// Every word but a line break or NUL, which no cmd.exe line holds, reads back exactly in
// cmd.exe with delayed expansion off (its default), and by SplitWindows. The first two forms
// also read the same in PowerShell, 5.1 and 7.3+, except an empty word, which 5.1 drops, and a
// quoted program, which PowerShell runs only after &. The third is cmd.exe's only: no spelling
// of an argument with a " serves both PowerShells (5.1 passes embedded quotes unescaped,
// 7.3+ escapes them), and $ and ` are PowerShell's expansion and escape characters.
func JoinWindows(argv []string) string {
	parts := make([]string, 0, len(argv))
	for _, a := range argv {
		switch {
		case bareWindows(a):
			parts = append(parts, a)
		case quotableWindows(a):
			parts = append(parts, `"`+a+`"`)
		default:
			parts = append(parts, cmdEscape(argvEscape(a)))
		}
	}
	return strings.Join(parts, " ")
}

// bareWindows reports whether a needs no quotes in cmd.exe, PowerShell or
// CommandLineToArgvW.
func bareWindows(a string) bool {
	if a == "" || a[0] == '-' && strings.ContainsAny(a, ".:") {
		return false
	}
	for i := 0; i < len(a); i++ {
		c := a[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(`-_./\:=+`, c) >= 0) {
			return false
		}
	}
	return true
}

// quotableWindows reports whether "a" reads as a in cmd.exe, PowerShell and
// CommandLineToArgvW alike.
func quotableWindows(a string) bool {
	if strings.HasSuffix(a, `\`) {
		return false
	}
	for _, r := range a {
		switch {
		case r == '"', r == '$', r == '`', r == '%', r < 0x20, r == 0x7f, r == utf8.RuneError:
			return false
		case r >= '\u2018' && r <= '\u201e': // ‘ ’ ‚ ‛ “ ” „: PowerShell's quotes too
			return false
		}
	}
	return true
}

// argvEscape writes a so that CommandLineToArgvW reads it back: in quotes when it holds a
// space or tab or is empty, each " as \", the backslashes before a " (or before the closing
// quote) doubled.
func argvEscape(a string) string {
	quote := a == "" || strings.ContainsAny(a, " \t")
	var b strings.Builder
	if quote {
		b.WriteByte('"')
	}
	slashes := 0
	for i := 0; i < len(a); i++ {
		c := a[i]
		switch c {
		case '\\':
			slashes++
		case '"':
			b.WriteString(strings.Repeat(`\`, slashes+1))
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(c)
	}
	if quote {
		b.WriteString(strings.Repeat(`\`, slashes))
		b.WriteByte('"')
	}
	return b.String()
}

// cmdMeta are the characters cmd.exe acts on outside quotes in a simple command line.
const cmdMeta = `^&|<>%`

// cmdEscape puts a ^ before each cmd metacharacter of s that cmd sees outside quotes (cmd
// toggles quoting at every ", backslash or not). It escapes every " as well when a % sits
// inside cmd's quotes or s leaves them open, so the next word starts outside quotes.
func cmdEscape(s string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			in = !in
		case in && c == '%':
			return caretAll(s)
		case !in && strings.IndexByte(cmdMeta, c) >= 0:
			b.WriteByte('^')
		}
		b.WriteByte(c)
	}
	if in {
		return caretAll(s)
	}
	return b.String()
}

// caretAll puts a ^ before every " and cmd metacharacter of s.
func caretAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || strings.IndexByte(cmdMeta, s[i]) >= 0 {
			b.WriteByte('^')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// SplitWindows reads a command line as cmd.exe and the program it starts would: %NAME% is
// replaced by the variable's value when lookupEnv knows it (nil expands nothing; an unknown
// one stays as written, as in an interactive cmd); then ^ escapes the next character outside
// quotes; then the words are split by CommandLineToArgvW's rules (see JoinWindows; "" inside
// quotes is a literal quote that ends the quoting, as CommandLineToArgvW and Go's os.Args do).
// Errors: an & | < or > outside quotes (cmd would run a second command or redirect; Split runs
// none), and ErrEmpty for a line of no words.
func SplitWindows(line string, lookupEnv func(string) (string, bool)) ([]string, error) {
	s, err := cmdUnescape(expandPercent(line, lookupEnv))
	if err != nil {
		return nil, err
	}
	argv := commandLineToArgv(s)
	if len(argv) == 0 {
		return nil, ErrEmpty
	}
	return argv, nil
}

// expandPercent replaces %NAME% as an interactive cmd.exe line does: a name lookupEnv does
// not know leaves %NAME as written and the closing % may open the next reference.
func expandPercent(s string, lookupEnv func(string) (string, bool)) string {
	if lookupEnv == nil || !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		name := s[i+1 : i+1+j]
		if v, ok := lookupEnv(name); ok && name != "" {
			b.WriteString(s[:i])
			b.WriteString(v)
			s = s[i+j+2:]
			continue
		}
		b.WriteString(s[:i+1+j])
		s = s[i+1+j:]
	}
}

// cmdUnescape drops the ^ that escapes a character outside quotes (inside, ^ is literal); an
// escaped " does not open quotes. The quotes themselves stay for CommandLineToArgvW.
func cmdUnescape(s string) (string, error) {
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			in = !in
		case in:
		case c == '^':
			i++
			if i == len(s) {
				return b.String(), nil // cmd would ask for more; nothing follows here
			}
			c = s[i]
		case c == '&' || c == '|' || c == '<' || c == '>':
			return "", fmt.Errorf("cannot read the command line: %c outside quotes is a cmd.exe operator (write ^%c or put it in quotes)", c, c)
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}

// commandLineToArgv splits s into words by CommandLineToArgvW's rules, the program's name
// included (which CommandLineToArgvW reads without backslash escapes: names hold none).
func commandLineToArgv(s string) []string {
	var argv []string
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			return argv
		}
		var b []byte
		in := false
		slashes := 0
	word:
		for ; i < len(s); i++ {
			c := s[i]
			switch {
			case c == '\\':
				slashes++
				continue
			case c == '"':
				b = append(b, strings.Repeat(`\`, slashes/2)...)
				if slashes%2 == 1 {
					b = append(b, '"')
				} else {
					if in && i+1 < len(s) && s[i+1] == '"' {
						b = append(b, '"')
						i++
					}
					in = !in
				}
				slashes = 0
				continue
			}
			b = append(b, strings.Repeat(`\`, slashes)...)
			slashes = 0
			if !in && (c == ' ' || c == '\t') {
				break word
			}
			b = append(b, c)
		}
		b = append(b, strings.Repeat(`\`, slashes)...)
		argv = append(argv, string(b))
	}
}
