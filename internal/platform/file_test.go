package platform

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
)

// TestLocks: a writer's shared lock says "in use" to a pruner's exclusive try, does not stop
// the writer's own writes (on Windows a byte-range lock on real bytes would), and goes
// with the close.
func TestLocks(t *testing.T) {
	p := filepath.Join(tempDir(t), "session.jsonl")
	w, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	LockShared(w)
	if _, err := w.Write([]byte("{\"line\":1}\n")); err != nil {
		t.Fatalf("a write under the writer's own shared lock failed: %v", err)
	}
	r, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if TryLockExclusive(r) {
		t.Fatal("exclusive lock taken while a shared one is held")
	}
	if b, err := io.ReadAll(r); err != nil || string(b) != "{\"line\":1}\n" {
		t.Fatalf("read under the lock: %q, %v", b, err)
	}
	r.Close()
	w.Close()
	r, err = os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !TryLockExclusive(r) {
		t.Fatal("exclusive lock refused after the shared one's file closed")
	}
}

// TestOpenRemovable: the pruner removes a file it holds open (and locked).
func TestOpenRemovable(t *testing.T) {
	p := filepath.Join(tempDir(t), "old.jsonl")
	if err := os.WriteFile(p, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := OpenRemovable(p)
	if err != nil {
		t.Fatal(err)
	}
	if !TryLockExclusive(f) {
		t.Fatal("no exclusive lock on a file nobody else has open")
	}
	if err := os.Remove(p); err != nil {
		t.Fatalf("remove while open: %v (InUse %v)", err, InUse(err))
	}
	f.Close()
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("file still there after remove and close: %v", err)
	}
	if _, err := OpenRemovable(p); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("OpenRemovable of a missing file: %v, want ErrNotExist", err)
	}
}

// TestTempFileGone: a stream's spill file reads back what was written and leaves nothing
// behind once closed.
func TestTempFileGone(t *testing.T) {
	t.Setenv("TMPDIR", tempDir(t))
	t.Setenv("TMP", os.Getenv("TMPDIR"))
	t.Setenv("TEMP", os.Getenv("TMPDIR"))
	f, err := TempFileGone("platform-test-*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 6)
	if _, err := f.ReadAt(b, 0); err != nil || string(b) != "hello\n" {
		t.Fatalf("read back %q, %v", b, err)
	}
	name := f.Name()
	f.Close()
	if _, err := os.Stat(name); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s left behind: %v", name, err)
	}
	if left, _ := os.ReadDir(os.TempDir()); len(left) != 0 {
		t.Fatalf("the temporary directory holds %d entries", len(left))
	}
}

// TestMkdirPrivate: a new directory, and an existing one, end up private and ours.
func TestMkdirPrivate(t *testing.T) {
	d := filepath.Join(tempDir(t), "state", "mcp-inspect")
	if err := MkdirPrivate(d); err != nil {
		t.Fatal(err)
	}
	if err := CheckPrivateDir(d); err != nil {
		t.Fatal(err)
	}
	if !OwnedByUser(d) {
		t.Fatal("a directory just made is not ours")
	}
	if err := MkdirPrivate(d); err != nil {
		t.Fatalf("again: %v", err)
	}
	if err := CheckPrivateDir(filepath.Join(d, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("CheckPrivateDir of a missing directory: %v", err)
	}
	f := filepath.Join(d, "token.json")
	if err := os.WriteFile(f, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := MakePrivate(f); err != nil {
		t.Fatal(err)
	}
	if err := CheckPrivateDir(f); err == nil {
		t.Fatal("a file passed as a private directory")
	}
}

func TestStateDirHonoursAbsoluteXDG(t *testing.T) {
	abs := tempDir(t)
	t.Setenv("XDG_STATE_HOME", abs)
	if d, err := StateDir(); err != nil || d != filepath.Join(abs, AppName) {
		t.Fatalf("StateDir = %q, %v; want %s", d, err, filepath.Join(abs, AppName))
	}
	home := tempDir(t)
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("LOCALAPPDATA", filepath.Join(home, "AppData", "Local"))
	t.Setenv("XDG_STATE_HOME", "relative/state")
	d, err := StateDir()
	if err != nil {
		t.Fatal(err)
	}
	if rel, err := filepath.Rel(home, d); err != nil || !filepath.IsLocal(rel) || filepath.Base(d) != AppName {
		t.Fatalf("StateDir with a relative XDG_STATE_HOME = %q, want the system's, under %s", d, home)
	}
}

func TestRuntimeDirs(t *testing.T) {
	x := tempDir(t)
	t.Setenv("XDG_RUNTIME_DIR", x)
	dirs := RuntimeDirs()
	if len(dirs) < 2 || dirs[0] != filepath.Join(x, AppName) {
		t.Fatalf("RuntimeDirs = %q, want %s first and the system's after", dirs, filepath.Join(x, AppName))
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] || !filepath.IsAbs(d) || !SocketPathFits(d) {
			t.Errorf("RuntimeDirs entry %q: duplicate, relative or too long for a socket", d)
		}
		seen[d] = true
	}
	t.Setenv("XDG_RUNTIME_DIR", "")
	if d := RuntimeDirs(); len(d) == 0 || d[0] == dirs[0] {
		t.Fatalf("without XDG_RUNTIME_DIR: %q", d)
	}
}

func TestSocketPathFits(t *testing.T) {
	short := filepath.Join(tempDir(t), "run")
	if !SocketPathFits(short) {
		t.Errorf("%s does not fit", short)
	}
	long := string(make([]byte, 100))
	if SocketPathFits(long) {
		t.Error("a 100-byte directory fits")
	}
}

func TestProcessExists(t *testing.T) {
	if !ProcessExists(os.Getpid()) {
		t.Fatal("this process does not exist")
	}
	if ProcessExists(0) || ProcessExists(-5) {
		t.Fatal("pid 0 or a negative pid exists")
	}
}

func TestPipe(t *testing.T) {
	for _, nb := range []bool{false, true} {
		r, w, err := Pipe(nb)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.Write([]byte("frame\n"))
			w.Close()
		}()
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil || string(b) != "frame\n" {
			t.Fatalf("nonblocking write %v: read %q, %v", nb, b, err)
		}
	}
}

func TestNonblockingWriter(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	nw := NewNonblockingWriter(w)
	if nw == nil {
		return // Windows: always the slow path, nothing to test
	}
	if n := nw.TryWrite([]byte("abc")); n != 3 {
		t.Fatalf("TryWrite wrote %d of 3 bytes into an empty pipe", n)
	}
	big := make([]byte, 4<<20)
	if n := nw.TryWrite(big); n <= 0 || n >= len(big) {
		t.Fatalf("TryWrite of 4 MiB into a pipe nobody reads wrote %d: want a short write, never a wait", n)
	}
}

func TestIsConnRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, err := net.Dial("tcp", addr)
	if err == nil {
		c.Close()
		t.Fatalf("something listens on %s, just closed", addr)
	}
	if !IsConnRefused(err) || IsConnReset(err) {
		t.Fatalf("dial a closed port: %v: refused %v, reset %v", err, IsConnRefused(err), IsConnReset(err))
	}
}

// TestSystemClipboardNotOverSSH: in an SSH session this machine's clipboard is not the
// user's, so nothing is written there.
func TestSystemClipboardNotOverSSH(t *testing.T) {
	t.Setenv("SSH_CONNECTION", "10.0.0.1 50000 10.0.0.2 22")
	if via, err := SystemClipboard("secret"); via != "" || err != nil {
		t.Fatalf("SystemClipboard over SSH: %q, %v; want nothing done", via, err)
	}
}
