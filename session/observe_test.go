package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

func connectedLive(t *testing.T) *Live {
	t.Helper()
	s := NewLive(context.Background(), &roundsConn{}, ClientFeatures{}, NewRequestQueue(nil), func() time.Time { return t0 })
	s.Connected(Handshake{Result: &mcpclient.InitializeResult{Era: mcpclient.EraLegacy, Caps: mcpclient.ServerCapabilities{Tools: &mcpclient.ListChangedCap{ListChanged: true}}}})
	s.Lists().Listed(Tools, 0, nil, "")
	return s
}

// list_changed asks for a listing after a quiet interval (also inside a batch), task notifications are followed, a
// server's cancel is handed on, and the server's end is said.
func TestLiveObserve(t *testing.T) {
	s := connectedLive(t)
	evs := paired([]line{
		{dir: mcpclient.ServerToClient, raw: `[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}},{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}]`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"a","status":"working"}}`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"b","status":"completed","resultType":"complete"}}`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`},
		{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeExited, ExitCode: 1}},
	})
	if evs[0].Kind != mcpclient.KindBatch || len(BatchEvents(&evs[0])) != 2 {
		t.Fatalf("batch %+v", evs[0])
	}
	if r := s.Observe(&evs[0]); len(r.Relist) != 1 || r.Relist[0] != (Relist{Tools, ListQuiet}) {
		t.Fatalf("batched list_changed: %+v", r)
	}
	// A timer is running: one is enough.
	if r := s.Observe(&evs[1]); len(r.Relist) != 0 {
		t.Fatalf("second list_changed: %+v", r)
	}
	if r := s.Observe(&evs[2]); len(r.Tasks) != 1 || s.Tasks().Get("a") == nil || s.Tasks().Get("a").Modern {
		t.Fatalf("tasks/status: %+v", r)
	}
	if r := s.Observe(&evs[3]); len(r.Tasks) != 1 || !s.Tasks().Get("b").Modern {
		t.Fatalf("notifications/tasks: %+v", r)
	}
	if r := s.Observe(&evs[4]); string(r.Cancelled) != `{"requestId":1}` {
		t.Fatalf("cancelled: %+v", r)
	}
	if r := s.Observe(&evs[5]); r.Gone == nil || r.Gone.ExitCode != 1 {
		t.Fatalf("gone: %+v", r)
	}
}

func TestLateNotes(t *testing.T) {
	ev := mcpclient.Event{Seq: 9, Pair: 4, Method: "resources/read", Problems: []mcpclient.Problem{{Code: "after-cancel"}}}
	if n := LateNote(&ev); n == nil || n.Text != "response after cancel: resources/read (request #4) answered after you cancelled it; shown on the wire (#9), not used" {
		t.Fatalf("%+v", n)
	}
	ev.Method = "subscriptions/listen"
	if n := LateNote(&ev); n != nil {
		t.Fatalf("listen end noted: %+v", n)
	}
	ev.Problems = []mcpclient.Problem{{Code: "after-timeout"}}
	if n := LateNote(&ev); n == nil || !strings.HasPrefix(n.Text, "late response: subscriptions/listen (request #4) answered after it had timed out") {
		t.Fatalf("%+v", n)
	}
	if n := AfterExitNote(&ev); !strings.HasPrefix(n.Text, "response after the server's exit: subscriptions/listen (request #4)") {
		t.Fatal(n)
	}
	if BatchEvents(&mcpclient.Event{}) != nil {
		t.Fatal("not a batch")
	}
}
