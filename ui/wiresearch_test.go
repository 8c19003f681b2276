package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// toolSession is wireSession plus a tools/list, an echo call that fails as a tool error,
// and a log notification whose text is written with a JSON escape.
func toolSession() []mcpclient.Event {
	evs := wireSession()
	list := ev(6, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n")
	listRes := ev(7, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo"}]}}`+"\n")
	listRes.Pair, listRes.Method = 6, "tools/list"
	call := ev(8, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`+"\n")
	callRes := ev(9, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":3,"result":{"isError":true,"content":[{"type":"text","text":"boom"}]}}`+"\n")
	callRes.Pair, callRes.Method = 8, "tools/call"
	note := ev(10, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"caf\u00e9 ready"}}`+"\n")
	return append(evs, list, listRes, call, callRes, note)
}

// shownSeqs are the Seqs of the rows the wire list shows, in order.
func shownSeqs(m *model) string {
	var s []string
	for r := range m.wire.count() {
		s = append(s, fmt.Sprint(m.wire.tl.evs.at(m.wire.at(r)).seq))
	}
	return strings.Join(s, " ")
}

func setWireFilter(t *testing.T, m *model, expr string) {
	t.Helper()
	keys(t, m, "F", "ctrl+u")
	typeIn(t, m, expr)
	keys(t, m, "enter")
}

// TestWireFilterExpressions is the filter language's table on a real timeline: the
// adapter from timeline events (direction, kind, method, id, tool, tool errors, problems,
// time) to the language.
func TestWireFilterExpressions(t *testing.T) {
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: toolSession()})
	keys(t, m, "3")
	for _, tc := range []struct{ expr, want string }{
		{"dir:out", "2 6 8"},
		{"dir:<", "4 5 7 9 10"},
		{"dir:stderr|lifecycle", "1 3"},
		{"kind:request", "2 6 8"},
		{"kind:invalid", "5"},
		{"kind:notification", "10"},
		{"method:tools/*", "6 7 8 9"},
		{"method:tools/* dir:in", "7 9"},
		{"id:3", "8 9"},
		{"tool:echo", "8 9"},
		{"is:tool-error", "9"},
		{"is:problem", "5"},
		{"starting", "3"},
		{"café", "10"},
		{"text:ECHO", "7 8"},
		{"time:>8ms", "10"},
		{"time:>=8ms", "9 10"},
		{"time:1ms..3ms", "2 3 4"},
		{"!dir:in !dir:out", "1 3"},
		{"kind:request | is:problem", "2 5 6 8"},
		{"(method:initialize | tool:echo) dir:out", "2 8"},
	} {
		setWireFilter(t, m, tc.expr)
		if m.wire.find.mode != findNone {
			t.Fatalf("%q: the input stayed open: %s", tc.expr, m.wire.find.err)
		}
		if got := shownSeqs(m); got != tc.want {
			t.Errorf("%q shows %q, want %q", tc.expr, got, tc.want)
		}
		if !strings.Contains(view(m), "wire · filter: "+tc.expr+" · ") {
			t.Errorf("%q: the title does not show the filter:\n%s", tc.expr, view(m))
		}
	}
	// A new event passes through the filter as it arrives.
	setWireFilter(t, m, "tool:echo")
	next := ev(11, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo"}}`+"\n")
	other := ev(12, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add"}}`+"\n")
	drive(t, m, eventsMsg{events: []mcpclient.Event{next, other}})
	if got := shownSeqs(m); got != "8 9 11" {
		t.Errorf("after new events tool:echo shows %q, want 8 9 11", got)
	}
}

func TestWireFilterErrorKeepsFilterAndHistory(t *testing.T) {
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: toolSession()})
	keys(t, m, "3")
	setWireFilter(t, m, "dir:out")
	setWireFilter(t, m, "kind:notification")
	// A malformed filter: the input stays open naming the column; the filter in force stays.
	setWireFilter(t, m, "method:tools/* dir:up")
	if m.wire.find.mode != findFilter {
		t.Fatalf("a malformed filter closed the input")
	}
	out := view(m)
	mustContain(t, "error", out, `column 20: dir: "up" is not in, out`, "wire · filter: kind:notification · 1/10")
	// The caret sits under the column: "filter: " then 19 characters.
	if !strings.Contains(out, "\n"+strings.Repeat(" ", 8+19)+"^ column 20") {
		t.Errorf("the caret is not under column 20:\n%s", out)
	}
	// Typing q or a pane digit is text there.
	typeIn(t, m, "q1")
	if m.focus != paneWire || m.wire.find.in.Value() != "method:tools/* dir:upq1" {
		t.Fatalf("q1 left the input: focus %v, value %q", m.focus, m.wire.find.in.Value())
	}
	// ↑ brings the earlier filters back, newest first; ↓ returns to the line typed.
	keys(t, m, "up")
	if v := m.wire.find.in.Value(); v != "kind:notification" {
		t.Fatalf("↑ shows %q, want kind:notification", v)
	}
	keys(t, m, "up", "up")
	if v := m.wire.find.in.Value(); v != "dir:out" {
		t.Fatalf("↑↑ shows %q, want the oldest, dir:out", v)
	}
	keys(t, m, "down", "down")
	if v := m.wire.find.in.Value(); v != "method:tools/* dir:upq1" {
		t.Fatalf("↓↓ shows %q, want the line typed", v)
	}
	keys(t, m, "up", "up", "enter")
	if got := shownSeqs(m); got != "2 6 8" {
		t.Fatalf("the recalled dir:out shows %q", got)
	}
	// esc leaves the filter as it is.
	keys(t, m, "F", "ctrl+u", "esc")
	if got := shownSeqs(m); got != "2 6 8" {
		t.Fatalf("esc changed the filter: %q", got)
	}
	// The preset key still steps the four presets, replacing the expression.
	keys(t, m, "f")
	mustContain(t, "preset", view(m), "wire · messages · 7/10")
	if got := shownSeqs(m); got != "2 4 6 7 8 9 10" {
		t.Fatalf("the messages preset shows %q", got)
	}
	// Each preset is its expression.
	for f := range filterCount {
		m.wire.filter = f
		m.wire.find.expr = wirefilter.Filter{}
		want := shownSeqs(m)
		setWireFilter(t, m, presetExpr(f))
		if got := shownSeqs(m); got != want {
			t.Errorf("preset %s shows %q, its expression %q shows %q", f, want, presetExpr(f), got)
		}
	}
}

func TestWireSearch(t *testing.T) {
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: toolSession()})
	keys(t, m, "3", "g") // first event selected
	keys(t, m, "/")
	typeIn(t, m, "ech")
	// Incremental: the first match after the selection, as typed.
	if s := m.wire.selected().seq; s != 7 {
		t.Fatalf("/ech selected #%d, want #7 (tools/list's result names echo)", s)
	}
	typeIn(t, m, "o\"")
	if s := m.wire.selected().seq; s != 7 {
		t.Fatalf("/echo\" selected #%d, want #7", s)
	}
	mustContain(t, "search line", view(m), `/echo"`, "match 1 of 2")
	keys(t, m, "enter")
	if m.wire.find.mode != findNone {
		t.Fatal("enter did not close the search input")
	}
	// n goes to the frame's second hit (its parsed view) before the next frame.
	keys(t, m, "n")
	if s, at := m.wire.selected().seq, m.wire.find.page.at; s != 7 || at != 1 {
		t.Fatalf("n selected #%d hit %d, want #7 hit 1", s, at)
	}
	keys(t, m, "n")
	if s := m.wire.selected().seq; s != 8 {
		t.Fatalf("n selected #%d, want #8", s)
	}
	mustContain(t, "search line", view(m), `/echo" · match 2 of 2, 1/2 in the frame · n/N next/previous`, `▸`)
	keys(t, m, "n", "n")
	if s := m.wire.selected().seq; s != 7 {
		t.Fatalf("n wrapped to #%d, want #7", s)
	}
	keys(t, m, "N")
	if s := m.wire.selected().seq; s != 8 {
		t.Fatalf("N wrapped back to #%d, want #8", s)
	}
	// The parsed JSON text is searched too: café is written caf\u00e9.
	keys(t, m, "/", "ctrl+u")
	typeIn(t, m, "CAFÉ")
	if s := m.wire.selected().seq; s != 10 {
		t.Fatalf("/CAFÉ selected #%d, want #10", s)
	}
	// esc gives the selection back and drops the search.
	keys(t, m, "esc")
	if s := m.wire.selected().seq; s != 8 || m.wire.find.query != "" {
		t.Fatalf("esc: #%d query %q, want #8 and no search", s, m.wire.find.query)
	}
	// Search and filter together: n only visits the rows shown (here #8's second hit).
	setWireFilter(t, m, "dir:out")
	keys(t, m, "/")
	typeIn(t, m, "echo")
	keys(t, m, "enter", "n")
	if s := m.wire.selected().seq; s != 8 {
		t.Fatalf("n under dir:out selected #%d, want #8 (the only outgoing match)", s)
	}
	mustContain(t, "count under a filter", view(m), "/echo · match 1 of 1, 2/2 in the frame ·")
	// / then enter keeps the search in force.
	keys(t, m, "/", "enter")
	if m.wire.find.query != "echo" {
		t.Fatalf("/ enter left the search %q, want echo", m.wire.find.query)
	}
	// No match: the selection stays.
	keys(t, m, "/", "ctrl+u")
	typeIn(t, m, "zzz")
	mustContain(t, "no match", view(m), "no match")
	if s := m.wire.selected().seq; s != 8 {
		t.Fatalf("a search without match moved the selection to #%d", s)
	}
	keys(t, m, "ctrl+u")
	typeIn(t, m, "echo")
	keys(t, m, "enter")
	setWireFilter(t, m, "dir:stderr")
	mustContain(t, "count under a filter", view(m), "/echo · 2 matches, none shown by the filter")
}

// TestWireSearchHighlights checks the match style reaches the list and the detail.
func TestWireSearchHighlights(t *testing.T) {
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: toolSession()})
	keys(t, m, "3", "/")
	typeIn(t, m, "boom")
	keys(t, m, "enter")
	plain := view(m)
	if !strings.Contains(plain, "boom") {
		t.Fatalf("the detail lacks the match:\n%s", plain)
	}
	styled := m.wire.highlight("x boom y BOOM")
	want := "x " + m.c.st.Match.Render("boom") + " y " + m.c.st.Match.Render("BOOM")
	if styled != want {
		t.Fatalf("highlight = %q, want %q", styled, want)
	}
}

func TestWireFilterGolden(t *testing.T) {
	m := newTestModel(t, nil, 140, 24)
	drive(t, m, eventsMsg{events: toolSession()})
	keys(t, m, "3")
	setWireFilter(t, m, "method:tools/* | is:problem")
	keys(t, m, "/")
	typeIn(t, m, "echo")
	keys(t, m, "enter")
	golden.RequireEqual(t, []byte(view(m)))
}

// TestWireSearchReadsTheTrace: when the bytes are read from the trace on demand (open),
// the search reads every frame through the loader in Cmds, not only the frames shown.
func TestWireSearchReadsTheTrace(t *testing.T) {
	evs := toolSession()
	bySeq := map[uint64]mcpclient.Event{}
	for _, e := range evs {
		bySeq[e.Seq] = e
	}
	m := newTestModel(t, nil, 140, 30)
	var loads int
	m.tl.setLoader(func(seq uint64) (mcpclient.Event, error) {
		loads++
		return bySeq[seq], nil
	})
	drive(t, m, eventsMsg{events: evs, closed: true})
	keys(t, m, "3", "g", "/")
	typeIn(t, m, "CAFÉ")
	if s := m.wire.selected().seq; s != 10 {
		t.Fatalf("/CAFÉ in a trace selected #%d, want #10", s)
	}
	mustContain(t, "search line", view(m), "/CAFÉ", "match 1 of 1")
	if loads < len(evs)-1 {
		t.Fatalf("the search read %d events from the trace, want every frame", loads)
	}
	// A chunk of an earlier search is dropped.
	keys(t, m, "enter")
	before := len(m.wire.find.hits)
	m.wire.searchRead(wireSearchMsg{gen: m.wire.find.search.gen - 1, from: m.wire.find.search.done, to: m.wire.find.search.done + 1, hits: []int32{2}})
	if len(m.wire.find.hits) != before {
		t.Fatal("a stale search chunk was taken")
	}
}

// TestWireSearchEnterBeforeFirstChunk: when the bytes are read from the trace in Cmds (a
// recorded live session, open), enter typed right after the query, before the search's
// first chunk came back, still jumps to the first match when the chunk comes, also from a
// list that followed the newest event; a selection moved meanwhile stays where it was.
func TestWireSearchEnterBeforeFirstChunk(t *testing.T) {
	evs := toolSession()
	bySeq := map[uint64]mcpclient.Event{}
	for _, e := range evs {
		bySeq[e.Seq] = e
	}
	for _, moved := range []bool{false, true} {
		m := newTestModel(t, nil, 140, 30)
		m.tl.setLoader(func(seq uint64) (mcpclient.Event, error) { return bySeq[seq], nil })
		drive(t, m, eventsMsg{events: evs, closed: true})
		keys(t, m, "3", "G", "/")
		var last tea.Cmd
		for _, r := range "boom" {
			_, last = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}) // the chunk Cmds are not run yet
		}
		m.Update(keyMsg("enter"))
		if s := m.wire.selected().seq; s != 10 {
			t.Fatalf("before the chunk came, #%d is selected, want the newest (#10)", s)
		}
		want := uint64(9) // the tools/call result: "boom"
		if moved {
			keys(t, m, "g")
			want = m.wire.selected().seq
		}
		chunk, ok := findMsg[wireSearchMsg](last)
		if !ok {
			t.Fatal("typing the query asked for no search chunk")
		}
		drive(t, m, chunk)
		if s := m.wire.selected().seq; s != want {
			t.Errorf("moved %v: enter before the first chunk left #%d selected, want #%d", moved, s, want)
		}
	}
}
