package ui

import (
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// all rebuilds every event of the timeline with its parsed message (tests only: the
// timeline keeps summaries, not Events).
func (t *timeline) all() []mcpclient.Event {
	out := make([]mcpclient.Event, 0, t.len())
	for i := range t.evs {
		ev, _ := t.full(i)
		out = append(out, ev)
	}
	return out
}

// TestNumericID: only ids that print back byte for byte are kept as numbers.
func TestNumericID(t *testing.T) {
	for in, want := range map[string]bool{"7": true, "-3": true, "0": true, "123456789012345678": true,
		"01": false, "-0": false, "1.0": false, "1e3": false, `"7"`: false, "": false, "-": false, "1234567890123456789": false} {
		n, ok := numericID([]byte(in))
		if ok != want {
			t.Errorf("numericID(%q) = %d, %v; want ok=%v", in, n, ok, want)
		}
		if ok {
			tl := newTimeline()
			tl.add(ev(1, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":`+in+`,"method":"ping"}`+"\n"))
			if got := tl.idOf(&tl.evs[0]); got != in {
				t.Errorf("id %s reads back as %s", in, got)
			}
		}
	}
}

// TestEventCacheBounds: the loaded-event cache drops the least recently used beyond its
// count and byte bounds, and always keeps the newest.
func TestEventCacheBounds(t *testing.T) {
	c := newEventCache(3, 100)
	for s := uint64(1); s <= 3; s++ {
		c.put(mcpclient.Event{Seq: s, Raw: make([]byte, 10)})
	}
	c.get(1) // 2 is now the least recently used
	c.put(mcpclient.Event{Seq: 4, Raw: make([]byte, 10)})
	if _, ok := c.peek(2); ok {
		t.Error("the least recently used event was kept")
	}
	for _, s := range []uint64{1, 3, 4} {
		if _, ok := c.peek(s); !ok {
			t.Errorf("#%d dropped", s)
		}
	}
	c.put(mcpclient.Event{Seq: 5, Raw: make([]byte, 500)})
	if _, ok := c.peek(5); !ok || c.ll.Len() != 1 || c.bytes != 500 {
		t.Errorf("a frame over the byte bound: kept=%v, %d entries, %d bytes", ok, c.ll.Len(), c.bytes)
	}
}
