package tap

import (
	"bytes"
	"io"
	"testing"
)

// TestMemBlocks keeps a trace in memory across block boundaries: a snapshot reads back
// exactly what was appended before it, whatever is appended after.
func TestMemBlocks(t *testing.T) {
	var blocks [][]byte
	var want bytes.Buffer
	line := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 1+(i*7919)%70000) }
	i := 0
	for ; want.Len() < 2*memBlock+memBlock/2; i++ {
		blocks = appendBlocks(blocks, line(i))
		want.Write(line(i))
	}
	snap := snapshotBlocks(blocks)
	for j := i; j < i+40; j++ {
		blocks = appendBlocks(blocks, line(j))
	}
	got, err := io.ReadAll(bytesReader(snap))
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("read back %d bytes (err %v), want the %d appended before the snapshot", len(got), err, want.Len())
	}
	for k, b := range blocks {
		if k < len(blocks)-1 && len(b) != memBlock || cap(b) != memBlock {
			t.Fatalf("block %d holds %d bytes (cap %d); every block but the last is full", k, len(b), cap(b))
		}
	}
}
