package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// pingFlood are events seq from..to-1 of a flood: every fifth a ping request, the
// others notifications.
func pingFlood(from, to int) []mcpclient.Event {
	var evs []mcpclient.Event
	for i := from; i < to; i++ {
		if i%5 == 0 {
			evs = append(evs, ev(uint64(i+1), mcpclient.ClientToServer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i)))
			continue
		}
		raw := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"flood %07d"}}`+"\n", i)
		evs = append(evs, ev(uint64(i+1), mcpclient.ServerToClient, raw))
	}
	return evs
}

// TestWireFilterLiveIsChunked: applying a filter expression to a long live history (a
// flood) matches a bounded chunk of events per Update, so keys and ctrl+c wait for one
// chunk; a newer filter drops the older one's chunks, events arriving meanwhile are
// matched too, and when the chunks have run the rows are those of a full scan, with the
// event selected before still selected.
func TestWireFilterLiveIsChunked(t *testing.T) {
	const n, more = 200_000, 1000
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: pingFlood(0, n)})
	keys(t, m, "3")
	if !m.wire.jump(150_001) {
		t.Fatal("no event #150001")
	}

	apply := func(expr string) tea.Cmd {
		keys(t, m, "F", "ctrl+u")
		typeIn(t, m, expr)
		_, cmd := m.Update(keyMsg("enter"))
		if d := m.wire.find.scan.done; d > liveChunkLen {
			t.Fatalf("applying %q matched %d events in one Update, want at most %d", expr, d, liveChunkLen)
		}
		return cmd
	}
	older, ok := stepOf(t, apply("kind:notification"))
	if !ok {
		t.Fatal("the filter of a long history asked for no next chunk")
	}
	mustContain(t, "title while filtering", view(m), "filter: kind:notification · filtering… 8%")
	cmd := apply("method:ping")

	// The older filter's message is dropped: nothing matched, no chain of its own.
	at, rows := m.wire.find.scan.done, len(m.wire.find.rows)
	if _, next := m.Update(older); next != nil || m.wire.find.scan.done != at || len(m.wire.find.rows) != rows {
		t.Fatalf("a stale filter step was taken (scanned %d → %d)", at, m.wire.find.scan.done)
	}

	steps := 0
	for {
		msg, ok := stepOf(t, cmd)
		if !ok {
			break
		}
		before := m.wire.find.scan.done
		_, cmd = m.Update(msg)
		if d := m.wire.find.scan.done - before; d <= 0 || d > liveChunkLen {
			t.Fatalf("a filter step matched %d events, want 1..%d", d, liveChunkLen)
		}
		if steps++; steps == 1 {
			// Events arriving meanwhile wait for the chain already on its way.
			before = m.wire.find.scan.done
			_, ecmd := m.Update(eventsMsg{events: pingFlood(n, n+more)})
			if s, ok := stepOf(t, ecmd); ok || m.wire.find.scan.done != before {
				t.Fatalf("new events started a second chain (%v) or matched %d events", s, m.wire.find.scan.done-before)
			}
		}
	}
	total := m.wire.tl.len()
	if total != n+more || m.wire.find.scan.done != total || steps < n/liveChunkLen-1 {
		t.Fatalf("the filter stopped at %d of %d events after %d steps", m.wire.find.scan.done, total, steps)
	}

	// The rows are those of a full scan, and the construction's: every fifth event.
	var full []int32
	for i := range total {
		if m.wire.find.expr.Match(wireEv{m.wire.tl, i}) {
			full = append(full, int32(i))
		}
	}
	if !slices.Equal(m.wire.find.rows, full) || len(full) != total/5 {
		t.Fatalf("chunked filter found %d rows, a full scan %d, want %d", len(m.wire.find.rows), len(full), total/5)
	}
	if s := m.wire.selected().seq; s != 150_001 {
		t.Fatalf("after the filter #%d is selected, want #150001 (selected before)", s)
	}
	v := view(m)
	mustContain(t, "title when done", v, fmt.Sprintf("filter: method:ping · %d/%d", total/5, total))
	if strings.Contains(v, "filtering…") {
		t.Fatalf("the title still says filtering… when done:\n%s", v)
	}
}
