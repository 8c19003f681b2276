package mcpclient_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestBatchStrictByVersion: --strict stops at the batch fake's first batch when the
// negotiated version forbids batches, naming the rule; under 2025-03-26 the same batches
// are noted, not violations, and the session goes on.
func TestBatchStrictByVersion(t *testing.T) {
	t.Run("2025-06-18 stops", func(t *testing.T) {
		s := startFake(t, "batch", func(c *mcpclient.Config) { c.Strict, c.ProtocolVersion = true, "2025-06-18" })
		if _, err := s.c.Initialize(context.Background()); err != nil {
			t.Fatal(err)
		}
		select {
		case <-s.c.Exited():
		case <-time.After(10 * time.Second):
			t.Fatal("strict mode did not stop at the batch")
		}
		_, _, err := s.c.ListTools(context.Background())
		var v *mcpclient.ViolationError
		if !errors.As(err, &v) || v.Problem.Code != "batch" || !strings.Contains(err.Error(), "removed in MCP 2025-06-18") {
			t.Fatalf("want the batch violation with its rule, got %v", err)
		}
	})
	t.Run("2025-03-26 goes on", func(t *testing.T) {
		s := startFake(t, "batch", func(c *mcpclient.Config) { c.Strict, c.ProtocolVersion = true, "2025-03-26" })
		ctx := context.Background()
		if _, err := s.c.Initialize(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := s.c.Ping(ctx); err != nil {
			t.Fatalf("the session should go on after an allowed batch: %v", err)
		}
		var seen int
		for _, ev := range s.events(t) {
			if ev.Kind != mcpclient.KindBatch {
				continue
			}
			seen++
			p := problem(ev, "batch")
			if p == nil || p.Severity != mcpclient.Info || ev.Batch == nil || len(ev.Batch.Elems) != 2 {
				t.Errorf("batch #%d: problem %+v, batch %+v", ev.Seq, p, ev.Batch)
			}
		}
		if seen != 1 {
			t.Errorf("%d batches, want the initialized one", seen)
		}
	})
}

// TestBatchedResponseCompletesTheRequest: a tools/call answered inside a batch (the batch
// fake answers echo with [response, notification]) returns its result at once instead of
// waiting for the timeout.
func TestBatchedResponseCompletesTheRequest(t *testing.T) {
	s := startFake(t, "batch", func(c *mcpclient.Config) { c.ProtocolVersion, c.Timeout = "2025-03-26", 30*time.Second })
	ctx := context.Background()
	if _, err := s.c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, resp, err := s.c.CallTool(ctx, "echo", []byte(`{"text":"in a batch"}`))
	if err != nil {
		t.Fatalf("the batched response did not complete the call: %v after %v", err, time.Since(start))
	}
	if len(res.Content) == 0 || res.Content[0].Text != "in a batch" {
		t.Fatalf("result %+v", res)
	}
	var batchSeq uint64
	for _, ev := range s.events(t) {
		if ev.Kind == mcpclient.KindBatch && ev.Seq == resp.Seq {
			batchSeq = ev.Seq
		}
	}
	if batchSeq == 0 || resp.RequestSeq == 0 {
		t.Errorf("the response should point at the batch frame (seq %d) and its request (seq %d)", resp.Seq, resp.RequestSeq)
	}
}

// TestBatchedServerRequestIsAnswered: the roots/list inside the batch fake's batch after
// initialized reaches OnServerRequest like a lone request, and the answer goes back as a
// response frame of its own, paired with it.
func TestBatchedServerRequestIsAnswered(t *testing.T) {
	asked := make(chan string, 1)
	s := startFake(t, "batch", func(c *mcpclient.Config) {
		c.ProtocolVersion = "2025-03-26"
		c.Capabilities = []byte(`{"roots":{"listChanged":false}}`)
		c.OnServerRequest = func(r *mcpclient.ServerRequest) {
			asked <- r.Method
			_ = r.Respond([]byte(`{"roots":[{"uri":"file:///tmp","name":"tmp"}]}`))
		}
	})
	if _, err := s.c.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-asked:
		if m != "roots/list" {
			t.Fatalf("asked %q", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the batched roots/list never reached OnServerRequest")
	}
	if _, err := s.c.Ping(context.Background()); err != nil { // the reply is written before the ping
		t.Fatal(err)
	}
	var batchSeq uint64
	for _, ev := range s.events(t) {
		if ev.Kind == mcpclient.KindBatch && batchSeq == 0 {
			batchSeq = ev.Seq
		}
		if ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindResponse && strings.Contains(string(ev.Raw), `"srv-1"`) {
			if ev.Pair != batchSeq || !strings.Contains(string(ev.Raw), "file:///tmp") {
				t.Fatalf("the reply %s pairs with #%d, want the batch #%d", ev.Raw, ev.Pair, batchSeq)
			}
			return
		}
	}
	t.Fatal("no reply to the batched roots/list was written")
}
