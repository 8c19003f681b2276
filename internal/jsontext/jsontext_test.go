package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestCompact(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": [1, 2], "b" : "x y"}`: `{"a":[1,2],"b":"x y"}`,
		"  7 \n":                     "7",
		` "s" `:                      `"s"`,
		" not json \n":               "not json",
		"":                           "",
	} {
		if got := Compact([]byte(in)); got != want {
			t.Errorf("Compact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIndent(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{`{"a":[1,{}],"b":"\u001b"}`, "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": \"\\u001b\"\n}", true},
		{" [] \n", "[]", true},
		{"", "", false},
		{" \n", "", false},
		{" {oops \n", "{oops", false},
	} {
		got, ok := Indent([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("Indent(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
		if p := Pretty([]byte(c.in)); p != c.want {
			t.Errorf("Pretty(%q) = %q, want %q", c.in, p, c.want)
		}
	}
}

// TestIndentPrefixAsIndent: on whole JSON documents IndentPrefix writes what json.Indent
// writes; on a prefix it stops at the cut, and after maxLines lines it says how far it got.
func TestIndentPrefixAsIndent(t *testing.T) {
	for _, doc := range []string{
		`{"a":[1,2,{"b":null,"c":"x,{}[]:\"y"}],"d":{},"e":[],"f":true}`,
		`[ {"k" : "v"} , 3.5e2 , [ [ ] ] ]`,
		`"just a string"`,
		`{"nested":{"deeper":{"deepest":[{"x":1}]}}}`,
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(doc), "", "  "); err != nil {
			t.Fatal(err)
		}
		got, used := IndentPrefix([]byte(doc), 1000)
		if got != want.String() || used != len(doc) {
			t.Errorf("IndentPrefix(%s) = %q (%d bytes), want %q (%d)", doc, got, used, want.String(), len(doc))
		}
	}
	got, _ := IndentPrefix([]byte(`{"a":[1,2`), 1000)
	if got != "{\n  \"a\": [\n    1,\n    2" {
		t.Errorf("a cut prefix: %q", got)
	}
	doc := []byte(`{"a":1,"b":2,"c":3,"d":4}`)
	got, used := IndentPrefix(doc, 3)
	if strings.Count(got, "\n") != 2 || used >= len(doc) || !strings.HasPrefix(string(doc[used:]), `"b"`) {
		t.Errorf("maxLines 3: %q, used %d", got, used)
	}
}

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{
		"Adds numbers.":                  "Adds numbers.",
		"  Adds numbers. \n  More text.": "Adds numbers. …",
		"\n\nAfter blank lines\nx":       "After blank lines …",
		"":                               "",
	} {
		if got := FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 entries"}, {1, "1 entry"}, {2, "2 entries"}, {-1, "-1 entries"}} {
		if got := Count(c.n, "entry", "entries"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// WriteIndent writes what Indent returns, for JSON and for text that is not.
func TestWriteIndentMatchesIndent(t *testing.T) {
	for _, in := range []string{`{"a":[1,{"b":"x\"y"}],"c":{}}`, "  [1,2,[]]\n", `not json {`, ``, strings.Repeat(`{"k":[`, 50) + strings.Repeat(`]}`, 50)} {
		want, wantOK := Indent([]byte(in))
		var b strings.Builder
		ok, err := WriteIndent(&b, []byte(in))
		if err != nil || ok != wantOK || b.String() != want {
			t.Errorf("%q: wrote %q, %v, %v; Indent gives %q, %v", in, b.String(), ok, err, want, wantOK)
		}
	}
}
