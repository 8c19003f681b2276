package tap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"
)

// TestMemBlocks keeps a trace in memory across block boundaries: a snapshot reads back
// exactly what was appended before it, whatever is appended after.
func TestMemBlocks(t *testing.T) {
	m := newMemHistory(1<<30, "")
	head := []byte(`{"format":"mcp-inspect-trace"}` + "\n")
	m.add(head)
	want := bytes.NewBuffer(append([]byte(nil), head...))
	line := func(i int) []byte {
		return append(bytes.Repeat([]byte{byte('a' + i%26)}, 1+(i*7919)%70000), '\n')
	}
	i := 0
	for ; want.Len() < 2*memBlock+memBlock/2; i++ {
		m.add(line(i))
		want.Write(line(i))
	}
	snap := m.snapshot()
	for j := i; j < i+40; j++ {
		m.add(line(j))
	}
	got, err := io.ReadAll(bytesReader(snap))
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("read back %d bytes (err %v), want the %d appended before the snapshot", len(got), err, want.Len())
	}
	for k, b := range m.blocks {
		if k < len(m.blocks)-1 && len(b) != memBlock || cap(b) != memBlock {
			t.Fatalf("block %d holds %d bytes (cap %d); every block but the last is full", k, len(b), cap(b))
		}
	}
}

// TestMemHistoryBounded: with no trace file the history keeps the header and its newest
// whole lines up to the bound while a flood of 20 times the bound goes by; a snapshot is
// the header, a control line counting the dropped events and bytes exactly, and whole
// lines that end with the newest one.
func TestMemHistoryBounded(t *testing.T) {
	const limit = 4 << 20
	m := newMemHistory(limit, "--no-save keeps no file")
	head := []byte(`{"format":"mcp-inspect-trace"}` + "\n")
	m.add(head)
	var total, lines int64
	line := func(i int) []byte {
		// Sizes from 40 bytes to 3 MiB: some lines span blocks.
		n := 40 + (i*7919)%5000
		if i%97 == 0 {
			n = 3 << 20
		}
		b := fmt.Appendf(nil, `{"seq":%d,"raw":"`, i)
		b = append(b, bytes.Repeat([]byte{'x'}, n)...)
		return append(b, "\"}\n"...)
	}
	var batch []byte
	for i := 1; total < 20*limit; i++ {
		l := line(i)
		total += int64(len(l))
		lines++
		batch = append(batch, l...)
		if i%3 == 0 { // the tee hands over several lines in one write at times
			m.add(batch)
			batch = batch[:0]
		}
		if m.kept > limit {
			t.Fatalf("after %d lines the history keeps %d bytes, over %d", lines, m.kept, limit)
		}
	}
	m.add(batch)
	var got bytes.Buffer
	io.Copy(&got, bytesReader(m.snapshot()))
	rest, ok := bytes.CutPrefix(got.Bytes(), head)
	if !ok {
		t.Fatalf("the snapshot does not start with the header: %.80q", got.Bytes())
	}
	ctl, kept, _ := bytes.Cut(rest, []byte{'\n'})
	var c struct {
		Tap    string `json:"tap"`
		Reason string `json:"reason"`
		Events int64  `json:"events"`
		Bytes  int64  `json:"bytes"`
	}
	if err := json.Unmarshal(ctl, &c); err != nil || c.Tap != "history-dropped" {
		t.Fatalf("second line %.120q is not the history-dropped control (%v)", ctl, err)
	}
	keptLines := int64(bytes.Count(kept, []byte{'\n'}))
	if c.Events+keptLines != lines || c.Bytes+int64(len(kept)) != total {
		t.Errorf("dropped %d events (%d bytes) + kept %d (%d bytes) != %d lines (%d bytes)", c.Events, c.Bytes, keptLines, len(kept), lines, total)
	}
	wantReason := fmt.Sprintf("--no-save keeps no file: %d earlier events (%.1f MiB) dropped, the newest 4 MiB kept", c.Events, float64(c.Bytes)/(1<<20))
	if c.Reason != wantReason {
		t.Errorf("reason %q, want %q", c.Reason, wantReason)
	}
	for _, l := range bytes.SplitAfter(kept, []byte{'\n'}) {
		if len(l) > 0 && (!bytes.HasPrefix(l, []byte(`{"seq":`)) || !bytes.HasSuffix(l, []byte("\"}\n"))) {
			t.Fatalf("a kept line is not whole: %.60q…", l)
		}
	}
	if !bytes.HasSuffix(kept, line(int(lines))) {
		t.Error("the newest line is not the last kept")
	}
}
