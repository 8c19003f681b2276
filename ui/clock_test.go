package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// recClock is a clock (Options.Tick) that records the timers started on it; the test fires
// them by hand.
type recClock struct {
	waits []time.Duration
	fires []func(time.Time) tea.Msg
}

func (c *recClock) tick(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	c.waits = append(c.waits, d)
	c.fires = append(c.fires, fn)
	return func() tea.Msg { return nil }
}

// fire delivers the last timer's message.
func (c *recClock) fire(t *testing.T) tea.Msg {
	t.Helper()
	if len(c.fires) == 0 {
		t.Fatal("no timer started")
	}
	return c.fires[len(c.fires)-1](t0)
}

// The line input's cursor blinks on the model's clock: focus starts a blink's wait, each
// blink toggles the cursor and waits again; a blink of an earlier focus, or after blur, is
// dropped.
func TestLineInputBlinksOnTheClock(t *testing.T) {
	clock := &recClock{}
	m := newModel(Options{Tick: clock.tick, Theme: "plain"})
	l := newLineInput(m.c)
	l.SetWidth(10)
	l.Focus()
	if len(clock.waits) != 1 || clock.waits[0] != blinkSpeed || l.cur.IsBlinked {
		t.Fatalf("focus: waits %v, cursor hidden %v", clock.waits, l.cur.IsBlinked)
	}
	first := clock.fire(t)
	l, _ = l.Update(first)
	if !l.cur.IsBlinked || len(clock.waits) != 2 {
		t.Fatalf("first blink: cursor hidden %v, waits %v", l.cur.IsBlinked, clock.waits)
	}
	l, _ = l.Update(clock.fire(t))
	if l.cur.IsBlinked || len(clock.waits) != 3 {
		t.Fatalf("second blink: cursor hidden %v, waits %v", l.cur.IsBlinked, clock.waits)
	}
	// A key shows the cursor at once.
	l, _ = l.Update(clock.fire(t))
	l, _ = l.Update(keyMsg("x"))
	if l.cur.IsBlinked {
		t.Fatal("the cursor is hidden after a key")
	}
	// A new focus starts a new chain: the old chain's blink does nothing.
	stale := clock.fire(t)
	l.Focus()
	n := len(clock.waits)
	if l, cmd := l.Update(stale); cmd != nil || l.cur.IsBlinked || len(clock.waits) != n {
		t.Fatalf("a stale blink turned the cursor (hidden %v) or waited again (%d timers)", l.cur.IsBlinked, len(clock.waits)-n)
	}
	cur := clock.fire(t)
	l.Blur()
	if _, cmd := l.Update(cur); cmd != nil || len(clock.waits) != n {
		t.Fatal("a blurred input blinks")
	}
}

// The spinner of a call in flight turns on the model's clock, one chain at a time: a
// frame of an older chain is dropped.
func TestSpinnerTurnsOnTheClock(t *testing.T) {
	clock := &recClock{}
	m := newModel(Options{Tick: clock.tick, Theme: "plain"})
	m.call.calls = append(m.call.calls, &callRun{})
	before := m.call.spin.View()
	m.Update(m.call.spin.Tick())
	if len(clock.waits) != 1 || clock.waits[0] != m.call.spin.Spinner.FPS || m.call.spin.View() == before {
		t.Fatalf("first frame: waits %v, view %q (was %q)", clock.waits, m.call.spin.View(), before)
	}
	stale := m.call.spin.Tick() // the current chain's tag: the next frame
	next := clock.fire(t)
	m.Update(next)
	if len(clock.waits) != 2 {
		t.Fatalf("second frame: waits %v", clock.waits)
	}
	shown := m.call.spin.View()
	m.Update(stale)
	if len(clock.waits) != 2 || m.call.spin.View() != shown {
		t.Fatal("a stale frame turned the spinner")
	}
	m.call.calls[0].done = true
	m.Update(clock.fire(t))
	if len(clock.waits) != 2 {
		t.Fatal("the spinner turns with no call in flight")
	}
}
