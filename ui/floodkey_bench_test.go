package ui

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkKeyLatencyFlood measures what issue 15 asks of a keypress during a flood: the
// time from a key's arrival to the end of its Update and the View after it, while
// 1,000,000 notifications from flood-notify go through the real client into a recorded
// live session. The loop is bubbletea's: one channel of messages, the key reader and the
// event pump (one pump Cmd at a time, re-issued after each eventsMsg with the model's batch
// size, pumpSizer) sending into it, a View after every message. A key (j or k in the wire pane) is sent every 10 ms. One op is
// one flood; p50, p99 and max are over every key of every op; batch-max is the longest
// Update and View of one eventsMsg (what a key can wait behind, besides the scheduler).
func BenchmarkKeyLatencyFlood(b *testing.B) {
	const n = 1_000_000
	var lat []time.Duration
	var batchMax time.Duration
	for range b.N {
		l, bm := keyLatencyFlood(b, n)
		lat, batchMax = append(lat, l...), max(batchMax, bm)
	}
	slices.Sort(lat)
	if len(lat) == 0 {
		b.Fatal("no key was answered")
	}
	q := func(f float64) float64 { return float64(lat[int(f*float64(len(lat)-1))]) / 1e6 }
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(q(1), "max-ms")
	b.ReportMetric(float64(len(lat))/float64(b.N), "keys/op")
	b.ReportMetric(float64(batchMax)/1e6, "batch-max-ms")
}

// sentKey is a key as the key reader delivers it, with when it arrived.
type sentKey struct {
	msg tea.KeyPressMsg
	at  time.Time
}

func keyLatencyFlood(b *testing.B, n int) (lat []time.Duration, batchMax time.Duration) {
	m, w := liveRecorded(b)
	keys(b, m, "3")
	c := floodClient(b, "flood-notify", n, w.Observe)
	errc := connect(c)
	msgs := make(chan any)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			k := sentKey{msg: keyMsg([]string{"k", "j"}[i%2]), at: time.Now()}
			select {
			case msgs <- k:
			case <-stop:
				return
			}
		}
	}()
	pump := func() {
		cmd := pumpEventsUpTo(c.Events(), m.pumpSize.size()) // as eventsArrived sizes it
		go func() {
			msg := cmd()
			select {
			case msgs <- msg:
			case <-stop:
			}
		}()
	}
	pump()
	done := notifyDone(n)
	for finished := false; !finished; {
		switch msg := (<-msgs).(type) {
		case sentKey:
			m.Update(msg.msg)
			_ = m.View()
			lat = append(lat, time.Since(msg.at))
		case eventsMsg:
			start := time.Now()
			m.Update(msg)
			_ = m.View()
			batchMax = max(batchMax, time.Since(start))
			for i := range msg.events {
				finished = finished || done(&msg.events[i])
			}
			if msg.closed {
				b.Fatal("the events ended before the last notification")
			}
			if !finished {
				pump()
			}
		}
	}
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
	c.Close()
	return lat, batchMax
}
