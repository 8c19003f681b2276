package ui

import (
	"fmt"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// defaultNoFileBytes is how many bytes of its latest frames a live session with no
// recording (--no-save) keeps (32 MiB): older frames keep their rows, their bytes are
// dropped. Go's collector lets the heap grow to about twice what is held, so the bound
// costs twice its size: 64 MiB took a million-notification flood to 278 MB resident, over
// issue 26's 250 MB; 32 MiB to 212 MB.
const defaultNoFileBytes = 32 << 20

// noFileEvents bounds the frames whose bytes an unrecorded session keeps, however small
// (each costs a slice header besides its bytes).
const noFileEvents = 1 << 20

// noFileFrameCost is what a kept frame costs besides its bytes (its slice header and the
// allocation's rounding): with it the bound is memory held, also for a flood of small
// frames, where the bytes alone are half of it.
const noFileFrameCost = 48

// rawCost is what keeping raw counts against the bound: its bytes, and for an unrecorded
// session the frame's own cost.
func (t *timeline) rawCost(raw []byte) int64 {
	if t.noFile != "" {
		return int64(len(raw)) + noFileFrameCost
	}
	return int64(len(raw))
}

// droppedError is why the bytes of an unrecorded session's older frame are not there.
type droppedError struct{ t *timeline }

func (e droppedError) Error() string {
	return e.t.droppedNotice() + "; this frame's bytes are gone (--record FILE keeps every frame)"
}

// setNoFile makes a live session with no recording keep the bytes of its latest frames
// only, up to limit bytes (defaultNoFileBytes when 0): the older frames' rows, filters
// and pairing stay, their bytes are dropped, and the wire pane says how many and why
// (reason: "--no-save keeps no file"). Memory then follows the bound, not the session's
// length (#15).
func (t *timeline) setNoFile(reason string, limit int64) {
	if limit <= 0 {
		limit = defaultNoFileBytes
	}
	t.noFile, t.keep, t.keepBytes = reason, noFileEvents, limit
}

// dropped notes the frame at position i, whose bytes keepRaw just let go.
func (t *timeline) dropped(i int, n int) {
	if t.noFile == "" {
		return
	}
	if t.evs.at(i).dir != mcpclient.Lifecycle {
		t.droppedFrames++
	}
	t.droppedBytes += int64(n)
}

// droppedAt reports whether the bytes of the frame at position i were dropped.
func (t *timeline) droppedAt(i int) bool { return t.noFile != "" && i < t.rawBase }

// droppedNotice says how many frames' bytes were dropped and why ("" when none were).
func (t *timeline) droppedNotice() string {
	if t.droppedFrames == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %s (%s) dropped, the newest %s kept", t.noFile,
		jsontext.Count(t.droppedFrames, "earlier frame", "earlier frames"), humanSize(t.droppedBytes), humanSize(t.keepBytes))
}

// droppedLine reports whether the wire list shows the dropped-frames notice under its
// title: when an unrecorded session dropped frames and the list has room for it.
func (p *wirePane) droppedLine() bool { return p.tl.droppedFrames > 0 && p.list.h > 3 }
