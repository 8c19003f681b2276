package ui

// The packing of tlEvent: accessors for the values it keeps narrow (#15).

import (
	"math"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Markers of a value kept in timeline.wide.
const (
	sizeWide   = math.MaxUint32
	pairWide   = math.MinInt32
	methodWide = math.MaxUint16
	probsWide  = math.MaxUint16
)

// wideVals are the values of one event too wide for its tlEvent.
type wideVals struct {
	size   int64
	pair   uint64
	method string
	probs  uint32
	offset int64
}

// offStride is how many events share one mark of the streams' running offsets: offsetOf
// adds up at most that many sizes.
const offStride = 128

// noteOffset files the stream offset of e, the event at position i: nothing when it
// continues its stream (the offset of the stream's previous event plus that event's size,
// as mcpclient counts them and the trace reader derives them), else in the wide map. The
// running offset follows the event either way.
func (t *timeline) noteOffset(e *tlEvent, i int, off int64) {
	if i%offStride == 0 {
		t.offMarks = append(t.offMarks, t.runOff)
	}
	d := int(e.dir)
	if d < len(t.runOff) && off == t.runOff[d] {
		e.flags |= evRunOff
	} else {
		w := t.wide[e.seq]
		w.offset = off
		t.wide[e.seq] = w
	}
	if d < len(t.runOff) {
		t.runOff[d] = off + t.sizeOf(e)
	}
}

// offsetOf is the stream offset of the event at position i: from the mark before it, the
// sizes of the events of its stream in between.
func (t *timeline) offsetOf(i int) int64 {
	e := t.evs.at(i)
	if e.flags&evRunOff == 0 {
		return t.wide[e.seq].offset
	}
	k := i / offStride
	run := t.offMarks[k]
	for j := k * offStride; j < i; j++ {
		p := t.evs.at(j)
		d := int(p.dir)
		if d >= len(run) {
			continue
		}
		if p.flags&evRunOff == 0 {
			run[d] = t.wide[p.seq].offset
		}
		run[d] += t.sizeOf(p)
	}
	return run[e.dir]
}

// sizeOf is the frame's length in bytes.
func (t *timeline) sizeOf(e *tlEvent) int64 {
	if e.size == sizeWide {
		return t.wide[e.seq].size
	}
	return int64(e.size)
}

// pairOf is the Seq e is linked to (see tlEvent.pair), 0 for none.
func (t *timeline) pairOf(e *tlEvent) uint64 {
	switch e.pair {
	case 0:
		return 0
	case pairWide:
		return t.wide[e.seq].pair
	}
	return uint64(int64(e.seq) + int64(e.pair))
}

// setPair links e to the event p (0: none).
func (t *timeline) setPair(e *tlEvent, p uint64) {
	if p == 0 {
		e.pair = 0
		return
	}
	if p <= math.MaxInt64 && e.seq <= math.MaxInt64 {
		if d := int64(p) - int64(e.seq); d != 0 && d > pairWide && d <= math.MaxInt32 {
			e.pair = int32(d)
			return
		}
	}
	w := t.wide[e.seq]
	w.pair = p
	t.wide[e.seq] = w
	e.pair = pairWide
}

// probsOf is the event's problem list.
func (t *timeline) probsOf(e *tlEvent) []mcpclient.Problem {
	if e.probs == probsWide {
		return t.plists[t.wide[e.seq].probs]
	}
	return t.plists[e.probs]
}

// setProbs files the event's problem list (an index into plists).
func (t *timeline) setProbs(e *tlEvent, i uint32) {
	if i < probsWide {
		e.probs = uint16(i)
		return
	}
	w := t.wide[e.seq]
	w.probs = i
	t.wide[e.seq] = w
	e.probs = probsWide
}

// setSize files the frame's length.
func (t *timeline) setSize(e *tlEvent, n int64) {
	if n >= 0 && n < sizeWide {
		e.size = uint32(n)
		return
	}
	w := t.wide[e.seq]
	w.size = n
	t.wide[e.seq] = w
	e.size = sizeWide
}

// setMethod files the event's method.
func (t *timeline) setMethod(e *tlEvent, m string) {
	if i, ok := t.methodIdx[m]; ok {
		e.method = i
		return
	}
	if len(t.methods) < methodWide {
		i := uint16(len(t.methods))
		t.methods = append(t.methods, m)
		t.methodIdx[m] = i
		e.method = i
		return
	}
	w := t.wide[e.seq]
	w.method = m
	t.wide[e.seq] = w
	e.method = methodWide
}
