package session

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

func TestInflightLifecycle(t *testing.T) {
	tab := NewInflight()
	a, actx := tab.Start(context.Background(), "resources/read", "file:///a", t0)
	b, bctx := tab.Start(context.Background(), "prompts/get", "greet", t0)
	c, _ := tab.Start(context.Background(), "prompts/get", "bye", t0)
	if a.ID != 1 || b.ID != 2 || tab.Get(2) != b || tab.Get(9) != nil || tab.Running() != 3 {
		t.Fatalf("ids %d %d running %d", a.ID, b.ID, tab.Running())
	}
	if got := tab.Sorted(); len(got) != 3 || got[0] != a || got[2] != c {
		t.Fatalf("sorted %v", got)
	}
	later := t0.Add(time.Second)
	if o := tab.Finish(a.ID, nil, later); o != a || a.State != OpDone || !a.Ended.Equal(later) || actx.Err() == nil {
		t.Fatalf("done op %+v ctx %v", a, actx.Err())
	}
	if !tab.Cancel(b.ID) || bctx.Err() == nil || tab.Cancel(a.ID) || tab.Cancel(42) {
		t.Fatal("cancel")
	}
	tab.Finish(b.ID, context.Canceled, later)
	tab.Finish(c.ID, errors.New("boom"), later)
	if b.State != OpCancelled || c.State != OpFailed || c.Err.Error() != "boom" || tab.Running() != 0 {
		t.Fatalf("states %v %v", b.State, c.State)
	}
	// A finished op keeps its first outcome.
	if o := tab.Finish(c.ID, nil, later); o.State != OpFailed {
		t.Fatal("finished twice")
	}
	if tab.Finish(99, nil, later) != nil {
		t.Fatal("unknown op finished")
	}
	var nilOp *Op
	if nilOp.Running() {
		t.Fatal("nil op runs")
	}
	d, dctx := tab.Start(context.Background(), "tasks/get", "t1", t0)
	tab.CancelAll()
	if dctx.Err() == nil || !d.Running() {
		t.Fatal("CancelAll")
	}
}

// The table follows its ops on the wire: the request by method and target, progress, a
// modern retry, and a response after the cancel.
func TestInflightObserve(t *testing.T) {
	tab := NewInflight()
	o, _ := tab.Start(context.Background(), "prompts/get", "greet", t0)
	evs := paired([]line{
		{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"other"}}`},                             // 1
		{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"greet","_meta":{"progressToken":7}}}`}, // 2
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":2,"total":4,"message":"half"}}`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{}}}`}, // 4
		{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"greet"}}`},            // 5: the retry
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":3,"result":{"messages":[]}}`},                                    // 6
	})
	for i := range evs[:3] {
		tab.Observe(&evs[i])
	}
	if o.ReqSeq != 2 || o.Progress != 2 || o.Total != 4 || o.ProgressMessage != "half" {
		t.Fatalf("op %+v", o)
	}
	tab.Observe(&evs[3])
	if !o.Answered {
		t.Fatal("the answer was not seen")
	}
	tab.Observe(&evs[4])
	if o.ReqSeq != 5 || o.Answered {
		t.Fatalf("the retry is not followed: %+v", o)
	}
	tab.Cancel(o.ID)
	tab.Finish(o.ID, context.Canceled, t0)
	tab.Observe(&evs[5])
	if o.Late == nil || o.Late.Seq != 6 {
		t.Fatalf("late %+v", o.Late)
	}
	if RequestTarget([]byte(`{"uri":"file:///x"}`)) != "file:///x" || RequestTarget([]byte(`{"taskId":"t"}`)) != "t" || RequestTarget(nil) != "" {
		t.Fatal("RequestTarget")
	}
}
