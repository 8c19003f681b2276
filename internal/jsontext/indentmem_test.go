package jsontext

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

func TestIndentMatchesJSONIndent(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, ` {"a" : [ 1, 2 ,{ } ,[]], "b":{"c":"d\"{,:"}} `, `"x"`, `null`, "{\"é\":\"\xff\"}",
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, bytes.TrimSpace([]byte(s)), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got, ok := Indent([]byte(s)); !ok || got != want.String() {
			t.Errorf("%q: got %q, want %q", s, got, want.String())
		}
	}
	if got, ok := Indent([]byte(`{"a":`)); ok || got != `{"a":` {
		t.Errorf("invalid JSON: %q %v", got, ok)
	}
}

// TestIndentBigMemory bounds what indenting a 10 MB message allocates: the result string
// and little else (issue 26). A memory bound, not a timing.
func TestIndentBigMemory(t *testing.T) {
	raw := []byte(`{"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 10<<20) + `"}]}}`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out, ok := Indent(raw)
	runtime.ReadMemStats(&after)
	if !ok || len(out) < len(raw) {
		t.Fatal("not indented")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(raw))*3/2 {
		t.Errorf("indenting %d bytes allocated %d (%.2fx), want at most 1.5x", len(raw), got, float64(got)/float64(len(raw)))
	}
}
