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
		// Answers 0.1 ms apart for seconds are prompt answers to a fast client, not a
		// burst: none of them waited (issue 29's bench call said "buffered stdout").
		{"a steady stream of prompt answers", nil, false},
	} {
		var b burstWatch
		got := false
		if c.answers == nil { // a steady stream: bench call at concurrency 1
			for i := range 30000 { // a request every 0.1 ms for 3 s, each answered 0.05 ms later
				sent := t0.Add(time.Duration(i) * 100 * time.Microsecond)
				got = b.response(sent.Add(50*time.Microsecond), sent, uint64(i+1)) || got
			}
		}
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

// pythonBuffered tells Python run with its stdout block-buffered from the rest.
func TestPythonBuffered(t *testing.T) {
	t.Setenv("PYTHONUNBUFFERED", "")
	for _, c := range []struct {
		argv []string
		env  []string
		want bool
	}{
		{[]string{"python3", "server.py"}, nil, true},
		{[]string{"/usr/bin/python3.12", "-m", "srv"}, nil, true},
		{[]string{"python3", "-u", "server.py"}, nil, false},
		{[]string{"python3", "server.py"}, []string{"PYTHONUNBUFFERED=1"}, false},
		{[]string{"python3", "server.py"}, []string{"PYTHONUNBUFFERED=1", "PYTHONUNBUFFERED="}, true},
		{[]string{"uv", "run", "server.py"}, nil, true},
		{[]string{"./server.py"}, nil, false}, // a script run by its #! line: its python is unknown
		{[]string{"node", "server.js"}, nil, false},
		{[]string{"npx", "-y", "python-mcp"}, nil, false},
	} {
		if got := pythonBuffered(c.argv[0], c.argv[1:], c.env); got != c.want {
			t.Errorf("%q env %q: %v, want %v", c.argv, c.env, got, c.want)
		}
	}
	t.Setenv("PYTHONUNBUFFERED", "1")
	if pythonBuffered("python3", []string{"server.py"}, nil) {
		t.Error("PYTHONUNBUFFERED inherited from our environment was not seen")
	}
}
