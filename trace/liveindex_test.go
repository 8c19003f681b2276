package trace

import (
	"testing"
	"unsafe"
)

// TestLiveIndex: the index finds every line by Seq and gives where it starts, while Seqs
// count up without gaps (kept as the first Seq only), after a gap (kept one by one), and
// across offsets 4 GiB or more apart (a new block); it costs 4 bytes a line in the first
// case.
func TestLiveIndex(t *testing.T) {
	const n = 3*liveBlock + 17
	type line struct {
		seq uint64
		off int64
	}
	var lines []line
	off := int64(100)
	for i := range n {
		seq := uint64(i + 5)
		if i >= 2*liveBlock+3 {
			seq += 1000 // a gap
		}
		lines = append(lines, line{seq, off})
		off += int64(200 + i%7)
		if i == liveBlock+11 {
			off += 5 << 30 // a huge line
		}
	}
	var x liveIndex
	for _, l := range lines {
		x.add(l.seq, l.off)
		if l.seq == lines[2*liveBlock+2].seq {
			var rel int
			for _, b := range x.blocks {
				rel += cap(b.rel) * int(unsafe.Sizeof(b.rel[0]))
			}
			if x.seqs != nil || rel > 4*(x.n+2*liveBlock) {
				t.Fatalf("before the gap: seqs kept %v, %d bytes of offsets for %d lines", x.seqs != nil, rel, x.n)
			}
		}
	}
	if x.seqs == nil {
		t.Fatal("after the gap the Seqs should be kept")
	}
	for i, l := range lines {
		k, ok := x.find(l.seq)
		if !ok || k != i || x.off(k) != l.off || x.seq(k) != l.seq {
			t.Fatalf("line %d (#%d at %d): found %d %v, at %d", i, l.seq, l.off, k, ok, x.off(k))
		}
	}
	for _, s := range []uint64{1, 4, lines[2*liveBlock+2].seq + 1, lines[n-1].seq + 1} {
		if _, ok := x.find(s); ok {
			t.Errorf("#%d found, but no line holds it", s)
		}
	}
}
