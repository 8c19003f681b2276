package trace

import (
	"bytes"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestUnquoteJSONMatchesStdlib checks unquoteJSON against encoding/json on escapes, lone
// surrogates and invalid UTF-8.
func TestUnquoteJSONMatchesStdlib(t *testing.T) {
	for _, lit := range []string{
		`""`, `"abc"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\u4e16"`, `"\ud83d\ude00"`,
		`"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`, "\"\xff\xfe ok \xe2\x82\"", `"é世界"`,
	} {
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatalf("%q: %v", lit, err)
		}
		if got := unquoteJSON([]byte(lit)); string(got) != want {
			t.Errorf("%q: got %q, want %q", lit, got, want)
		}
		if got, err := quotedRaw([]byte(lit)).bytesInPlace(false); err != nil || string(got) != want {
			t.Errorf("%q in place: got %q (%v), want %q", lit, got, err, want)
		}
	}
}

func FuzzUnquoteJSON(f *testing.F) {
	f.Add([]byte("a\"b\n\x00\xff\u2028"))
	f.Fuzz(func(t *testing.T, s []byte) {
		lit, _ := json.Marshal(string(s))
		var want string
		if err := json.Unmarshal(lit, &want); err != nil {
			t.Fatal(err)
		}
		if got := unquoteJSON(lit); string(got) != want {
			t.Fatalf("%q: got %q, want %q", lit, got, want)
		}
		// Decoded in the literal's own memory (a line given up to its record), the same.
		if got, err := quotedRaw(bytes.Clone(lit)).bytesInPlace(false); err != nil || string(got) != want {
			t.Fatalf("%q in place: got %q (%v), want %q", lit, got, err, want)
		}
	})
}

// TestRecordsBigFrameMemory bounds what reading one 10 MB frame back allocates: the line
// buffer, which the frame is decoded into, not a string and copies besides (issue 26:
// trace cat of a 100 MB message peaked at 4.2x; the line and a copy of the frame, 2x, until
// the frame was decoded in place). A memory bound, not a timing.
func TestRecordsBigFrameMemory(t *testing.T) {
	const size = 10 << 20
	for _, text := range []string{"x", "line\n"} {
		body := bytes.Repeat([]byte(text), size/len(text))
		frame := append(append([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`), body...), "\"}]}}\n"...)
		var buf bytes.Buffer
		buf.WriteString(`{"format":"mcp-inspect-trace","version":1,"start":"2026-01-01T00:00:00Z"}` + "\n")
		buf.Write(appendRecord(nil, &Record{Seq: 1, Dir: mcpclient.ServerToClient, Raw: frame, Size: int64(len(frame))}, nil))
		tr, err := OpenReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		n := 0
		for r, err := range tr.Records() {
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(r.Raw, frame) {
				t.Fatalf("frame read back differs")
			}
			n++
		}
		runtime.ReadMemStats(&after)
		if n != 1 {
			t.Fatalf("%d records", n)
		}
		line := buf.Len()
		if got := after.TotalAlloc - before.TotalAlloc; got > uint64(line)*3/2 {
			t.Errorf("%q frame of %d bytes: reading it allocated %d bytes (%.1fx the line), want at most 1.5x", text, len(frame), got, float64(got)/float64(line))
		}
	}
}
