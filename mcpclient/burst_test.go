package mcpclient

import (
	"testing"
	"time"
)

// burstWatch says a burst only for answers held back: several together, to requests sent
// over half a second or more, the oldest waiting a second or more; once.
func TestBurstWatch(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1_000_000, 0)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	for _, c := range []struct {
		name string
		// each answer: read at, its request sent at
		answers [][2]int
		want    bool
	}{
		{"prompt answers, one by one", [][2]int{{10, 0}, {260, 250}, {510, 500}, {760, 750}}, false},
		{"three sent together, answered together", [][2]int{{1500, 0}, {1501, 1}, {1502, 2}}, false},
		{"held back, then together", [][2]int{{1300, 0}, {1301, 300}, {1302, 600}}, true},
		{"two together is not a burst", [][2]int{{1300, 0}, {1301, 600}}, false},
		{"spread, but apart", [][2]int{{1300, 0}, {1350, 300}, {1400, 600}}, false},
	} {
		var b burstWatch
		got := false
		for i, a := range c.answers {
			got = b.response(ms(a[0]), ms(a[1]), uint64(i+1)) || got
		}
		if got != c.want {
			t.Errorf("%s: said %v, want %v", c.name, got, c.want)
		}
	}
	// Said once: a second burst is not said again.
	var b burstWatch
	said := 0
	for round := range 2 {
		for i, a := range [][2]int{{1300, 0}, {1301, 300}, {1302, 600}} {
			if b.response(ms(a[0]+5000*round), ms(a[1]+5000*round), uint64(i)) {
				said++
			}
		}
	}
	if said != 1 {
		t.Fatalf("said %d times, want once", said)
	}
}
