package trace

import (
	"bytes"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestReplayCompareBigSameMemory bounds what comparing a replayed 10 MB result with the
// same recorded one allocates: no decoding of either side into Go values (issue 26: replay
// of a 100 MB result peaked at 10x). A memory bound, not a timing.
func TestReplayCompareBigSameMemory(t *testing.T) {
	const size = 10 << 20
	text := bytes.Repeat([]byte("x"), size)
	res := append(append([]byte(`{"content":[{"type":"text","text":"`), text...), `"}]}`...)
	got := append([]byte(nil), res...)
	run := &replayRun{}
	q := &replayReq{method: "tools/call", label: "tools/call big",
		recResp: &mcpclient.Message{Result: json.RawMessage(res)},
		resp:    &mcpclient.Response{Msg: &mcpclient.Message{Result: json.RawMessage(got)}}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	it := run.compare(q)
	runtime.ReadMemStats(&after)
	if it.Status != StatusSame || len(it.Diffs) != 0 {
		t.Fatalf("status %v, diffs %v", it.Status, it.Diffs)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/2 {
		t.Errorf("comparing two equal %d-byte results allocated %d bytes (%.1fx), want under 0.5x", len(res), alloc, float64(alloc)/float64(len(res)))
	}
	// A difference is still found (the fast path only takes equal bytes).
	q.resp.Msg.Result = json.RawMessage(bytes.Replace(got, []byte(`"xx`), []byte(`"yx`), 1))
	if it := run.compare(q); it.Status != StatusDiffers {
		t.Fatalf("a changed result compared %v", it.Status)
	}
}
