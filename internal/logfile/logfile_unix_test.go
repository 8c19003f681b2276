//go:build unix

package logfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenNeverFollows: a symlink planted where the log goes is refused and its target
// is not written; an existing log of mode 0644 is appended to and made 0600.
func TestOpenNeverFollows(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("victim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "mcp-inspect.log")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	if w, err := Open(link, MaxSize); err == nil {
		w.Write([]byte("a log line\n"))
		w.Close()
		t.Error("the log was opened through a symlink")
	}
	if b, _ := os.ReadFile(victim); string(b) != "victim\n" {
		t.Fatalf("the link's target was written: %q", b)
	}

	old := filepath.Join(dir, "old.log")
	if err := os.WriteFile(old, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(old, 0o644)
	w, err := Open(old, MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("new\n"))
	w.Close()
	st, _ := os.Stat(old)
	if b, _ := os.ReadFile(old); string(b) != "old\nnew\n" || st.Mode().Perm() != 0o600 {
		t.Fatalf("the old log: %q, mode %v; want appended to and 0600", b, st.Mode())
	}
}
