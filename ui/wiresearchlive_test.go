package ui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// stepOf runs cmd as the runtime would (batches fanned out, a Cmd that blocks left alone)
// and returns the live search's next-chunk message among what it sends.
func stepOf(t *testing.T, cmd tea.Cmd) (wireStepMsg, bool) {
	t.Helper()
	if cmd == nil {
		return wireStepMsg{}, false
	}
	msg, ok := runCmd(t, cmd)
	if !ok {
		return wireStepMsg{}, false
	}
	switch msg := msg.(type) {
	case wireStepMsg:
		return msg, true
	case tea.BatchMsg:
		for _, c := range msg {
			if s, ok := stepOf(t, c); ok {
				return s, true
			}
		}
	}
	return wireStepMsg{}, false
}

// TestWireSearchLiveIsChunked: searching a long live history (a flood) reads a bounded
// chunk of events per key and per message, so keys and ctrl+c wait for one chunk; the
// chunks still reach the match at the end, and a newer query drops the older one's.
func TestWireSearchLiveIsChunked(t *testing.T) {
	const n = 200_000
	evs := make([]mcpclient.Event, n)
	for i := range evs {
		raw := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"flood %07d"}}`+"\n", i)
		evs[i] = ev(uint64(i+1), mcpclient.ServerToClient, raw)
	}
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: evs})
	keys(t, m, "3", "g", "/")

	// Each key is one Update, its Cmds not run: at most a chunk is searched.
	var cmd tea.Cmd
	for _, r := range "flood 019999" {
		_, cmd = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		if s := m.wire.find.search.done; s > liveChunkLen {
			t.Fatalf("typing %q searched %d events in one Update, want at most %d", m.wire.find.query, s, liveChunkLen)
		}
	}
	older, ok := stepOf(t, cmd)
	if !ok {
		t.Fatal("the search of a long history asked for no next chunk")
	}
	_, cmd = m.Update(tea.KeyPressMsg{Code: '0', Text: "0"})
	mustContain(t, "search line while searching", view(m), "/flood 0199990", fmt.Sprintf("searching… %d%%", liveChunkLen*100/n))

	// The older query's message is dropped: nothing searched, no chain of its own.
	at := m.wire.find.search.done
	if _, next := m.Update(older); next != nil || m.wire.find.search.done != at {
		t.Fatalf("a stale search step was taken (searched %d → %d)", at, m.wire.find.search.done)
	}

	steps := 0
	for {
		msg, ok := stepOf(t, cmd)
		if !ok {
			break
		}
		before := m.wire.find.search.done
		_, cmd = m.Update(msg)
		if d := m.wire.find.search.done - before; d <= 0 || d > liveChunkLen {
			t.Fatalf("a search step searched %d events, want 1..%d", d, liveChunkLen)
		}
		steps++
	}
	if m.wire.find.search.done != n || steps < n/liveChunkLen-1 {
		t.Fatalf("the search stopped at %d of %d after %d steps", m.wire.find.search.done, n, steps)
	}
	if s := m.wire.selected().seq; s != 199991 {
		t.Fatalf("/flood 0199990 selected #%d, want #199991", s)
	}
	mustContain(t, "search line when done", view(m), "match 1 of 1")
}
