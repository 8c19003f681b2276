package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// body returns n lines of statements, each ending in a newline.
func body(n int) string { return strings.Repeat("\t_ = 0\n", n) }

func TestCheckFile(t *testing.T) {
	lim := limits{maxFunc: 5, maxFile: 20}
	for _, tc := range []struct {
		name, path, src string
		want            []string
	}{
		{"short func", "a.go", "package a\n\nfunc f() {\n" + body(1) + "}\n", nil},
		{"func at the limit", "a.go", "package a\n\nfunc f() {\n" + body(3) + "}\n", nil},
		{"func one over", "a.go", "package a\n\nfunc f() {\n" + body(4) + "}\n", []string{"a.go:3: func f is 6 lines (max 5)"}},
		{"doc comment not counted", "a.go", "package a\n\n// f does\n// things.\nfunc f() {\n" + body(3) + "}\n", nil},
		{"signature over lines counts", "a.go", "package a\n\nfunc f(\n\ta int,\n\tb int,\n) {\n" + body(1) + "}\n", []string{"a.go:3: func f is 6 lines (max 5)"}},
		{"pointer method", "a.go", "package a\n\ntype T struct{}\n\nfunc (t *T) M() {\n" + body(9) + "}\n", []string{"a.go:5: func T.M is 11 lines (max 5)"}},
		{"generic method", "a.go", "package a\n\ntype T[K, V any] struct{}\n\nfunc (t T[K, V]) M() {\n" + body(4) + "}\n", []string{"a.go:5: func T.M is 6 lines (max 5)"}},
		{"closure inside counts for its function", "a.go", "package a\n\nfunc f() {\n\tg := func() {\n" + body(2) + "\t}\n\tg()\n}\n", []string{"a.go:3: func f is 7 lines (max 5)"}},
		{"declaration without body", "a.go", "package a\n\nfunc f()\n", nil},
		{"long func in a test file is fine", "a_test.go", "package a\n\nfunc f() {\n" + body(10) + "}\n", nil},
		{"long file", "a.go", "package a\n" + strings.Repeat("\n", 20), []string{"a.go:1: file is 21 lines (max 20)"}},
		{"long test file", "a_test.go", "package a\n" + strings.Repeat("// x\n", 20), []string{"a_test.go:1: file is 21 lines (max 20)"}},
		{"file at the limit, no final newline", "a.go", "package a" + strings.Repeat("\n", 19) + "// end", nil},
		{"file over, no final newline", "a.go", "package a" + strings.Repeat("\n", 20) + "// end", []string{"a.go:1: file is 21 lines (max 20)"}},
		{"file at the limit, func over", "b.go", "package a\n\nfunc (T) Long() {\n" + body(16) + "}\n", []string{"b.go:3: func T.Long is 18 lines (max 5)"}},
		{"file and func over", "b.go", "package a\n\nfunc (T) Long() {\n" + body(17) + "}\n", []string{"b.go:1: file is 21 lines (max 20)", "b.go:3: func T.Long is 19 lines (max 5)"}},
	} {
		vs, err := checkFile(tc.path, []byte(tc.src), lim)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var got []string
		for _, v := range vs {
			got = append(got, v.String())
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestCheckFileParams: parameters are counted by name, the receiver and the results are
// not, and test files are exempt.
func TestCheckFileParams(t *testing.T) {
	lim := limits{maxParams: 3}
	for _, tc := range []struct {
		name, path, src string
		want            []string
	}{
		{"at the limit", "a.go", "package a\n\nfunc f(a, b int, c string) {}\n", nil},
		{"one over, grouped names", "a.go", "package a\n\nfunc f(a, b, c int, d string) {}\n", []string{"a.go:3: func f takes 4 parameters (max 3)"}},
		{"unnamed parameters count", "a.go", "package a\n\nfunc f(int, int, string, bool) {}\n", []string{"a.go:3: func f takes 4 parameters (max 3)"}},
		{"receiver and results do not", "a.go", "package a\n\ntype T struct{}\n\nfunc (t T) M(a, b, c int) (x, y, z, w int) { return }\n", nil},
		{"method over", "a.go", "package a\n\ntype T struct{}\n\nfunc (t *T) M(a, b, c, d int) {}\n", []string{"a.go:5: func T.M takes 4 parameters (max 3)"}},
		{"variadic counts one", "a.go", "package a\n\nfunc f(a, b int, c ...string) {}\n", nil},
		{"test file exempt", "a_test.go", "package a\n\nfunc f(a, b, c, d int) {}\n", nil},
	} {
		vs, err := checkFile(tc.path, []byte(tc.src), lim)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var got []string
		for _, v := range vs {
			got = append(got, v.String())
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestCheckFileLimitsOff(t *testing.T) {
	vs, err := checkFile("a.go", []byte("package a\n\nfunc f() {\n"+body(200)+"}\n"), limits{})
	if err != nil || len(vs) != 0 {
		t.Errorf("limits 0: %v %v", vs, err)
	}
}

func TestCheckFileParseError(t *testing.T) {
	if _, err := checkFile("a.go", []byte("package a\nfunc {"), limits{maxFunc: 5}); err == nil {
		t.Error("a file that does not parse gave no error")
	}
}

// TestRun: the command walks its directories (skipping testdata), prints one line per
// violation and exits 1; 0 when clean; 2 for a usage error.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("p/ok.go", "package p\n\nfunc f() {}\n")
	write("p/sub/long.go", "package sub\n\nfunc g() {\n"+body(5)+"}\n")
	write("p/testdata/ignored.go", "package x\n\nfunc h() {\n"+body(50)+"}\n")
	write("p/notes.txt", strings.Repeat("x\n", 50))

	var out, errb bytes.Buffer
	code := run([]string{"-max-func", "5", "-max-file", "30", filepath.Join(dir, "p")}, &out, &errb)
	want := filepath.Join(dir, "p", "sub", "long.go") + ":3: func g is 7 lines (max 5)\n"
	if code != 1 || out.String() != want {
		t.Errorf("code %d, stdout %q (want %q), stderr %q", code, out.String(), want, errb.String())
	}
	out.Reset()
	if code := run([]string{"-max-func", "7", filepath.Join(dir, "p")}, &out, &errb); code != 0 || out.Len() != 0 {
		t.Errorf("clean tree: code %d, stdout %q", code, out.String())
	}
	errb.Reset()
	if code := run(nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage") {
		t.Errorf("no arguments: code %d, stderr %q", code, errb.String())
	}
	if code := run([]string{filepath.Join(dir, "missing")}, &out, &errb); code != 2 {
		t.Errorf("missing directory: code %d", code)
	}
}
