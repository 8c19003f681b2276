//go:build unix

package platform

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// plant makes the victim file (mode 0644) another user would want a trace written into,
// and a symlink at link pointing to it.
func plant(t *testing.T, dir string) (victim, link string) {
	t.Helper()
	victim, link = filepath.Join(dir, "victim"), filepath.Join(dir, "link.jsonl")
	if err := os.WriteFile(victim, []byte("victim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(victim, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	return victim, link
}

// wantUntouched fails unless victim still holds "victim\n" with mode 0644.
func wantUntouched(t *testing.T, victim string) {
	t.Helper()
	b, _ := os.ReadFile(victim)
	st, err := os.Stat(victim)
	if err != nil || string(b) != "victim\n" || st.Mode().Perm() != 0o644 {
		t.Fatalf("the link's target was written: %q, %v", b, st.Mode())
	}
}

// wantPrivateFile fails unless p is a regular file (not a symlink) of mode 0600.
func wantPrivateFile(t *testing.T, p string) {
	t.Helper()
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v, %v; want a regular file, mode 0600", p, st.Mode(), err)
	}
}

// TestCreatePrivateNeverFollows: replacing a symlink replaces the link itself with a new
// 0600 file, its target untouched; replacing a 0644 file leaves a 0600 one; without
// replace a symlink, even a dangling one, is refused and nothing is created at its target.
func TestCreatePrivateNeverFollows(t *testing.T) {
	dir := tempDir(t)
	victim, link := plant(t, dir)
	f, err := CreatePrivate(link, true)
	if err != nil {
		t.Fatal(err)
	}
	writeClose(t, f, "trace\n")
	wantUntouched(t, victim)
	wantPrivateFile(t, link)
	if b, _ := os.ReadFile(link); string(b) != "trace\n" {
		t.Fatalf("%s holds %q", link, b)
	}

	loose := filepath.Join(dir, "loose.jsonl")
	if err := os.WriteFile(loose, []byte("old\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	os.Chmod(loose, 0o666)
	f, err = CreatePrivate(loose, true)
	if err != nil {
		t.Fatal(err)
	}
	writeClose(t, f, "trace\n")
	wantPrivateFile(t, loose)

	dangling := filepath.Join(dir, "dangling.jsonl")
	target := filepath.Join(dir, "target")
	os.Symlink(target, dangling)
	if _, err := CreatePrivate(dangling, false); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("CreatePrivate(dangling link, false): %v, want fs.ErrExist", err)
	}
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the dangling link's target was created: %v", err)
	}
}

// TestOpenAppendPrivateNeverFollows: a symlink at the log's path is refused and its target
// untouched; a FIFO is refused at once; an existing log of mode 0644 becomes 0600.
func TestOpenAppendPrivateNeverFollows(t *testing.T) {
	dir := tempDir(t)
	victim, link := plant(t, dir)
	if f, err := OpenAppendPrivate(link); err == nil {
		f.Close()
		t.Fatal("a symlink was opened")
	} else if !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("error %q does not say why", err)
	}
	wantUntouched(t, victim)

	fifo := filepath.Join(dir, "fifo.log")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := OpenAppendPrivate(fifo)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO was opened as a log")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("opening a FIFO with no reader waits")
	}

	loose := filepath.Join(dir, "x.log")
	os.WriteFile(loose, []byte("old\n"), 0o644)
	os.Chmod(loose, 0o644)
	f, err := OpenAppendPrivate(loose)
	if err != nil {
		t.Fatal(err)
	}
	writeClose(t, f, "new\n")
	wantPrivateFile(t, loose)
	if b, _ := os.ReadFile(loose); string(b) != "old\nnew\n" {
		t.Fatalf("the log holds %q", b)
	}
}

// TestEnsurePrivateDirTightens: a directory of ours that others can write to is tightened
// to 0700 and the note says so, once; a new one needs no note.
func TestEnsurePrivateDirTightens(t *testing.T) {
	d := filepath.Join(tempDir(t), "mcp-inspect")
	if note, err := EnsurePrivateDir(d); err != nil || note != "" {
		t.Fatalf("a new directory: %q, %v", note, err)
	}
	if err := os.Chmod(d, 0o777); err != nil {
		t.Fatal(err)
	}
	note, err := EnsurePrivateDir(d)
	if err != nil || note != "tightened "+d+" from 0777 to 0700" {
		t.Fatalf("note %q, %v", note, err)
	}
	if err := CheckPrivateDir(d); err != nil {
		t.Fatal(err)
	}
	if note, err := EnsurePrivateDir(d); err != nil || note != "" {
		t.Fatalf("again: %q, %v; want nothing to say", note, err)
	}
}

// TestEnsurePrivateDirRefusesOthers: a directory another user owns is refused with a
// NotOwnedError and left as it was. As root the directory is given to nobody; as anyone
// else the state directory is a symlink to the root-owned /tmp.
func TestEnsurePrivateDirRefusesOthers(t *testing.T) {
	d := filepath.Join(tempDir(t), "mcp-inspect")
	if os.Getuid() == 0 {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(d, 0o777)
		if err := os.Chown(d, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	} else if err := os.Symlink("/tmp", d); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(d)
	_, err := EnsurePrivateDir(d)
	var no *NotOwnedError
	if !errors.As(err, &no) || !strings.Contains(err.Error(), "not to you") {
		t.Fatalf("EnsurePrivateDir of another user's directory: %v", err)
	}
	if after, _ := os.Stat(d); after.Mode() != before.Mode() {
		t.Fatalf("its mode changed: %v -> %v", before.Mode(), after.Mode())
	}
}
