package ui

import (
	"flag"
	"os"
	"strings"
	"testing"
)

const (
	keysBegin = "<!-- keys:begin -->"
	keysEnd   = "<!-- keys:end -->"
)

// TestREADMEKeyTable: the key table in ../README.md (between the keys:begin and keys:end
// markers) is the one generated from the key map; -update rewrites it.
func TestREADMEKeyTable(t *testing.T) {
	const path = "../README.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i, j := strings.Index(readme, keysBegin+"\n"), strings.Index(readme, keysEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %s … %s section", path, keysBegin, keysEnd)
	}
	i += len(keysBegin) + 1
	want := keyTable(DefaultKeyMap())
	if got := readme[i:j]; got != want {
		if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
			if err := os.WriteFile(path, []byte(readme[:i]+want+readme[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the README's key table differs from the key map; run go test ./ui -run TestREADMEKeyTable -update\n%s", lineDiff(got, want))
	}
}

// lineDiff lists the lines only in got (-) and only in want (+), in order.
func lineDiff(got, want string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	g, w := in(got), in(want)
	var b strings.Builder
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

// TestKeyTableCoversKeyMap: every binding of every group is a row of the table.
func TestKeyTableCoversKeyMap(t *testing.T) {
	k := DefaultKeyMap()
	rows, n := strings.Count(keyTable(k), "\n")-2, 0
	for _, g := range k.groups() {
		n += len(g.keys)
	}
	if rows != n {
		t.Fatalf("%d rows for %d bindings", rows, n)
	}
}
