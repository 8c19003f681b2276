package session

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// answers records what requests were answered with.
type answers struct{ got []string }

func (a *answers) req(method, params string, id string) *Inbound {
	r := NewInbound(method, json.RawMessage(params), "", 1, time.Time{}, func(result json.RawMessage, e *mcpclient.RPCError) error {
		if e != nil {
			b, _ := json.Marshal(e)
			a.got = append(a.got, "error "+string(b))
			return nil
		}
		a.got = append(a.got, string(result))
		return nil
	})
	if id != "" {
		r.ID = json.RawMessage(id)
	}
	return r
}

// Requests the features do not cover are refused at once with the right codes; roots/list
// is answered at once only when roots are set; the others go to the user.
func TestDecide(t *testing.T) {
	var a answers
	f := ClientFeatures{NoSampling: true, NoElicitationURL: true, NoRoots: true}
	reqs := []*Inbound{
		a.req("sampling/createMessage", `{"messages":[],"maxTokens":1}`, "1"),
		a.req("roots/list", `{}`, "2"),
		a.req("elicitation/create", `{"mode":"url","url":"https://x","message":"m","elicitationId":"1"}`, "3"),
		a.req("elicitation/create", `{"message":"m","requestedSchema":{}}`, "4"),
		a.req("bogus/method", `{}`, "5"),
	}
	var ask []*Inbound
	var refuse []Refusal
	for _, r := range reqs {
		switch d := f.Decide(r.Method, r.Params, nil, false); {
		case d.Err != nil:
			refuse = append(refuse, Refusal{Req: r, Err: d.Err})
		case d.Ask:
			ask = append(ask, r)
		default:
			t.Fatalf("%s answered without asking: %+v", r.Method, d)
		}
	}
	if len(ask) != 1 || ask[0] != reqs[3] || len(refuse) != 4 {
		t.Fatalf("ask %d refuse %d", len(ask), len(refuse))
	}
	for i, code := range []int64{-32601, -32601, -32602, -32601} {
		if refuse[i].Err.Code != code {
			t.Errorf("refusal %d: %d, want %d", i, refuse[i].Err.Code, code)
		}
		got := Answer(refuse[i].Req, nil, refuse[i].Err, "refused")
		if got.Err != nil || got.Note() != (Note{Info, refuse[i].Req.Method + ": refused"}) {
			t.Errorf("answered %+v", got)
		}
	}
	if n := refuse[0].Note(); n.Level != Warning || n.Text != "answered sampling/createMessage with -32601 at once: Method not found: mcp-inspect does not offer sampling/createMessage (sampling is turned off)" {
		t.Fatalf("note %+v", n)
	}
	if len(a.got) != 4 {
		t.Fatalf("answers %q", a.got)
	}
	failed := Answered{Method: "roots/list", Err: errors.New("broken pipe")}
	if n := failed.Note(); n != (Note{Error, "answering roots/list failed: broken pipe"}) {
		t.Fatalf("failed note %+v", n)
	}
	if QueuedNote("roots/list", 2) != "roots/list queued: 2 server requests waiting" {
		t.Fatal(QueuedNote("roots/list", 2))
	}
	roots := []mcpclient.Root{{URI: "file:///w", Name: "w"}}
	if d := (ClientFeatures{}).Decide("roots/list", nil, roots, true); d.Ask || d.Err != nil || len(d.Roots) != 1 || d.Roots[0] != roots[0] {
		t.Fatalf("roots set: %+v", d)
	}
	if d := (ClientFeatures{}).Decide("roots/list", nil, nil, false); !d.Ask || d.Err != nil {
		t.Fatalf("roots not set: %+v", d)
	}
	if d := (ClientFeatures{NoRoots: true}).Decide("roots/list", nil, roots, true); d.Err == nil || d.Err.Code != -32601 {
		t.Fatalf("roots off: %+v", d)
	}
}

// A server that cancels its own request closes the request unanswered, found by its id
// in any JSON spelling.
func TestServerCancelled(t *testing.T) {
	var a answers
	open := []*Inbound{a.req("roots/list", `{}`, `"x"`), a.req("sampling/createMessage", `{}`, `1`)}
	i, note, ok := ServerCancelled(json.RawMessage(`{"requestId": 1, "reason":"timeout"}`), open)
	if !ok || i != 1 || note != (Note{Warning, "the server cancelled its sampling/createMessage (id 1): the dialog is closed unanswered, as the spec asks"}) {
		t.Fatalf("%d %+v %v", i, note, ok)
	}
	for _, p := range []string{`{"requestId":2}`, `{}`, `nope`} {
		if _, _, ok := ServerCancelled(json.RawMessage(p), open); ok {
			t.Errorf("%s matched", p)
		}
	}
	// A modern input request has no id: never matched.
	modern := NewInbound("roots/list", nil, "k", 1, time.Time{}, nil)
	if _, _, ok := ServerCancelled(json.RawMessage(`{"requestId":null}`), []*Inbound{modern}); ok {
		t.Fatal("null id matched")
	}
	if len(a.got) != 0 {
		t.Fatalf("answered %q", a.got)
	}
	Quitting(open)
	if len(a.got) != 2 || a.got[0] != `error {"code":-32603,"message":"mcp-inspect is quitting"}` {
		t.Fatalf("quitting %q", a.got)
	}
	if ServerGoneNote(2).Text != "the server is gone: 2 server request(s) closed unanswered" {
		t.Fatal(ServerGoneNote(2))
	}
	if InputsClosedNote(1, "prompts/get", "p").Text != "1 input request(s) of prompts/get p closed: the request ended" {
		t.Fatal(InputsClosedNote(1, "prompts/get", "p"))
	}
}

func TestRequestQueueOrderAndWait(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	q := NewRequestQueue(func() time.Time { return at })
	if got := q.Take(); got != nil {
		t.Fatalf("empty take %v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := q.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Next: %v", err)
	}
	q.Handle(&mcpclient.ServerRequest{Method: "a", Msg: &mcpclient.Message{ID: json.RawMessage(`7`)}})
	q.Handle(&mcpclient.ServerRequest{Method: "b"})
	got, err := q.Next(context.Background())
	if err != nil || len(got) != 2 || got[0].Method != "a" || got[1].Method != "b" || string(got[0].ID) != "7" || !got[0].Arrived.Equal(at) || got[0].Modern() {
		t.Fatalf("next %+v %v", got, err)
	}
	// A waiter wakes for a push from another goroutine.
	done := make(chan []*Inbound)
	go func() {
		r, _ := q.Next(context.Background())
		done <- r
	}()
	q.Push(NewInbound("c", nil, "", 0, at, nil))
	if r := <-done; len(r) != 1 || r[0].Method != "c" {
		t.Fatalf("woken with %+v", r)
	}
}
