package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// pumpSizer sizes the event pump's batches during a flood so that absorbing one takes about
// absorbBudget. Keys come first that way: bubbletea hands a key that arrived during an
// Update to the next Update, before the next batch (the pump's message is sent only after
// its Cmd ran, behind the waiting key), so a key waits at most one batch's Update and View.
// A fixed batch of 4,096 events cost 50 ms on an idle machine and 500 ms when the cores
// were shared; the budget keeps it near 15 ms as the cost per event moves.
type pumpSizer struct {
	// limit is the next batch's size, in events: between minBatch and maxBatch.
	limit int
}

const (
	// absorbBudget is the Update time one batch should take.
	absorbBudget = 15 * time.Millisecond
	// minBatch keeps a slow machine from drawing one frame per handful of events.
	minBatch = 128
)

// size is the next batch's size (maxBatch until a batch was measured).
func (p *pumpSizer) size() int {
	if p.limit == 0 {
		return maxBatch
	}
	return p.limit
}

// observe takes the cost of absorbing a batch of n events and moves the size halfway to what
// would have taken absorbBudget.
func (p *pumpSizer) observe(n int, took time.Duration) {
	if n == 0 {
		return
	}
	target := maxBatch
	if took > 0 {
		target = int(int64(absorbBudget) * int64(n) / int64(took))
	}
	target = min(max(target, minBatch), maxBatch)
	if n < p.size() && target > n {
		// The pump took all there was: a small batch says nothing against a larger size,
		// only its cost per event does.
		target = max(target, p.size())
	}
	half := (p.size() + target) / 2
	if target > p.size() {
		half = (p.size() + target + 1) / 2 // round toward the target, so it is reached
	}
	p.limit = min(max(half, minBatch), maxBatch)
}

// absorbEvents is addEvents, timed for the next batch's size. The time is the real cost,
// whatever m.now says (tests fix it).
func (m *model) absorbEvents(evs []mcpclient.Event) tea.Cmd {
	start := time.Now()
	cmd := m.addEvents(evs)
	m.pumpSize.observe(len(evs), time.Since(start))
	return cmd
}

// pumpNext asks for the next batch of events, sized by pumpSize.
func (m *model) pumpNext() tea.Cmd { return pumpEventsUpTo(m.events, m.pumpSize.size()) }

// pumpEventsUpTo is pumpEvents with batches of at most n events.
func pumpEventsUpTo(ch <-chan mcpclient.Event, n int) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return eventsMsg{closed: true}
		}
		evs := []mcpclient.Event{ev}
		for len(evs) < n {
			select {
			case ev, ok := <-ch:
				if !ok {
					return eventsMsg{events: evs, closed: true}
				}
				evs = append(evs, ev)
			default:
				return eventsMsg{events: evs}
			}
		}
		return eventsMsg{events: evs}
	}
}
