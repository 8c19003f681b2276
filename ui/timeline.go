package ui

import (
	"sort"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
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
