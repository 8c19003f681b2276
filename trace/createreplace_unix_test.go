//go:build unix

package trace_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestCreateReplacesNeverFollows: Create over a symlink (a file planted in a shared
// directory, pointing at a file the user can read) replaces the link with a new trace of
// mode 0600 and leaves the link's target untouched; Create over a 0644 file leaves a 0600
// trace, not the old file's mode.
func TestCreateReplacesNeverFollows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.txt")
	if err := os.WriteFile(victim, []byte("victim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(victim, 0o644)
	link := filepath.Join(dir, "planted.jsonl")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old.jsonl")
	if err := os.WriteFile(old, []byte("an older trace\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(old, 0o644)
	for _, p := range []string{link, old} {
		w, err := trace.Create(p, trace.Header{Tool: "t"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(mcpclient.Event{Seq: 1, Time: time.Now(), Dir: mcpclient.Stderr, Raw: []byte("secret\n"), Size: 7})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, %v; want a regular file of mode 0600", p, st.Mode(), err)
		}
		if tr := openTrace(t, p); tr.Header.Tool != "t" {
			t.Errorf("%s: header %+v", p, tr.Header)
		}
	}
	b, _ := os.ReadFile(victim)
	st, _ := os.Stat(victim)
	if string(b) != "victim\n" || st.Mode().Perm() != 0o644 {
		t.Errorf("the link's target was written: %q, mode %v", b, st.Mode())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("the directory holds %d entries, want 3 (no temporary left)", len(ents))
	}
}
