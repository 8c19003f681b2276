package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// B23 strings from cases.md.
const (
	b23Desc   = "Fetch headers\u001b[2J\u001b]0;owned\u0007"
	b23Result = "Server: Apache\u001b[2J\u001b]0;PWNED\u0007 \u001b]8;;http://attacker.invalid/\u0007click\u001b]8;;\u0007 \u001b[31mred\u001b[0m \u202eevil\u202c"
)

// AssertNoRaw fails when s holds a byte or rune a terminal would interpret.
func assertNoRaw(t *testing.T, s string, allowNewline bool) {
	t.Helper()
	for i, r := range s {
		if _, n := utf8.DecodeRuneInString(s[i:]); r == utf8.RuneError && n == 1 { // U+FFFD itself is text
			t.Fatalf("invalid UTF-8 at %d in %q", i, s)
		}
		if r == '\n' && allowNewline {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || Dangerous(r) {
			t.Fatalf("raw control %U at %d in %q", r, i, s)
		}
	}
}

func TestB23(t *testing.T) {
	got := OneLine(b23Desc)
	assertNoRaw(t, got, false)
	if want := `Fetch headers\x1b[2J\x1b]0;owned\x07`; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
	got = Block(b23Result)
	assertNoRaw(t, got, true)
	for _, want := range []string{`\x1b[2J`, `\x1b]8;;http://attacker.invalid/\x07`, `\x1b[31mred\x1b[0m`, "<U+202E>evil<U+202C>"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
	if !Contains(b23Result, Text) || Contains("plain text\nok", Text) {
		t.Error("Contains is wrong")
	}
}

func TestModes(t *testing.T) {
	in := "a\tb\nc\r\x00\x7f"
	if got, want := Block(in), "a    b\nc\\r\\x00\\x7f"; got != want {
		t.Errorf("Block: got %q want %q", got, want)
	}
	if got, want := OneLine(in), `a\tb\nc\r\x00\x7f`; got != want {
		t.Errorf("OneLine: got %q want %q", got, want)
	}
}

func TestUnicode(t *testing.T) {
	cases := map[string]string{
		"héllo 世界 👩\u200d💻":  "héllo 世界 👩<U+200D>💻", // ZWJ: widths differ between terminals and tmux
		"a\u0085b":           "a<U+0085>b",          // C1 NEL
		"\u2066x\u2069":      "<U+2066>x<U+2069>",
		"zero\u200bwidth":    "zero<U+200B>width",
		"\ufeffbom":          "<U+FEFF>bom",
		"tag\U000E0041":      "tag<U+E0041>",
		"line\u2028sep":      "line<U+2028>sep",
		"bad\xc7utf8\xff":    "bad<C7>utf8<FF>",
		"\u200e\u200f\u061c": "<U+200E><U+200F><U+061C>",
	}
	for in, want := range cases {
		got := OneLine(in)
		if got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
		assertNoRaw(t, got, false)
	}
}

func TestRaw(t *testing.T) {
	raw := []byte("{\"a\":\"\x1b[2J\xc7\"}\r\n")
	var b strings.Builder
	breaks := 0
	Raw(raw, []int{3}, func(text string, tok Token) {
		switch tok {
		case Break:
			breaks++
			b.WriteString("|")
		default:
			b.WriteString(text)
		}
	})
	if got, want := b.String(), `{"a¦":"\x1b[2J<C7>"}\r\n|`; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
	if breaks != 1 {
		t.Fatalf("breaks = %d", breaks)
	}
	// A read boundary inside a multi-byte character keeps the character whole.
	b.Reset()
	Raw([]byte("é\n"), []int{1}, func(text string, _ Token) { b.WriteString(text) })
	if got, want := b.String(), `é¦\n`; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func FuzzString(f *testing.F) {
	f.Add(b23Result)
	f.Add("\xc7\x1b\u202e")
	f.Add("❤️ 1️⃣ 👍🏽 क्ष \u3164 🇯🇵 e\u0301 \u1100\u1161")
	f.Fuzz(func(t *testing.T, s string) {
		assertNoRaw(t, OneLine(s), false)
		assertNoRaw(t, Block(s), true)
		// The width the panes lay out with is the width every terminal draws: the grapheme
		// model (kitty, WezTerm, x/ansi) and the per-code-point one (tmux) agree.
		if out := OneLine(s); ansi.StringWidth(out) != TermWidth(out) {
			t.Errorf("OneLine(%q) = %q: grapheme width %d, per code point %d", s, out, ansi.StringWidth(out), TermWidth(out))
		}
		var raw strings.Builder
		Raw([]byte(s), nil, func(text string, _ Token) { raw.WriteString(text) })
		if out := raw.String(); ansi.StringWidth(out) != TermWidth(out) {
			t.Errorf("Raw(%q) = %q: grapheme width %d, per code point %d", s, out, ansi.StringWidth(out), TermWidth(out))
		}
	})
}

// Grapheme clusters terminals draw at different widths keep their first rune and show the
// others as escapes; characters that draw nothing are shown; clusters every terminal draws
// alike are kept whole (issue 26).
func TestWidthAmbiguousClusters(t *testing.T) {
	for in, want := range map[string]string{
		"❤️ ok":                     "❤<U+FE0F> ok",
		"1️⃣":                       "1<U+FE0F><U+20E3>",
		"👍🏽":                        "👍<U+1F3FD>",
		"क्ष":                       "क<U+094D>ष",
		"\u3164":                    "<U+3164>",
		"a\u115f\u1160b":            "a<U+115F><U+1160>b",
		"\uffa0\u2800":              "<U+FFA0><U+2800>",
		"🇯🇵 e\u0301 한 \u1100\u1161": "🇯🇵 e\u0301 한 \u1100\u1161",
		"👩\u200d💻":                  "👩<U+200D>💻",
	} {
		got := OneLine(in)
		if got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
		if ansi.StringWidth(got) != TermWidth(got) {
			t.Errorf("OneLine(%q) = %q: widths %d and %d", in, got, ansi.StringWidth(got), TermWidth(got))
		}
	}
}

// HasControls is exact: invalid UTF-8 alone (B05's EUC-KR bytes) and the line ending are
// not controls; ESC, C1, bidi overrides and invisible characters are.
func TestHasControls(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{"{\"text\":\"\xC7\xD1\xB1\xDB\"}\n", false},
		{"{\"a\":1}\r\n", false},
		{"{\"a\":\t1}\n", false},
		{"héllo 😀\n", false},
		{"a\x1b[2Jb\n", true},
		{"a\rb\n", true},
		{"a\x7fb", true},
		{"a\u0085b", true},
		{"a\u202eb", true},
		{"a\u200bb", true},
		{"\xC7\xD1\x1b", true},
	} {
		if got := HasControls([]byte(c.raw)); got != c.want {
			t.Errorf("HasControls(%q) = %v, want %v", c.raw, got, c.want)
		}
	}
}

func TestQuotePath(t *testing.T) {
	for in, want := range map[string]string{
		`C:\Users\ana\proj`: `"C:\Users\ana\proj"`,
		"/home/ana/my proj": `"/home/ana/my proj"`,
	} {
		if got := QuotePath(in); got != want {
			t.Errorf("QuotePath(%q) = %s, want %s", in, got, want)
		}
	}
	if got := QuotePath("/tmp/\x1b[31mred"); strings.Contains(got, "\x1b") {
		t.Errorf("QuotePath let an escape through: %q", got)
	}
}
