package boundedfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("hello"), 0o600)
	if b, err := Read(p, 5); err != nil || string(b) != "hello" {
		t.Fatalf("Read = %q, %v", b, err)
	}
	if _, err := Read(p, 4); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
}

// /dev/zero and a terminal are refused at once, not read until memory runs out.
func TestRefuseDevices(t *testing.T) {
	_, err := Read("/dev/zero", 1<<20)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "character device") {
		t.Fatalf("/dev/zero: %v", err)
	}
	if _, err := Read(t.TempDir(), 10); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("a directory: %v", err)
	}
}

// A FIFO with no writer does not block: it is refused at once, saying why; a FIFO whose
// writer is there is read.
func TestFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Read(p, 100)
	if !errors.Is(err, ErrNoWriter) || !strings.Contains(err.Error(), "writer") {
		t.Fatalf("FIFO without a writer: %v", err)
	}
	// A pipe whose writer was there (what <(…) and /dev/stdin give) is read.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w.Write([]byte(`{"a":1}`))
	w.Close()
	got, err := Read(fmt.Sprintf("/proc/self/fd/%d", r.Fd()), 100)
	if err != nil || string(got) != `{"a":1}` {
		t.Fatalf("a pipe: %q, %v", got, err)
	}
}
