package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// all rebuilds every event of the timeline with its parsed message (tests only: the
// timeline keeps summaries, not Events).
func (t *timeline) all() []mcpclient.Event {
	out := make([]mcpclient.Event, 0, t.len())
	for i := range t.len() {
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
			if got := tl.idOf(tl.evs.at(0)); got != in {
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

// TestProgressBeforeSent: progress that reaches the timeline before the call learns its
// request's Seq (OnSent) is picked up when it does; other frames in between are skipped
// without being parsed again.
func TestProgressBeforeSent(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := greetSession()
		s.block = true
		m := newTestModel(t, s, 100, 30)
		exec(t, m, m.Init(), 0)
		keys(t, m, "enter")
		typeIn(t, m, "1")
		keys(t, m, "tab")
		typeIn(t, m, "2")
		_, cmd := m.Update(keyMsg("ctrl+s"))
		done := make(chan tea.Msg, 4)
		go func() {
			for _, c := range cmd().(tea.BatchMsg) {
				go func() { done <- c() }()
			}
		}()
		var sent callSentMsg
		for msg := range done {
			if s, ok := msg.(callSentMsg); ok {
				sent = s
				break
			}
		}
		req := ev(8, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":3}}}`+"\n")
		other := ev(9, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":99,"progress":9,"total":10,"message":"not ours"}}`+"\n")
		other.Pair = 5
		prog := ev(10, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":3,"total":10,"message":"step 3"}}`+"\n")
		prog.Pair = 8
		drive(t, m, eventsMsg{events: []mcpclient.Event{req, other, prog}})
		drive(t, m, sent)
		r := m.call.run
		if r.reqSeq != 8 || r.progress != 3 || r.total != 10 || r.progMsg != "step 3" {
			t.Fatalf("run: reqSeq %d progress %v/%v %q", r.reqSeq, r.progress, r.total, r.progMsg)
		}
		keys(t, m, "ctrl+x")
	})
}

// An HTTP request and its response head are partners (p jumps between them), even when
// another exchange's events come between them; the body pairs to its request too.
func TestTimelinePairsHTTPExchanges(t *testing.T) {
	tl := newTimeline()
	at := time.Now()
	tl.add(mcpclient.Event{Seq: 1, Time: at, Dir: mcpclient.HTTPOut, Kind: mcpclient.KindHTTPRequest, Raw: []byte("GET /mcp HTTP/1.1\r\n\r\n")})
	tl.add(mcpclient.Event{Seq: 2, Time: at, Dir: mcpclient.HTTPOut, Kind: mcpclient.KindHTTPRequest, Raw: []byte("POST /mcp HTTP/1.1\r\n\r\n{}")})
	tl.add(mcpclient.Event{Seq: 3, Time: at, Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPResponse, Raw: []byte("HTTP/1.1 200 OK\r\n\r\n"), Pair: 2})
	tl.add(mcpclient.Event{Seq: 4, Time: at, Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPResponse, Raw: []byte("HTTP/1.1 405 Method Not Allowed\r\n\r\n"), Pair: 1})
	for i, want := range []uint64{4, 3, 2, 1} {
		if got, ok := tl.partner(i); !ok || got != want {
			t.Errorf("event #%d: partner %d (%v), want #%d", i+1, got, ok, want)
		}
	}
}

// TestTimelineWritten: a frame a tap wrote itself keeps its mark (Event.Written) in the
// timeline's compact events, and its summary says what the tap did; others have none.
func TestTimelineWritten(t *testing.T) {
	tl := newTimeline()
	orig := ev(1, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`+"\n")
	edited := ev(2, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"b"}}`+"\n")
	edited.Written = mcpclient.NoteEdited
	answer := ev(3, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"no"}}`+"\n")
	answer.Written = mcpclient.NoteInjected
	for _, e := range []mcpclient.Event{orig, edited, answer} {
		tl.add(e)
	}
	for i, want := range []mcpclient.NoteCond{"", mcpclient.NoteEdited, mcpclient.NoteInjected} {
		got, _ := tl.event(i)
		if got.Written != want {
			t.Errorf("event %d: Written %q, want %q", i, got.Written, want)
		}
		s := tl.summary(i)
		if marked := strings.Contains(s, "by the tap"); marked != (want != "") {
			t.Errorf("event %d: summary %q, marked %v, want %v", i, s, marked, want != "")
		}
	}
}
