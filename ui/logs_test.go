package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// logFlood feeds n flood notifications (seq from..from+n-1) to m in pump-sized batches.
func logFlood(m *model, from uint64, n int) {
	for s := from; s < from+uint64(n); s += maxBatch {
		m.Update(eventsMsg{events: floodEvents(s, min(maxBatch, int(from+uint64(n)-s)))})
	}
}

// TestLogsBoundedWithNote: a flood beyond the Logs pane's bound keeps the newest entries,
// counts the others, and says so on screen; the wire pane keeps every message.
func TestLogsBoundedWithNote(t *testing.T) {
	m := newTestModel(t, nil, 160, 40)
	const n = logsKeep + 3*logsDropChunk + 17
	logFlood(m, 1, n)
	lp := m.logs
	if len(lp.entries) > logsKeep+logsDropChunk || len(lp.entries) < logsKeep {
		t.Fatalf("%d entries kept, want between %d and %d", len(lp.entries), logsKeep, logsKeep+logsDropChunk)
	}
	if lp.dropped+len(lp.entries) != n {
		t.Fatalf("dropped %d + kept %d != %d", lp.dropped, len(lp.entries), n)
	}
	// The kept entries are the newest, in order, without a gap.
	for i, e := range lp.entries {
		want := fmt.Sprintf("flood %06d", lp.dropped+i+1)
		if e.text != want || e.seq != uint64(lp.dropped+i+1) {
			t.Fatalf("entry %d = %q (seq %d), want %q", i, e.text, e.seq, want)
		}
	}
	if m.wire.count() != n {
		t.Fatalf("the wire pane holds %d events, want all %d", m.wire.count(), n)
	}
	keys(t, m, "7")
	v := view(m)
	for _, want := range []string{
		fmt.Sprintf("logs & notifications (%d)", n),
		fmt.Sprintf("%d older entries dropped from view", lp.dropped),
		"wire pane (3) and in the recording",
		fmt.Sprintf("flood %06d", n),
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the Logs pane lacks %q:\n%s", want, v)
		}
	}
}

// TestLogsDropKeepsSelection: an entry the user selected (the view no longer following)
// stays selected when older entries drop out under it.
func TestLogsDropKeepsSelection(t *testing.T) {
	m := newTestModel(t, nil, 160, 40)
	logFlood(m, 1, logsKeep+logsDropChunk)
	keys(t, m, "7")
	for range 3 {
		keys(t, m, "up")
	}
	sel := m.logs.entries[m.logs.shown[m.logs.sel]].seq
	logFlood(m, logsKeep+logsDropChunk+1, 10)
	if m.logs.dropped != logsDropChunk {
		t.Fatalf("dropped %d, want %d", m.logs.dropped, logsDropChunk)
	}
	if got := m.logs.entries[m.logs.shown[m.logs.sel]].seq; got != sel {
		t.Fatalf("selection moved from #%d to #%d", sel, got)
	}
	if m.logs.follow {
		t.Fatal("the view should not follow after the user moved up")
	}
}

// TestLogJSONDataShownPretty: a log message whose data is an object is one compact line in
// the list and pretty-printed when selected; a string that looks like JSON stays as sent.
func TestLogJSONDataShownPretty(t *testing.T) {
	m := newTestModel(t, nil, 160, 40)
	m.Update(eventsMsg{events: []mcpclient.Event{
		ev(1, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"db","data":"{\"a\":1}"}}`+"\n"),
		ev(2, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"db","data":{"query":"select 1","rows":3}}}`+"\n"),
	}})
	keys(t, m, "7")
	if v := view(m); !strings.Contains(v, `"query": "select 1"`) || !strings.Contains(v, `{"query":"select 1","rows":3}`) {
		t.Fatalf("JSON data: want a compact row and a pretty detail:\n%s", v)
	}
	if m.logs.entries[0].logger != "db" || m.logs.entries[1].level != "error" {
		t.Fatalf("entries %+v", m.logs.entries)
	}
	keys(t, m, "up")
	if v := view(m); strings.Contains(v, `"a": 1`) {
		t.Fatalf("string data must not be reformatted:\n%s", v)
	}
}

// logEv is a notifications/message the server sent at offset at (from t0).
func logEv(seq uint64, at time.Duration, data string) mcpclient.Event {
	e := ev(seq, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"`+data+`"}}`)
	e.Time = t0.Add(at)
	return e
}

// The Logs pane keeps its entries in time order (a note mcp-inspect makes while handling
// an event is stamped later than events that arrived before it was drawn) and keeps one
// width for the time column past the first minute.
func TestLogsTimeOrderAndFixedTimeColumn(t *testing.T) {
	m := newTestModel(t, nil, 140, 40)
	drive(t, m, eventsMsg{events: []mcpclient.Event{logEv(1, 0, "first")}})
	m.note("info", "a note at 1.5s") // m.now is t0+1.5s
	drive(t, m, eventsMsg{events: []mcpclient.Event{logEv(2, time.Second, "second"), logEv(3, 77*time.Second+22*time.Millisecond, "late"), logEv(4, 150*time.Second+9*time.Millisecond, "latest")}})
	keys(t, m, "7")
	var rows []string
	for _, l := range strings.Split(view(m), "\n") {
		if strings.HasPrefix(strings.TrimPrefix(strings.TrimSpace(l), "▸"), "+") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 5 {
		t.Fatalf("log rows: %q\n%s", rows, view(m))
	}
	for i, w := range []string{"first", "second", "a note at 1.5s", "late", "latest"} {
		if !strings.Contains(rows[i], w) {
			t.Errorf("row %d is %q, want %q there (time order)", i, rows[i], w)
		}
	}
	for i, w := range []string{"+     0ms", "+  1000ms", "+  1500ms", "+ 77022ms", "+150009ms"} {
		if !strings.Contains(rows[i], w) {
			t.Errorf("row %d is %q, want time %q", i, rows[i], w)
		}
	}
	// Columns in cells (the selection mark "▸" is one cell, three bytes).
	colOf := func(r string) int { return len([]rune(r[:strings.Index(r, "ms ")])) }
	col := colOf(rows[0])
	for _, r := range rows {
		if i := colOf(r); i != col {
			t.Errorf("the level column moved (%d, not %d): %q", i, col, r)
		}
	}
}

// Logs: notifications/message with level, logger and data; f filters by level; l sets the
// server's level through logging/setLevel.
func TestLogsPane(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{
		ev(5, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"debug","logger":"db","data":"connecting"}}`+"\n"),
		ev(6, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"db","data":{"code":7,"why":"refused"}}}`+"\n"),
	}})
	keys(t, m, "7")
	mustContain(t, "logs", view(m), "debug    [db] connecting", "error    [db] {\"code\":7", `"why": "refused"`, "logger db", "wire #6")
	keys(t, m, "f", "f", "f", "f", "f") // info, notice, warning, error
	out := view(m)
	if strings.Contains(out, "connecting") || !strings.Contains(out, "showing error and above") {
		t.Fatalf("filter:\n%s", out)
	}
	keys(t, m, "l", "right", "right", "enter") // info → warning
	if len(s.levels) != 1 || s.levels[0] != "warning" {
		t.Fatalf("levels %q", s.levels)
	}
	keys(t, m, "f", "f", "f", "f")
	mustContain(t, "level set", view(m), "server level: warning", "logging/setLevel warning accepted")
}
