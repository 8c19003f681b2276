package ui

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/repeatcmd"
)

// TestCopyResultBigMemory bounds what y in the Call pane allocates to lay out a 10 MB
// result: the indented text and little else, not a copy of the result first and a growing
// buffer and its String besides (issue 26: y of a 100 MB result peaked at 11x). A memory
// bound, not a timing.
func TestCopyResultBigMemory(t *testing.T) {
	frame := []byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 10<<20) + `"}]}}` + "\n")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	what, text, err := copyText(frame, 7, copyResult, repeatcmd.Target{})
	runtime.ReadMemStats(&after)
	if err != nil || !strings.HasPrefix(what, "the result of #7") || !strings.HasPrefix(text, "{\n  \"content\": [") {
		t.Fatalf("%q %q… %v", what, text[:min(len(text), 40)], err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(frame))*3/2 {
		t.Errorf("copying a %d-byte result allocated %d bytes (%.2fx), want at most 1.5x", len(frame), got, float64(got)/float64(len(frame)))
	}
}

// TestBigCopyMemory: y on a result over osc52Max writes it indented straight into the
// file fallback: the file holds what Indent gives, and the copy allocates a small part of
// the frame (a 100 MB result cost 8x before: the indented text, then OSC 52's base64
// twice over).
func TestBigCopyMemory(t *testing.T) {
	frame := []byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", osc52Max+1<<20) + `"}]}}` + "\n")
	dir := t.TempDir()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	msg := bigCopy(frame, 7, copyResult, dir, nil)
	runtime.ReadMemStats(&after)
	if msg.err != nil || msg.fileErr != nil || !msg.fileOnly || msg.text != "" || !strings.HasPrefix(msg.what, "the result of #7 (") {
		t.Fatalf("%+v", msg)
	}
	want, _ := jsontext.Indent(frame[len(`{"jsonrpc":"2.0","id":3,"result":`) : len(frame)-2])
	got, err := os.ReadFile(msg.path)
	if err != nil || string(got) != want || msg.size != len(want) {
		t.Fatalf("the file holds %d bytes (%v), want the %d of the indented result; size %d", len(got), err, len(want), msg.size)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(frame))/4 {
		t.Errorf("copying a %d-byte result allocated %d bytes (%.2fx), want at most 0.25x", len(frame), alloc, float64(alloc)/float64(len(frame)))
	}
}
