package trace_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestCreateNewKeepsExistingFiles: CreateNew refuses a path that exists (a file, or a
// dangling symlink) with fs.ErrExist and leaves it as it was; a free path gets a trace.
func TestCreateNewKeepsExistingFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.jsonl")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{notes, dangling} {
		if w, err := trace.CreateNew(p, trace.Header{Tool: "t"}, nil); !errors.Is(err, fs.ErrExist) {
			if w != nil {
				w.Close()
			}
			t.Errorf("CreateNew(%s): %v, want fs.ErrExist", p, err)
		}
	}
	if b, _ := os.ReadFile(notes); string(b) != "notes\n" {
		t.Errorf("notes.txt now holds %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the symlink's target was created: %v", err)
	}
	w, err := trace.CreateNew(filepath.Join(dir, "new.jsonl"), trace.Header{Tool: "t"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if tr := openTrace(t, filepath.Join(dir, "new.jsonl")); tr.Header.Tool != "t" {
		t.Errorf("header %+v", tr.Header)
	}
}

// TestCopyToKeepsExistingFiles: saving a session under a name already taken fails with
// fs.ErrExist and the file under that name is not touched.
func TestCopyToKeepsExistingFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := trace.Create(filepath.Join(dir, "live.jsonl"), trace.Header{Tool: "t"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.Write(mcpclient.Event{Seq: 1, Time: time.Now(), Dir: mcpclient.Stderr, Raw: []byte("one\n"), Size: 4})
	taken := filepath.Join(dir, "taken.jsonl")
	if err := os.WriteFile(taken, []byte("an older session\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := w.CopyTo(taken); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CopyTo over an existing file: %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(taken); string(b) != "an older session\n" {
		t.Errorf("the existing file now holds %q", b)
	}
}
