package trace

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// liveIndex is where each event line written so far starts, for reading events back from
// a trace still being written: 4 bytes an event while Seqs count up without gaps (as a
// client's do), 12 after a gap. Offsets are kept in blocks, each line's from its block's
// start, so a million events never need an array grown by copying (a moment with both
// copies).
type liveIndex struct {
	blocks []liveBlockOffs
	n      int
	// first is the Seq of the first line; while seqs is nil line i holds Seq first+i.
	first uint64
	// seqs holds every line's Seq once one broke the run.
	seqs []uint64
	// rf is the trace opened for reading, at the first read.
	rf *os.File
}

// liveBlock is how many offsets one block holds at most (128 KiB).
const liveBlock = 1 << 15

// liveBlockOffs is one block of the index: lines first to first+len(rel)-1 start at base
// plus their rel. A block ends early when a line starts 4 GiB or more past its base.
type liveBlockOffs struct {
	first int
	base  int64
	rel   []uint32
}

func (x *liveIndex) add(seq uint64, off int64) {
	switch {
	case x.n == 0:
		x.first = seq
	case x.seqs == nil && seq != x.first+uint64(x.n):
		x.seqs = make([]uint64, x.n, x.n+x.n/4+16)
		for i := range x.n {
			x.seqs[i] = x.first + uint64(i)
		}
	}
	if x.seqs != nil {
		x.seqs = append(x.seqs, seq)
	}
	if k := len(x.blocks); k == 0 || len(x.blocks[k-1].rel) == liveBlock || off < x.blocks[k-1].base || off-x.blocks[k-1].base > math.MaxUint32 {
		x.blocks = append(x.blocks, liveBlockOffs{first: x.n, base: off, rel: make([]uint32, 0, liveBlock)})
	}
	b := &x.blocks[len(x.blocks)-1]
	b.rel = append(b.rel, uint32(off-b.base))
	x.n++
}

// off is where line i starts.
func (x *liveIndex) off(i int) int64 {
	k := sort.Search(len(x.blocks), func(k int) bool { return x.blocks[k].first > i }) - 1
	b := &x.blocks[k]
	return b.base + int64(b.rel[i-b.first])
}

// seq is the Seq of line i.
func (x *liveIndex) seq(i int) uint64 {
	if x.seqs != nil {
		return x.seqs[i]
	}
	return x.first + uint64(i)
}

// find returns the position of seq's line: the direct slot first (Seqs normally count
// from 1 without gaps), then a binary search.
func (x *liveIndex) find(seq uint64) (int, bool) {
	if x.n == 0 {
		return 0, false
	}
	if x.seqs == nil {
		if seq < x.first || seq-x.first >= uint64(x.n) {
			return 0, false
		}
		return int(seq - x.first), true
	}
	if seq >= 1 && seq-1 < uint64(len(x.seqs)) && x.seqs[seq-1] == seq {
		return int(seq - 1), true
	}
	return slices.BinarySearch(x.seqs, seq)
}

func (x *liveIndex) close() {
	if x != nil && x.rf != nil {
		x.rf.Close()
		x.rf = nil
	}
}

// IndexEvents makes the Writer remember where each event it writes from now on starts, so
// that EventBySeq can read it back while the recording goes on: a live session keeps only
// its latest events' bytes in memory and reads older ones back from its own trace, as
// mcp-inspect open does. Only a Writer made by Create or CreateNew can; the index costs 4
// bytes an event (12 once Seqs have a gap).
func (w *Writer) IndexEvents() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.live == nil {
		w.live = &liveIndex{}
	}
}

// EventBySeq reads back the event whose Seq is seq from the trace being written, as
// Trace.EventBySeq does (classified, not paired; the bytes as recorded, so redacted when
// the recording is). An event the recording has not reached yet (the recorder is fed by a
// queue of its own and may lag behind the UI during a flood) is waited for, up to
// awaitWrite. It fails for an event written before IndexEvents, one that was not
// written (a write error), after Close, and when the Writer has no file.
func (w *Writer) EventBySeq(seq uint64) (mcpclient.Event, error) {
	w.awaitSeq(seq)
	w.mu.Lock()
	if w.live == nil || w.path == "" {
		w.mu.Unlock()
		return mcpclient.Event{}, errors.New("the recording keeps no index of its events")
	}
	if w.closed {
		w.mu.Unlock()
		return mcpclient.Event{}, errors.New("the recording is closed")
	}
	i, ok := w.live.find(seq)
	if !ok {
		w.mu.Unlock()
		return mcpclient.Event{}, fmt.Errorf("no event #%d in the recording", seq)
	}
	off, end := w.live.off(i), w.bytes
	if i+1 < w.live.n {
		end = w.live.off(i + 1)
	}
	if w.live.rf == nil {
		f, err := os.Open(w.path)
		if err != nil {
			w.mu.Unlock()
			return mcpclient.Event{}, err
		}
		w.live.rf = f
	}
	rf, start, overHTTP := w.live.rf, w.hdrStart, w.overHTTP
	w.mu.Unlock()
	// The line is whole on disk (written in one call before its offset was indexed): read
	// it without holding up the recording.
	buf := make([]byte, end-off)
	n, err := rf.ReadAt(buf, off)
	if n == len(buf) {
		err = nil
	}
	if err != nil {
		return mcpclient.Event{}, &LineError{Index: i, Offset: off, Err: err}
	}
	r, err := decodeOwnedRecord(buf)
	if err != nil {
		return mcpclient.Event{}, &LineError{Index: i, Offset: off, Err: err}
	}
	if r.Seq != seq {
		return mcpclient.Event{}, &LineError{Index: i, Offset: off, Err: fmt.Errorf("line holds event #%d, want #%d", r.Seq, seq)}
	}
	return r.event(start, overHTTP), nil
}

// awaitWrite bounds how long EventBySeq waits for the recording to reach an event.
const awaitWrite = 5 * time.Second

// awaitSeq returns once seq was written, or the recording is closed, or awaitWrite passed.
func (w *Writer) awaitSeq(seq uint64) {
	deadline := time.Now().Add(awaitWrite)
	for {
		w.mu.Lock()
		behind := w.live != nil && !w.closed && (w.live.n == 0 || w.live.seq(w.live.n-1) < seq)
		w.mu.Unlock()
		if !behind || time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
