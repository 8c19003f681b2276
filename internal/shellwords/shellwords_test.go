package shellwords

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestJoinPlainWordsStayBare(t *testing.T) {
	if got := Join([]string{"node", "server.js", "--port=3"}); got != "node server.js --port=3" {
		t.Fatalf("Join = %q", got)
	}
}

func TestJoinQuotesSpecialWords(t *testing.T) {
	got := Join([]string{"echo", "", "a b", "it's", "$HOME", "x;y"})
	want := `echo '' 'a b' 'it'\''s' '$HOME' 'x;y'`
	if got != want {
		t.Fatalf("Join = %q, want %q", got, want)
	}
}

func TestSplitReadsJoinBack(t *testing.T) {
	for _, argv := range [][]string{
		{"a"},
		{"python", "-m", "srv", "--name", "it's a test"},
		{"x", "", "tab\there", "new\nline", "`cmd`", "*?[]", "~", "#c", `back\slash`, `"dq"`},
	} {
		got, err := Split(Join(argv))
		if err != nil {
			t.Fatalf("Split(Join(%q)): %v", argv, err)
		}
		if !slices.Equal(got, argv) {
			t.Fatalf("Split(Join(%q)) = %q", argv, got)
		}
	}
}

func TestSplitQuotesAndEnv(t *testing.T) {
	t.Setenv("SHELLWORDS_TEST", "v a")
	got, err := Split(`cmd "a b" 'c d' e\ f $SHELLWORDS_TEST`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"cmd", "a b", "c d", "e f", "v", "a"}
	if !slices.Equal(got, want) {
		t.Fatalf("Split = %q, want %q", got, want)
	}
}

func TestSplitErrors(t *testing.T) {
	if _, err := Split("   "); !errors.Is(err, ErrEmpty) || err.Error() != "the command line is empty" {
		t.Fatalf("empty line: %v", err)
	}
	_, err := Split(`cmd "unterminated`)
	if err == nil || !strings.HasPrefix(err.Error(), "cannot read the command line: ") {
		t.Fatalf("bad quote: %v", err)
	}
}
