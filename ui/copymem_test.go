package ui

import (
	"runtime"
	"strings"
	"testing"

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
