package shellwords

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestJoinWindowsForms(t *testing.T) {
	for _, tc := range []struct {
		word, want string
	}{
		{"node", `node`},
		{`C:\dir\`, `C:\dir\`},
		{"--port=3", `--port=3`},
		{"", `""`},
		{"a b", `"a b"`},
		{`C:\Program Files\nodejs\node.exe`, `"C:\Program Files\nodejs\node.exe"`},
		{"@modelcontextprotocol/server-everything", `"@modelcontextprotocol/server-everything"`},
		{"-foo.bar", `"-foo.bar"`},
		{"a&b|c<d>e^f", `"a&b|c<d>e^f"`},
		{"it's", `"it's"`},
		{"héllo wörld", `"héllo wörld"`},
		// Not for PowerShell: cmd.exe's spelling.
		{`{"a":"b c"}`, `"{\"a\":\"b c\"}"`},
		{`{"a":"b"}`, `{\"a\":\"b\"}`},
		{`C:\My Dir\`, `"C:\My Dir\\"`},
		{`a\"b`, `a\\\^"b`},
		{`say "hi"`, `"say \"hi\""`},
		{"%PATH%", `^%PATH^%`},
		{"100% & more", `^"100^% ^& more^"`},
		{`x"&y`, `x\^"^&y`},
		{"$HOME", `$HOME`},
		{"“smart”", `“smart”`},
	} {
		if got := JoinWindows([]string{tc.word}); got != tc.want {
			t.Errorf("JoinWindows(%q) = %s, want %s", tc.word, got, tc.want)
		}
	}
}

// TestSplitWindowsReadsJoinBack: every word JoinWindows writes comes back whole, with %PATH%
// defined (cmd would expand it) and with words that leave cmd's quotes open.
func TestSplitWindowsReadsJoinBack(t *testing.T) {
	env := func(k string) (string, bool) {
		v, ok := map[string]string{"PATH": `C:\Windows`, "A": "x", "z": "zz"}[k]
		return v, ok
	}
	for _, argv := range [][]string{
		{"npx", "-y", "@modelcontextprotocol/server-everything"},
		{`C:\Program Files\nodejs\node.exe`, `C:\My Dir\`, `\\server\share\`, `trailing\\`},
		{"mcp-inspect", "call", "echo", "--args", `{"text":"a \"quoted\" word & more"}`, "--", "node", "srv.js"},
		{"x", "", " ", "\t", `"`, `""`, `\`, `\"`, `\\"`, `a"b c`, "%PATH%", "%A%%z%", "50%", "%", "%%"},
		{"^", "^^", "&", "|", "<>", "a^&b", `"&"`, `"%A%"`, "(x)", "!x!", "$env:PATH", "`t", "'q'"},
		{"日本語", "‘’‚‛“”„", "\u00a0nbsp", "tab\there"},
	} {
		line := JoinWindows(argv)
		got, err := SplitWindows(line, env)
		if err != nil {
			t.Fatalf("SplitWindows(%s): %v", line, err)
		}
		if !slices.Equal(got, argv) {
			t.Fatalf("SplitWindows(JoinWindows(%q)) = %q\nline: %s", argv, got, line)
		}
	}
}

func TestSplitWindowsReadsJoinBackRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune(" \t\"\\%^&|<>()!$`'a1:=-.,é“")
	// Every name is defined but those ending in ^, which is how JoinWindows keeps % literal.
	env := func(k string) (string, bool) { return "EXPANDED", !strings.HasSuffix(k, "^") }
	for n := 0; n < 5000; n++ {
		argv := make([]string, 1+r.IntN(4))
		for i := range argv {
			w := make([]rune, r.IntN(8))
			for j := range w {
				w[j] = alphabet[r.IntN(len(alphabet))]
			}
			argv[i] = string(w)
		}
		line := JoinWindows(argv)
		got, err := SplitWindows(line, env)
		if err != nil || !slices.Equal(got, argv) {
			t.Fatalf("JoinWindows(%q) = %s, read back as %q (%v)", argv, line, got, err)
		}
	}
}

// TestSplitWindowsAsCmd reads lines a user types, as cmd.exe and CommandLineToArgvW would.
func TestSplitWindowsAsCmd(t *testing.T) {
	env := func(k string) (string, bool) {
		v, ok := map[string]string{"NAME": "v a", "EMPTY": ""}[k]
		return v, ok
	}
	for _, tc := range []struct {
		line string
		want []string
	}{
		{`node  srv.js	--x`, []string{"node", "srv.js", "--x"}},
		{`a "b c" d"e f"g`, []string{"a", "b c", "de fg"}},
		{`a\\b \\"c d" e\"f`, []string{`a\\b`, `\c d`, `e"f`}},
		// "" inside quotes is a quote and ends the quoting: the next " opens it again.
		{`"a""b" c`, []string{`a"b c`}},
		{`"" x`, []string{"", "x"}},
		{`%NAME% "%NAME%" %UNSET% %EMPTY%.`, []string{"v", "a", "v a", "%UNSET%", "."}},
		// An unknown name's closing % opens the next reference.
		{`%UNSET%NAME%`, []string{"%UNSETv", "a"}},
		// ^" hides the quote from cmd only: the program still sees it.
		{`a^&b "c^d" ^"e f^"`, []string{"a&b", "c^d", "e f"}},
		{`x ^`, []string{"x"}},
	} {
		got, err := SplitWindows(tc.line, env)
		if err != nil {
			t.Fatalf("SplitWindows(%s): %v", tc.line, err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("SplitWindows(%s) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestSplitWindowsErrors(t *testing.T) {
	if _, err := SplitWindows(" \t ", nil); !errors.Is(err, ErrEmpty) {
		t.Fatalf("blank line: %v", err)
	}
	for _, line := range []string{"a & b", "a | b", "a > out", "a <in"} {
		_, err := SplitWindows(line, nil)
		if err == nil || !strings.HasPrefix(err.Error(), "cannot read the command line: ") || !strings.Contains(err.Error(), "cmd.exe operator") {
			t.Errorf("SplitWindows(%s): %v", line, err)
		}
	}
	if got, err := SplitWindows(`"a & b"`, nil); err != nil || !slices.Equal(got, []string{"a & b"}) {
		t.Fatalf("an operator in quotes: %q %v", got, err)
	}
}

func TestQuotingFor(t *testing.T) {
	argv := []string{"echo", "a b", "it's"}
	if q := For("linux"); q != POSIX || q.Join(argv) != Join(argv) || q.Var("KEY") != "$KEY" {
		t.Fatalf("linux: %v %s %s", q, q.Join(argv), q.Var("KEY"))
	}
	if q := For("darwin"); q != POSIX {
		t.Fatalf("darwin: %v", q)
	}
	q := For("windows")
	if q != Windows || q.Join(argv) != `echo "a b" "it's"` || q.Var("KEY") != "%KEY%" {
		t.Fatalf("windows: %v %s %s", q, q.Join(argv), q.Var("KEY"))
	}
	got, err := q.Split(`echo "a b" 'c'`)
	if err != nil || !slices.Equal(got, []string{"echo", "a b", "'c'"}) {
		t.Fatalf("windows Split: %q %v", got, err)
	}
	if got, err := POSIX.Split(`echo 'c d'`); err != nil || !slices.Equal(got, []string{"echo", "c d"}) {
		t.Fatalf("POSIX Split: %q %v", got, err)
	}
}
