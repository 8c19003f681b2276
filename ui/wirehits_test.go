package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// textResult is a tools/call response frame whose one text block is text.
func textResult(seq uint64, text string) mcpclient.Event {
	e := ev(seq, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"`+text+`"}]}}`+"\n")
	e.Pair, e.Method = 2, "tools/call"
	return e
}

// detailShown is the detail part of the wire pane as drawn, one string.
func detailShown(m *model) string { return m.wire.viewDetail() }

// searchFor types a search and closes its input (the search stays in force).
func searchFor(t *testing.T, m *model, q string) {
	t.Helper()
	keys(t, m, "/")
	typeIn(t, m, q)
	keys(t, m, "enter")
}

// wrapPad is the text before "needle" that puts the frame's raw bytes line break 3
// characters into it, for a detail w wide (raw bytes wrap at the full width).
func wrapPad(w, lines int) string {
	prefix := len(`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"`)
	return strings.Repeat("a", lines*w-3-prefix)
}

// TestWireSearchScrollsToTheHit: a frame far longer than the detail, its only match near
// its end: after / the line holding the match is on screen, the hit highlighted.
func TestWireSearchScrollsToTheHit(t *testing.T) {
	m := newTestModel(t, nil, 120, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{wireSession()[1]}})
	keys(t, m, "3")
	w := m.wire.det.w
	long := textResult(6, strings.Repeat("x", 60*w)+"the needle here")
	drive(t, m, eventsMsg{events: []mcpclient.Event{long}})
	keys(t, m, "g")
	if strings.Contains(detailShown(m), "needle") {
		t.Fatal("the match is on screen before the search: the frame is not long enough")
	}
	searchFor(t, m, "needle")
	if s := m.wire.selected().seq; s != 6 {
		t.Fatalf("/needle selected #%d, want #6", s)
	}
	if got := detailShown(m); !strings.Contains(got, "needle") {
		t.Fatalf("after /needle the detail does not show the match (offset %d):\n%s", m.wire.detailOff, got)
	}
	ph := m.wire.find.page
	if ph.at != 0 || len(ph.hits) == 0 {
		t.Fatalf("page hits %+v, want the first one current", ph)
	}
	// The hit's columns hold the match on its line, and the drawn line marks them.
	part := ph.hits[0].parts[0]
	line := m.wire.detail.lines[part.line]
	if got := strings.ToLower(cutCols(line, part.from, part.to)); got != "needle" {
		t.Fatalf("the hit covers %q, want needle", got)
	}
	out := []string{line}
	m.wire.markPageHits(out, part.line)
	if want := m.c.st.MatchCurrent.Render("needle"); !m.c.st.Plain && !strings.Contains(out[0], want) {
		t.Fatalf("the current hit is not marked: %q", out[0])
	}
}

// cutCols is the plain text of display columns [from, to) of a drawn line.
func cutCols(line string, from, to int) string {
	return ansi.Cut(ansi.Strip(line), from, to)
}

// TestWireSearchHitThatWraps: a match the raw bytes wrap over two lines is found, marked
// on both lines, and brought into view.
func TestWireSearchHitThatWraps(t *testing.T) {
	m := newTestModel(t, nil, 120, 30, func(o *Options) { o.Theme = "dark" })
	drive(t, m, eventsMsg{events: []mcpclient.Event{wireSession()[1]}})
	keys(t, m, "3")
	w := m.wire.det.w
	drive(t, m, eventsMsg{events: []mcpclient.Event{textResult(6, wrapPad(w, 40)+"needle")}})
	keys(t, m, "g")
	searchFor(t, m, "needle")
	ph := m.wire.find.page
	if len(ph.hits) == 0 || len(ph.hits[0].parts) != 2 {
		t.Fatalf("the wrapped match is not found over two lines: %+v", ph.hits)
	}
	a, b := ph.hits[0].parts[0], ph.hits[0].parts[1]
	if b.line != a.line+1 || a.to-a.from != 3 || b.from != 0 || b.to != 3 {
		t.Fatalf("parts %+v %+v, want the last 3 columns of a line and the first 3 of the next", a, b)
	}
	lines := m.wire.detail.lines
	if got := cutCols(lines[a.line], a.from, a.to) + cutCols(lines[b.line], b.from, b.to); got != "needle" {
		t.Fatalf("the parts cover %q, want needle", got)
	}
	shown := strings.Split(detailShown(m), "\n")
	off := clampScroll(m.wire.detailOff, len(lines)+m.wire.js.len(), m.wire.js.rows(m.wire.det.h))
	if a.line < off || b.line >= off+len(shown) {
		t.Fatalf("the wrapped hit (lines %d-%d) is not in view (from line %d)", a.line, b.line, off)
	}
	cur := m.c.st.MatchCurrent
	if !strings.Contains(shown[a.line-off], cur.Render("nee")) || !strings.Contains(shown[b.line-off], cur.Render("dle")) {
		t.Fatalf("the wrapped hit is not marked on both lines:\n%q\n%q", shown[a.line-off], shown[b.line-off])
	}
}

// TestWireSearchStepsInsideFrames: n and N visit each hit of a frame (raw bytes, then the
// parsed view) before the next or previous frame, wrapping around.
func TestWireSearchStepsInsideFrames(t *testing.T) {
	m := newTestModel(t, nil, 120, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{wireSession()[1], textResult(6, "a needle"), textResult(7, "other"), textResult(8, "b needle")}})
	keys(t, m, "3", "g")
	searchFor(t, m, "needle")
	type pos struct {
		seq uint64
		at  int
	}
	where := func() pos { return pos{m.wire.selected().seq, m.wire.find.page.at} }
	if got := where(); got != (pos{6, 0}) {
		t.Fatalf("/needle at %+v, want #6 hit 0", got)
	}
	if n := len(m.wire.find.page.hits); n != 2 {
		t.Fatalf("#6 has %d hits in its detail, want 2 (raw bytes and parsed)", n)
	}
	for i, step := range []struct {
		key  string
		want pos
	}{
		{"n", pos{6, 1}}, {"n", pos{8, 0}}, {"n", pos{8, 1}}, {"n", pos{6, 0}},
		{"N", pos{8, 1}}, {"N", pos{8, 0}}, {"N", pos{6, 1}}, {"N", pos{6, 0}},
	} {
		keys(t, m, step.key)
		if got := where(); got != step.want {
			t.Fatalf("step %d (%s): at %+v, want %+v", i, step.key, got, step.want)
		}
		// The current hit's line is on screen.
		ph := m.wire.find.page
		line := ph.hits[ph.at].parts[0].line
		off := clampScroll(m.wire.detailOff, len(m.wire.detail.lines)+m.wire.js.len(), m.wire.js.rows(m.wire.det.h))
		if line < off || line >= off+m.wire.det.h {
			t.Fatalf("step %d: hit line %d not in view from %d", i, line, off)
		}
	}
	// Moving to a frame by hand: n starts at that frame's first hit.
	keys(t, m, "G")
	if got := where(); got.seq != 8 {
		t.Fatalf("G selected #%d", got.seq)
	}
	keys(t, m, "n")
	if got := where(); got != (pos{8, 0}) {
		t.Fatalf("n after G at %+v, want #8 hit 0", got)
	}
	mustContain(t, "search line", view(m), fmt.Sprintf("match %d of %d, 1/2 in the frame", 2, 2))
	keys(t, m, "n")
	mustContain(t, "search line", view(m), "match 2 of 2, 2/2 in the frame")
}

// TestWireSearchLongFrameGolden is the wire pane after / found a match at the end of a
// frame far longer than the detail, the match wrapping over two raw lines.
func TestWireSearchLongFrameGolden(t *testing.T) {
	m := newTestModel(t, nil, 120, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{wireSession()[1]}})
	keys(t, m, "3")
	drive(t, m, eventsMsg{events: []mcpclient.Event{textResult(6, wrapPad(m.wire.det.w, 40)+"needle and more text")}})
	keys(t, m, "g")
	searchFor(t, m, "needle")
	golden.RequireEqual(t, []byte(view(m)))
}
