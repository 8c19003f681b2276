//go:build unix

package ui

import (
	"os"
	"path/filepath"
	"testing"
)

// TestClipboardFileNeverFollows: a symlink planted at clipboard.txt is replaced by a new
// file of mode 0600 holding the copy; the link's target is not written.
func TestClipboardFileNeverFollows(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(victim, []byte("victim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, clipboardFile)); err != nil {
		t.Fatal(err)
	}
	path, err := writeClipboardFile(dir, "the copy")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "victim\n" {
		t.Fatalf("the link's target was written: %q", b)
	}
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v, %v; want a regular file of mode 0600", path, st.Mode(), err)
	}
	if b, _ := os.ReadFile(path); string(b) != "the copy" {
		t.Fatalf("%s holds %q", path, b)
	}
}
