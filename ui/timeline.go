package ui

import (
	"sort"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/ui/sanitize"
)

// timeline keeps every event in arrival order plus the indexes the panes need, built
// incrementally as events arrive so nothing is recomputed per frame.
type timeline struct {
	events []mcpclient.Event
	base   time.Time
	// Filter indexes: positions in events.
	messages []int
	problems []int
	stderr   []int
	// respOf links a request's Seq to its response's Seq (Event.Pair links back).
	respOf map[uint64]uint64
	// violations counts events with at least one Warning problem.
	violations int
	// controls marks, per event position, frames whose bytes hold terminal control or
	// invisible characters (computed once on arrival: the badge is exact and costs nothing
	// per frame drawn).
	controls []bool
}

func newTimeline() *timeline {
	return &timeline{respOf: map[uint64]uint64{}}
}

func hasWarning(ev *mcpclient.Event) bool {
	for _, p := range ev.Problems {
		if p.Severity >= mcpclient.Warning {
			return true
		}
	}
	return false
}

func (t *timeline) add(ev mcpclient.Event) {
	if len(t.events) == 0 {
		t.base = ev.Time
	}
	i := len(t.events)
	t.events = append(t.events, ev)
	e := &t.events[i]
	t.controls = append(t.controls, e.Dir != mcpclient.Lifecycle && sanitize.HasControls(e.Raw))
	if e.Kind.IsMessage() || e.Kind == mcpclient.KindBatch {
		t.messages = append(t.messages, i)
	}
	if hasWarning(e) {
		t.problems = append(t.problems, i)
		t.violations++
	}
	if e.Dir == mcpclient.Stderr {
		t.stderr = append(t.stderr, i)
	}
	if e.Pair != 0 && (e.Kind == mcpclient.KindResponse || e.Kind == mcpclient.KindErrorResponse) {
		if _, seen := t.respOf[e.Pair]; !seen {
			t.respOf[e.Pair] = e.Seq
		}
	}
}

// hasControls reports whether the event at position i holds control characters.
func (t *timeline) hasControls(i int) bool { return i >= 0 && i < len(t.controls) && t.controls[i] }

// index finds the position of the event with the given Seq.
func (t *timeline) index(seq uint64) (int, bool) {
	// Seqs normally count from 1 without gaps: try the direct slot first.
	if seq >= 1 && int(seq-1) < len(t.events) && t.events[seq-1].Seq == seq {
		return int(seq - 1), true
	}
	i := sort.Search(len(t.events), func(i int) bool { return t.events[i].Seq >= seq })
	if i < len(t.events) && t.events[i].Seq == seq {
		return i, true
	}
	return 0, false
}

// partner is the Seq of the event linked to ev: its response for a request, its request
// for a response, a progress notification or our reply to a server request.
func (t *timeline) partner(ev *mcpclient.Event) (uint64, bool) {
	if ev.Kind == mcpclient.KindRequest {
		if r, ok := t.respOf[ev.Seq]; ok {
			return r, true
		}
		return 0, false
	}
	if ev.Pair != 0 {
		return ev.Pair, true
	}
	return 0, false
}

// sameReadWindow is how close in time two adjacent frames of one stream must complete for
// sameRead to say they probably came in one read(): frames of one read are framed one
// after the other without waiting, frames of separate reads wait for the server's next
// write.
const sameReadWindow = time.Millisecond

// sameRead finds the frame ev probably shared its first read() with: the frame before it
// on the same stream (stdout or stderr), which ended exactly where ev begins, when ev came
// whole in that read and was complete within sameReadWindow of it (case B02: a
// notification and a response written in one buffer). mcpclient does not mark where reads
// begin between frames yet, so this is inferred from offsets and times.
func (t *timeline) sameRead(ev *mcpclient.Event) (uint64, bool) {
	if (ev.Dir != mcpclient.ServerToClient && ev.Dir != mcpclient.Stderr) || ev.ChunkCount > 0 || ev.Offset == 0 {
		return 0, false
	}
	i, ok := t.index(ev.Seq)
	if !ok {
		return 0, false
	}
	// Look back a bounded number of events for the previous frame of the stream.
	for j := i - 1; j >= 0 && j >= i-4096; j-- {
		prev := &t.events[j]
		if prev.Dir != ev.Dir {
			continue
		}
		if prev.Offset+prev.Size == ev.Offset && ev.Time.Sub(prev.Time) < sameReadWindow {
			return prev.Seq, true
		}
		return 0, false
	}
	return 0, false
}

// sameReadGap is the time between ev and the frame seq, for sameRead's note.
func (t *timeline) sameReadGap(ev *mcpclient.Event, seq uint64) time.Duration {
	if j, ok := t.index(seq); ok {
		return ev.Time.Sub(t.events[j].Time).Round(time.Microsecond)
	}
	return 0
}

// stderrTail returns the last n stderr lines (raw text, unsanitized).
func (t *timeline) stderrTail(n int) []string {
	from := max(len(t.stderr)-n, 0)
	var out []string
	for _, i := range t.stderr[from:] {
		out = append(out, trimEOL(string(t.events[i].Raw)))
	}
	return out
}

func trimEOL(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}
