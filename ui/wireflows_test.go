package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// flowEvents are two HTTP exchanges as an HTTP session records them: a POST carrying
// tools/call answered by an SSE stream of a progress notification and the result, and a
// POST carrying a notification answered 202; then a stderr-free lifecycle note.
func flowEvents(at time.Time) []mcpclient.Event {
	ms := func(n int) time.Time { return at.Add(time.Duration(n) * time.Millisecond) }
	return []mcpclient.Event{
		{Seq: 1, Time: ms(0), Dir: mcpclient.ClientToServer, Kind: mcpclient.KindRequest, Raw: []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo"}}`), Msg: &mcpclient.Message{ID: []byte("5"), Method: "tools/call"}},
		{Seq: 2, Time: ms(1), Dir: mcpclient.HTTPOut, Kind: mcpclient.KindHTTPRequest, Raw: []byte("POST /mcp HTTP/1.1\r\nHost: x\r\n\r\n{}"), Exchange: 1},
		{Seq: 3, Time: ms(31), Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPResponse, Raw: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"), Pair: 2},
		{Seq: 4, Time: ms(32), Dir: mcpclient.ClientToServer, Kind: mcpclient.KindNotification, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled"}`), Msg: &mcpclient.Message{Method: "notifications/cancelled"}},
		{Seq: 5, Time: ms(33), Dir: mcpclient.HTTPOut, Kind: mcpclient.KindHTTPRequest, Raw: []byte("POST /mcp HTTP/1.1\r\nHost: x\r\n\r\n{}"), Exchange: 4},
		{Seq: 6, Time: ms(40), Dir: mcpclient.HTTPIn, Kind: mcpclient.KindSSEFrame, Raw: []byte("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n"), Pair: 2},
		{Seq: 7, Time: ms(40), Dir: mcpclient.ServerToClient, Kind: mcpclient.KindNotification, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/progress"}`), Msg: &mcpclient.Message{Method: "notifications/progress"}, Exchange: 2},
		{Seq: 8, Time: ms(41), Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPResponse, Raw: []byte("HTTP/1.1 202 Accepted\r\n\r\n"), Pair: 5},
		{Seq: 9, Time: ms(50), Dir: mcpclient.HTTPIn, Kind: mcpclient.KindSSEFrame, Raw: []byte("data: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n\n"), Pair: 2},
		{Seq: 10, Time: ms(50), Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Raw: []byte(`{"jsonrpc":"2.0","id":5,"result":{}}`), Msg: &mcpclient.Message{ID: []byte("5")}, Pair: 1, Method: "tools/call", Exchange: 2},
	}
}

// The flow view: f reaches "flows", one row per exchange with its status, time, the
// message it carried and what came back; space opens an exchange to its events, the
// messages read from it included, and closes it again from any of its rows.
func TestWireFlowView(t *testing.T) {
	c := hostFor(t, session.NewLive(context.Background(), nil, session.ClientFeatures{}, nil, nil))
	tl := newTimeline()
	for _, ev := range flowEvents(time.Now()) {
		tl.add(ev)
	}
	p := newWirePane(c, tl)
	p.setSize(rect{w: 200, h: 20})
	p.appended()
	for p.filter != filterFlows {
		p.frameKey(keyOf("f"))
	}
	if p.count() != 2 {
		t.Fatalf("%d flow rows, want 2", p.count())
	}
	v := p.view(c.now())
	for _, want := range []string{"wire · flows · 2/10", "▸ POST /mcp → 200 OK · 30ms · tools/call · ⇐ 2 SSE events, 2 messages", "▸ POST /mcp → 202 Accepted · 8ms · notifications/cancelled"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	p.sel = 0
	p.frameKey(keyOf("space"))
	var rows []uint64
	for r := range p.count() {
		rows = append(rows, tl.evs.at(p.at(r)).seq)
	}
	if got := fmt.Sprint(rows); got != "[2 1 3 6 7 9 10 5]" {
		t.Fatalf("open exchange rows: %s", got)
	}
	v = p.view(c.now())
	for _, want := range []string{"▾ POST /mcp", "  └ notifications/progress", "  └ result (tools/call)"} {
		if !strings.Contains(v, want) {
			t.Errorf("open view lacks %q:\n%s", want, v)
		}
	}
	// New events of an open exchange join it as they arrive.
	tl.add(mcpclient.Event{Seq: 11, Time: time.Now(), Dir: mcpclient.HTTPIn, Kind: mcpclient.KindSSEFrame, Raw: []byte(": ping\n\n"), Pair: 2})
	p.appended()
	if p.count() != 9 || tl.evs.at(p.at(7)).seq != 11 {
		t.Fatalf("after a new SSE event: %d rows", p.count())
	}
	// space on one of its events closes it, and the exchange's row is selected.
	p.sel = 4
	p.frameKey(keyOf("space"))
	if p.count() != 2 || p.sel != 0 {
		t.Fatalf("closed: %d rows, selected %d", p.count(), p.sel)
	}
	// A stdio session has no flows: f goes round without them.
	p2 := newWirePane(c, newTimeline())
	seen := map[wireFilter]bool{}
	for range 6 {
		p2.frameKey(keyOf("f"))
		seen[p2.filter] = true
	}
	if seen[filterFlows] {
		t.Error("the flows filter offered on a session without HTTP")
	}
}

// In a trace opened with bytes read on demand, a visible exchange row asks for its
// response head too: its status and time come from the head, whose own row the flow view
// does not show.
func TestWireFlowRowLoadsItsHead(t *testing.T) {
	c := hostFor(t, session.NewLive(context.Background(), nil, session.ClientFeatures{}, nil, nil))
	tl := newTimeline()
	tl.setLoader(func(seq uint64) (mcpclient.Event, error) { return mcpclient.Event{}, nil })
	for _, ev := range flowEvents(time.Now()) {
		tl.add(ev)
	}
	p := newWirePane(c, tl)
	p.setSize(rect{w: 200, h: 20})
	p.filter = filterFlows
	p.needShown()
	if !tl.loading[3] || !tl.loading[8] {
		t.Fatalf("the heads #3 and #8 are not asked for: %v", tl.want)
	}
}
