package platform

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// writeClose writes s to f and closes it.
func writeClose(t *testing.T, f *os.File, s string) {
	t.Helper()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCreatePrivateReplacesFile: replace puts a new file at path (the old one's content
// gone, no temporary file left beside it); without replace an existing file is refused
// with fs.ErrExist and left as it was.
func TestCreatePrivateReplacesFile(t *testing.T) {
	dir := tempDir(t)
	p := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(p, []byte("old content, longer than the new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := CreatePrivate(p, false); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("CreatePrivate(existing, false): %v, want fs.ErrExist", err)
	}
	f, err := CreatePrivate(p, true)
	if err != nil {
		t.Fatal(err)
	}
	writeClose(t, f, "new\n")
	if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Fatalf("%s holds %q, want the new file", p, b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("the directory holds %d entries, want 1 (no temporary left)", len(ents))
	}
	f, err = CreatePrivate(filepath.Join(dir, "fresh.jsonl"), false)
	if err != nil {
		t.Fatal(err)
	}
	writeClose(t, f, "x")
}

// TestCreatePrivateIntoDirectory: a directory at path is never replaced.
func TestCreatePrivateIntoDirectory(t *testing.T) {
	dir := tempDir(t)
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o700); err != nil {
		t.Fatal(err)
	}
	if f, err := CreatePrivate(filepath.Join(dir, "d"), true); err == nil {
		f.Close()
		t.Fatal("a directory was replaced by a file")
	}
	if st, err := os.Stat(filepath.Join(dir, "d")); err != nil || !st.IsDir() {
		t.Fatalf("the directory is gone: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("the directory holds %d entries, want 1 (no temporary left)", len(ents))
	}
}

// TestOpenAppendPrivate appends to an existing file and creates a missing one.
func TestOpenAppendPrivate(t *testing.T) {
	p := filepath.Join(tempDir(t), "x.log")
	for _, line := range []string{"one\n", "two\n"} {
		f, err := OpenAppendPrivate(p)
		if err != nil {
			t.Fatal(err)
		}
		writeClose(t, f, line)
	}
	if b, _ := os.ReadFile(p); string(b) != "one\ntwo\n" {
		t.Fatalf("the log holds %q", b)
	}
}
