package mcpclient

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// chunkReader returns the given chunks one per Read, the way a pipe delivers separate writes.
type chunkReader struct{ chunks [][]byte }

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.chunks[0])
	if n < len(r.chunks[0]) {
		r.chunks[0] = r.chunks[0][n:]
	} else {
		r.chunks = r.chunks[1:]
	}
	return n, nil
}

func allFrames(t *testing.T, f *Framer) []Frame {
	t.Helper()
	var out []Frame
	for {
		fr, err := f.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, fr)
	}
}

func TestFramerSplitAndCoalesced(t *testing.T) {
	// Case B02: a message split over two reads, then two messages (and a log line) in one read.
	r := &chunkReader{chunks: [][]byte{
		[]byte(`{"jsonrpc":"2.0","id":1,`),
		[]byte(`"result":{}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}` + "\n"),
		[]byte("debug: echo called\n{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n"),
	}}
	frames := allFrames(t, NewFramer(r, 0))
	want := []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n",
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n",
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}` + "\n",
		"debug: echo called\n",
		`{"jsonrpc":"2.0","id":3,"result":{}}` + "\n",
	}
	if len(frames) != len(want) {
		t.Fatalf("got %d frames, want %d", len(frames), len(want))
	}
	var off int64
	for i, f := range frames {
		if string(f.Raw) != want[i] {
			t.Errorf("frame %d = %q, want %q", i, f.Raw, want[i])
		}
		if f.Offset != off || f.Line != int64(i+1) || f.Size != int64(len(want[i])) {
			t.Errorf("frame %d offset/line/size = %d/%d/%d, want %d/%d/%d", i, f.Offset, f.Line, f.Size, off, i+1, len(want[i]))
		}
		off += f.Size
	}
	if got := frames[0].Chunks; len(got) != 1 || got[0] != len(`{"jsonrpc":"2.0","id":1,`) {
		t.Errorf("first frame read boundaries = %v, want one at 24", got)
	}
	if len(frames[1].Chunks) != 0 || len(frames[3].Chunks) != 0 {
		t.Errorf("frames that arrived inside one read must have no boundaries: %v %v", frames[1].Chunks, frames[3].Chunks)
	}
}

func TestFramerBytePerWrite(t *testing.T) {
	// Case B02b: one byte per read must give one frame, with the boundaries capped.
	line := `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + strings.Repeat("a", 1000) + `"}]}}` + "\n"
	frames := allFrames(t, NewFramer(iotest.OneByteReader(strings.NewReader(line+line)), 0))
	if len(frames) != 2 {
		t.Fatalf("got %d frames, want 2", len(frames))
	}
	for _, f := range frames {
		if string(f.Raw) != line {
			t.Fatalf("frame differs from the line sent")
		}
		if f.ChunkCount != len(line)-1 || len(f.Chunks) != MaxChunkMarks {
			t.Errorf("chunk count %d (marks %d), want %d (marks %d)", f.ChunkCount, len(f.Chunks), len(line)-1, MaxChunkMarks)
		}
	}
}

func TestFramerLongLines(t *testing.T) {
	// Case B03: lines around and far above bufio.Scanner's 64 KiB limit arrive whole.
	for _, n := range []int{65400, 65536 + 100, 1 << 20, 5 << 20} {
		line := append(bytes.Repeat([]byte("x"), n), '\n')
		frames := allFrames(t, NewFramer(bytes.NewReader(line), 0))
		if len(frames) != 1 || len(frames[0].Raw) != n+1 || frames[0].Oversize {
			t.Fatalf("n=%d: got %d frames", n, len(frames))
		}
	}
}

func TestFramerOversizeKeepsHeadAndContinues(t *testing.T) {
	big := append(bytes.Repeat([]byte("y"), 300<<10), '\n')
	next := []byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n")
	frames := allFrames(t, NewFramer(bytes.NewReader(append(big, next...)), 100<<10))
	if len(frames) != 2 {
		t.Fatalf("got %d frames, want 2", len(frames))
	}
	if !frames[0].Oversize || frames[0].Size != int64(len(big)) || len(frames[0].Raw) != oversizeHead {
		t.Errorf("oversize frame: oversize=%v size=%d kept=%d", frames[0].Oversize, frames[0].Size, len(frames[0].Raw))
	}
	if string(frames[1].Raw) != string(next) || frames[1].Offset != int64(len(big)) {
		t.Errorf("frame after the oversize one is wrong: %q at %d", frames[1].Raw, frames[1].Offset)
	}
}

func TestFramerPartialTailAndCRLF(t *testing.T) {
	frames := allFrames(t, NewFramer(strings.NewReader("{\"a\":1}\r\n{\"jsonrpc\":\"2.0\",\"id\""), 0))
	if len(frames) != 2 {
		t.Fatalf("got %d frames", len(frames))
	}
	if string(frames[0].Raw) != "{\"a\":1}\r\n" || frames[0].Partial {
		t.Errorf("CRLF frame = %q partial=%v", frames[0].Raw, frames[0].Partial)
	}
	if !frames[1].Partial || string(frames[1].Raw) != `{"jsonrpc":"2.0","id"` {
		t.Errorf("tail = %q partial=%v", frames[1].Raw, frames[1].Partial)
	}
}

func BenchmarkFramer(b *testing.B) {
	var buf bytes.Buffer
	line := `{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"hello world"}]}}` + "\n"
	for range 10000 {
		buf.WriteString(line)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		f := NewFramer(bytes.NewReader(data), 0)
		for {
			if _, err := f.Next(); err != nil {
				break
			}
		}
	}
}

func BenchmarkFramerBytePerWrite(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"` + strings.Repeat("z", 4096) + `"}]}}` + "\n")
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		f := NewFramer(iotest.OneByteReader(bytes.NewReader(line)), 0)
		if _, err := f.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzFramer checks that framing never loses or invents a byte, whatever the input and
// however the reads are chunked.
func FuzzFramer(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n{\"b\":2}\r\n"), uint8(3))
	f.Add([]byte("no newline at all"), uint8(1))
	f.Add([]byte("\n\n\n"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		var chunks [][]byte
		step := int(chunk)%17 + 1
		for i := 0; i < len(data); i += step {
			chunks = append(chunks, data[i:min(i+step, len(data))])
		}
		fr := NewFramer(&chunkReader{chunks: chunks}, 64)
		var total int64
		var joined []byte
		over := false
		for {
			f, err := fr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if f.Offset != total {
				t.Fatalf("offset %d, want %d", f.Offset, total)
			}
			total += f.Size
			if !f.Oversize {
				joined = append(joined, f.Raw...)
			} else if over = true; int64(len(f.Raw)) > f.Size || len(f.Raw) > 64 {
				t.Fatalf("oversize frame kept %d bytes of %d", len(f.Raw), f.Size)
			}
			if !f.Partial && (len(f.Raw) == 0 || (!f.Oversize && f.Raw[len(f.Raw)-1] != '\n')) {
				t.Fatalf("complete frame without newline: %q", f.Raw)
			}
		}
		if total != int64(len(data)) {
			t.Fatalf("framed %d bytes of %d", total, len(data))
		}
		if !over && !bytes.Equal(joined, data) {
			t.Fatalf("frames differ from the input")
		}
	})
}
