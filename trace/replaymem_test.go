package trace

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
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

// TestReplayCompareBigDifferMemory: comparing two 10 MB results that differ in one byte
// allocates under half their size (the values are parsed where they are, and the
// difference's values are slices of them), names the path, and says the recorded value
// whole. Before, both were decoded into Go values and encoded again: 16x on replay.
func TestReplayCompareBigDifferMemory(t *testing.T) {
	const size = 10 << 20
	text := bytes.Repeat([]byte("x"), size)
	res := append(append([]byte(`{"content":[{"type":"text","text":"`), text...), `"}]}`...)
	got := bytes.Clone(res)
	got[len(got)/2] = 'y'
	run := &replayRun{}
	q := &replayReq{method: "tools/call", label: "tools/call big",
		recResp: &mcpclient.Message{Result: json.RawMessage(res)},
		resp:    &mcpclient.Response{Msg: &mcpclient.Message{Result: json.RawMessage(got)}}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	it := run.compare(q)
	runtime.ReadMemStats(&after)
	if it.Status != StatusDiffers || len(it.Diffs) != 1 || it.Diffs[0].Path != "$.result.content[0].text" {
		t.Fatalf("status %v, diffs %d", it.Status, len(it.Diffs))
	}
	if d := it.Diffs[0]; len(d.Recorded) != size+2 || len(d.Got) != size+2 || bytes.Contains(d.Recorded, []byte("y")) {
		t.Fatalf("the difference's values are not whole: %d and %d bytes", len(d.Recorded), len(d.Got))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/2 {
		t.Errorf("comparing two differing %d-byte results allocated %d bytes (%.1fx), want under 0.5x", len(res), alloc, float64(alloc)/float64(len(res)))
	}
}

// TestReplayRecordedNotReadBack: a big recorded response that cannot be read back from
// the trace at comparison time is a difference that says so, not a crash or a "same".
func TestReplayRecordedNotReadBack(t *testing.T) {
	var buf bytes.Buffer
	buf.WriteString(`{"format":"mcp-inspect-trace","version":1,"start":"2026-01-01T00:00:00Z"}` + "\n")
	tr, err := OpenReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	run := &replayRun{tr: tr}
	q := &replayReq{method: "tools/call", label: "tools/call big", recRespSeq: 9,
		resp: &mcpclient.Response{Msg: &mcpclient.Message{Result: json.RawMessage(`{}`)}}}
	it := run.compare(q)
	if it.Status != StatusDiffers || !strings.Contains(it.Note, "event #9") || !strings.Contains(it.Note, "could not be read back") {
		t.Fatalf("status %v, note %q", it.Status, it.Note)
	}
}
