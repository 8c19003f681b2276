//go:build unix

package boundedfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

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
	if err := platformtest.Mkfifo(p); err != nil {
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

// A FIFO whose writer is there but writes nothing is refused after the idle time, with a
// message that says so; a writer that writes in pieces within it is read whole.
func TestFIFOSilentWriter(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := platformtest.Mkfifo(p); err != nil {
		t.Fatal(err)
	}
	// Held open read-write, the FIFO has a writer that never writes.
	hold, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	_, err = read(p, 100, 50*time.Millisecond)
	if !errors.Is(err, ErrPipeSilent) || !strings.Contains(err.Error(), "it wrote nothing for 50ms") {
		t.Fatalf("silent writer: %v", err)
	}
	// A writer that wrote a line and then held the pipe open is told apart.
	hold.Write([]byte("theme = \"dark\"\n"))
	_, err = read(p, 100, 50*time.Millisecond)
	if !errors.Is(err, ErrPipeSilent) || !strings.Contains(err.Error(), "it wrote 15 bytes, then nothing more and did not close the pipe for 50ms") {
		t.Fatalf("writer gone quiet: %v", err)
	}
	hold.Close()

	// A writer that writes in pieces, each within the idle time, is read whole.
	w, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer w.Close()
		for _, part := range []string{`{"a":`, `1}`} {
			time.Sleep(5 * time.Millisecond)
			w.Write([]byte(part))
		}
	}()
	got, err := read(p, 100, 5*time.Second)
	if err != nil || string(got) != `{"a":1}` {
		t.Fatalf("a writer in pieces: %q, %v", got, err)
	}
}
