package ui

import (
	"testing"
)

// TestHugeMessagePeak: a 50 MiB tools/call response from a real server process, read,
// recorded and shown: the heap grows by at most 3× the message while it arrives (issue
// 15's target), and keeps at most 2.5× after it (the frame's bytes and the result's text).
// Before the copies were cut the peak was 4 to 5× (the framer's buffer grown by append, the
// trace line encoded whole, the content block kept twice).
func TestHugeMessagePeak(t *testing.T) {
	const size = 50 << 20
	l, _, closeTrace := startRecordedB03(t, 0)
	defer closeTrace()
	base := liveHeap()
	_, peak := callBig(t, l, size)
	growth := int64(peak) - int64(base)
	kept := int64(liveHeap()) - int64(base)
	t.Logf("50 MiB response: heap %d MiB before, peak +%.2f× the message, +%.2f× kept after it", base>>20, float64(growth)/size, float64(kept)/size)
	if growth > 3*size {
		t.Errorf("the heap grew by %d MiB (%.2f× the 50 MiB message) while it arrived, want at most 3×", growth>>20, float64(growth)/size)
	}
	if kept > 5*size/2 {
		t.Errorf("%d MiB kept after the call (%.2f× the message), want at most 2.5×", kept>>20, float64(kept)/size)
	}
}
