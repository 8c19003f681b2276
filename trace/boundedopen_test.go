package trace_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/trace"
)

// countingReaderAt is a virtual file of size bytes of 'x' (no newline) that counts what is
// read from it.
type countingReaderAt struct {
	size, read int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= c.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), c.size-off))
	for i := range p[:n] {
		p[i] = 'x'
	}
	c.read += int64(n)
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// A 1 GiB file of one line is refused as "not a trace header" after a bounded prefix, not
// read whole (issue 15: it took 22 s and 2.8 GB).
func TestHugeOneLineRefusedEarly(t *testing.T) {
	c := &countingReaderAt{size: 1 << 30}
	_, err := trace.OpenReader(c, c.size)
	if !errors.Is(err, trace.ErrNotTrace) || !strings.Contains(err.Error(), "not a trace header") {
		t.Fatalf("err = %v", err)
	}
	if c.read > 4<<20 {
		t.Fatalf("read %d bytes to decide", c.read)
	}
	// The same through a stream.
	c = &countingReaderAt{size: 1 << 30}
	_, err = trace.OpenStream(io.NewSectionReader(c, 0, c.size))
	if !errors.Is(err, trace.ErrNotTrace) || c.read > 4<<20 {
		t.Fatalf("stream: err = %v after %d bytes", err, c.read)
	}
}

// OpenStream reads a trace from a pipe (mcp-inspect open -): the same events as the file.
func TestOpenStream(t *testing.T) {
	data := synthTrace(t, 20)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	tr, err := trace.OpenStream(r)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	want := openBytes(t, data)
	if tr.Len() != 20 || want.Len() != 20 {
		t.Fatalf("Len %d, want 20", tr.Len())
	}
	for i := 0; i < 20; i++ {
		a, err1 := tr.Record(i)
		b, err2 := want.Record(i)
		if err1 != nil || err2 != nil || !bytes.Equal(a.Raw, b.Raw) {
			t.Fatalf("event %d differs: %v %v", i, err1, err2)
		}
	}
	if _, err := trace.OpenStream(strings.NewReader("")); !errors.Is(err, trace.ErrNotTrace) {
		t.Fatalf("empty stream: %v", err)
	}
}
