package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// feed classifies raw as a frame in direction dir, numbers it and runs it through p.
func feed(p *Pairer, seq uint64, dir Direction, raw string) *Event {
	ev := &Event{Seq: seq, Dir: dir, Raw: []byte(raw)}
	ev.Kind, ev.Msg, ev.Problems = Classify(ev.Raw)
	p.Add(ev)
	return ev
}

func problemOf(probs []Problem, code ProblemCode) *Problem {
	for i := range probs {
		if probs[i].Code == code {
			return &probs[i]
		}
	}
	return nil
}

func TestSplitBatchKeepsExactBytes(t *testing.T) {
	raw := "[ {\"id\":1, \"result\":{\"a\":[1,2]}} ,\n\t\"x\",[3], null ]\n"
	got, ok := SplitBatch([]byte(raw))
	want := []string{`{"id":1, "result":{"a":[1,2]}}`, `"x"`, `[3]`, `null`}
	if !ok || len(got) != len(want) {
		t.Fatalf("SplitBatch = %q, %v", got, ok)
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("element %d = %q, want %q", i, got[i], want[i])
		}
	}
	if _, ok := SplitBatch([]byte(`{"id":1}`)); ok {
		t.Error("an object is not a batch")
	}
}

// session runs a handshake answered with version ("" for no handshake) and two requests
// (ids 2 tools/list and 3 ping) through a Pairer, then the server's batch frame.
func batchSession(t *testing.T, version, batch string) (*Event, map[string]uint64) {
	t.Helper()
	p := NewPairer()
	seqs := map[string]uint64{}
	seq := uint64(0)
	next := func() uint64 { seq++; return seq }
	if version != "" {
		seqs["initialize"] = next()
		feed(p, seqs["initialize"], ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{}}}`+"\n")
		feed(p, next(), ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"`+version+`","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`+"\n")
		feed(p, next(), ClientToServer, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	}
	seqs["tools/list"] = next()
	feed(p, seqs["tools/list"], ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n")
	seqs["ping"] = next()
	feed(p, seqs["ping"], ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"ping"}`+"\n")
	ev := feed(p, next(), ServerToClient, batch)
	// A single response to an id the batch answered is a duplicate.
	dup := feed(p, next(), ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`+"\n")
	if problemOf(dup.Problems, "duplicate-response") == nil {
		t.Errorf("a response after the batch answered id 2 should be a duplicate: %v", dup.Problems)
	}
	return ev, seqs
}

const mixedBatch = `[{"jsonrpc":"2.0","id":3,"result":{}},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}},{"jsonrpc":"2.0","id":2,"result":{"tools":[]}},{"jsonrpc":"2.0","id":9,"error":{"code":-1,"message":"x"}},42]` + "\n"

func TestBatchElementsShownAndPaired(t *testing.T) {
	ev, seqs := batchSession(t, "2025-03-26", mixedBatch)
	if ev.Kind != KindBatch || ev.Batch == nil {
		t.Fatalf("kind %v, batch %v", ev.Kind, ev.Batch)
	}
	els := ev.Batch.Elems
	if len(els) != 5 {
		t.Fatalf("%d elements, want 5", len(els))
	}
	type want struct {
		kind   Kind
		pair   uint64
		method string
		code   ProblemCode
	}
	wants := []want{
		{KindResponse, seqs["ping"], "ping", ""},
		{KindNotification, 0, "", ""},
		{KindResponse, seqs["tools/list"], "tools/list", ""},
		{KindErrorResponse, 0, "", "unknown-id"},
		{KindNotJSONRPC, 0, "", "not-jsonrpc"},
	}
	for i, w := range wants {
		e := els[i]
		if e.Index != i || e.Kind != w.kind || e.Pair != w.pair || e.Method != w.method {
			t.Errorf("element %d: index %d kind %v pair %d method %q; want kind %v pair %d method %q", i, e.Index, e.Kind, e.Pair, e.Method, w.kind, w.pair, w.method)
		}
		if w.code != "" && problemOf(e.Problems, w.code) == nil {
			t.Errorf("element %d lacks problem %q: %v", i, w.code, e.Problems)
		}
		if w.code == "" && len(e.Problems) != 0 {
			t.Errorf("element %d: unexpected problems %v", i, e.Problems)
		}
		if !strings.Contains(mixedBatch, string(e.Raw)) || e.Raw[0] != mixedBatch[strings.Index(mixedBatch, string(e.Raw))] {
			t.Errorf("element %d raw %q is not a slice of the frame", i, e.Raw)
		}
	}
	if got := BatchSummary(els, func(k Kind, n int) string { return fmt.Sprintf("%d %s", n, k) }); got != "5: 2 response, 1 notification, 1 error, 1 not JSON-RPC" {
		t.Errorf("summary %q", got)
	}
}

func TestBatchRuleByNegotiatedVersion(t *testing.T) {
	cases := []struct {
		version  string
		severity Severity
		text     string
	}{
		{"2025-03-26", Info, "allowed in the negotiated MCP 2025-03-26"},
		{"2025-06-18", Warning, "not allowed in the negotiated MCP 2025-06-18 (batching was removed in 2025-06-18"},
		{"2025-11-25", Warning, "not allowed in the negotiated MCP 2025-11-25 (batching was removed in 2025-06-18"},
		{"2024-11-05", Warning, "not allowed in the negotiated MCP 2024-11-05 (batches exist only in 2025-03-26)"},
		{"", Warning, "before a protocol version was negotiated"},
	}
	for _, c := range cases {
		t.Run("v"+c.version, func(t *testing.T) {
			ev, _ := batchSession(t, c.version, mixedBatch)
			pr := problemOf(ev.Problems, "batch")
			if pr == nil || pr.Severity != c.severity || !strings.Contains(pr.Text, c.text) || !strings.Contains(pr.Text, "of 5 element(s)") {
				t.Fatalf("batch problem %+v, want severity %v and %q", pr, c.severity, c.text)
			}
			before := problemOf(ev.Problems, "before-initialize") != nil
			if before != (c.version == "") {
				t.Errorf("before-initialize = %v with version %q: %v", before, c.version, ev.Problems)
			}
			// Elements never repeat the frame's before-initialize problem.
			for _, e := range ev.Batch.Elems {
				if problemOf(e.Problems, "before-initialize") != nil {
					t.Errorf("element %d repeats before-initialize", e.Index)
				}
			}
		})
	}
}

func TestEmptyBatchAndBatchedRequest(t *testing.T) {
	p := NewPairer()
	feed(p, 1, ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{"roots":{}}}}`+"\n")
	feed(p, 2, ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26"}}`+"\n")
	empty := feed(p, 3, ServerToClient, "[]\n")
	if empty.Batch == nil || len(empty.Batch.Elems) != 0 || problemOf(empty.Problems, "empty-batch") == nil {
		t.Fatalf("empty batch: %+v %v", empty.Batch, empty.Problems)
	}
	reqs := feed(p, 4, ServerToClient, `[{"jsonrpc":"2.0","id":"r","method":"roots/list"}]`+"\n")
	el := reqs.Batch.Elems[0]
	if el.Kind != KindRequest || problemOf(el.Problems, "batched-request") == nil {
		t.Fatalf("batched request: %+v", el)
	}
	// It is in flight until the client answers it: our lone response pairs with it, and
	// the same id afterwards is not a reuse.
	reply := feed(p, 5, ClientToServer, `{"jsonrpc":"2.0","id":"r","result":{"roots":[]}}`+"\n")
	if reply.Pair != 4 || problemOf(reply.Problems, "unknown-id") != nil {
		t.Fatalf("our reply to the batched request pairs with it: pair %d %v", reply.Pair, reply.Problems)
	}
	single := feed(p, 6, ServerToClient, `{"jsonrpc":"2.0","id":"r","method":"roots/list"}`+"\n")
	if problemOf(single.Problems, "id-reused") != nil {
		t.Fatalf("an answered batched request is not in flight: %v", single.Problems)
	}
}

// FuzzClassifyBatch: any frame the classifier calls a batch splits into elements that are,
// in order, non-overlapping slices of the frame, each valid JSON, and pairing it never
// panics.
func FuzzClassifyBatch(f *testing.F) {
	f.Add([]byte(mixedBatch))
	f.Add([]byte("[]\n"))
	f.Add([]byte(`[ {"id":"\"]"} , [1,[2]] ,"x\\",null]` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		kind, _, _ := Classify(b)
		if kind != KindBatch {
			return
		}
		p := NewPairer()
		ev := &Event{Seq: 1, Dir: ServerToClient, Raw: b, Kind: kind}
		p.Add(ev)
		if ev.Batch == nil {
			t.Fatal("a batch frame without Batch")
		}
		end := 0
		for i, e := range ev.Batch.Elems {
			at := bytes.Index(b[end:], e.Raw)
			if at < 0 || !json.Valid(e.Raw) || e.Index != i {
				t.Fatalf("element %d %q is not the next valid slice of %q", i, e.Raw, b)
			}
			end += at + len(e.Raw)
		}
	})
}
