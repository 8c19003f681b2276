package cmd

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// oldWriteJSON is what writeJSON did before it streamed: the reference output.
func oldWriteJSON(t testing.TB, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.ToValidUTF8(buf.Bytes(), []byte("\uFFFD"))
}

func indentInPieces(t testing.TB, src []byte, piece int) []byte {
	var out bytes.Buffer
	iw := newIndentWriter(&out)
	for len(src) > 0 {
		n := min(piece, len(src))
		iw.Write(src[:n])
		src = src[n:]
	}
	if err := iw.flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func checkIndent(t *testing.T, raw []byte) {
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return
	}
	compact.WriteByte('\n')
	want := oldWriteJSON(t, json.RawMessage(raw))
	for _, piece := range []int{1, 2, 3, 7, 1 << 20} {
		if got := indentInPieces(t, compact.Bytes(), piece); !bytes.Equal(got, want) {
			t.Fatalf("%q in pieces of %d:\ngot  %q\nwant %q", raw, piece, got, want)
		}
	}
}

func TestIndentWriterMatchesIndent(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[1,2,{"c":"d"}]}`, `"x"`, `3`, `null`,
		`{"s":"a\"b\\","t":"{[,:]}"}`, "{\"bad\":\"\xff\xfe\xe2\x82 \xe2\x82\xac\",\"k\":[\"\xc3\"]}",
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	} {
		checkIndent(t, []byte(s))
	}
}

func FuzzIndentWriter(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"\u00e9\ud800"}],"c":{}}`))
	f.Add([]byte("[\"\xf0\x9f\x98\x80\xf0\x9f\"]"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkIndent(t, raw)
	})
}

func bigDoc(size int) *jsonDoc {
	text := strings.Repeat("x<&", size/3)
	res, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	return &jsonDoc{Method: `tools/call "result":0`, Server: &jsonServer{Name: `"result":0,`}, Result: res, Warnings: []string{"w"}, ExitCode: 1}
}

func TestWriteDocMatchesWriteJSON(t *testing.T) {
	for _, size := range []int{30, 200 << 10} {
		doc := bigDoc(size)
		doc.Result = append(doc.Result[:len(doc.Result)-1:len(doc.Result)-1], []byte(",\"bad\":\"\xff\"}")...)
		var got bytes.Buffer
		if err := writeDoc(&got, doc); err != nil {
			t.Fatal(err)
		}
		if want := oldWriteJSON(t, doc); !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("size %d: writeDoc differs from the indented encoding (%d vs %d bytes)", size, got.Len(), len(want))
		}
	}
}

// TestWriteDocBigResultMemory bounds what --json allocates to print a 10 MB result: not a
// marshalled copy and an indented copy (issue 26: call --json of a 100 MB result peaked at
// 7.5x). A memory bound, not a timing.
func TestWriteDocBigResultMemory(t *testing.T) {
	doc := bigDoc(10 << 20)
	var out bytes.Buffer
	out.Grow(len(doc.Result) + 1<<20)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := writeDoc(&out, doc); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(doc.Result))/2 {
		t.Errorf("writing a %d-byte result allocated %d bytes (%.2fx), want under 0.5x", len(doc.Result), got, float64(got)/float64(len(doc.Result)))
	}
}
