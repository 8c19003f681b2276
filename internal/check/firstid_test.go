package check_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestFirstIDZeroNoReusedID: with --first-id 0 the main session numbers initialize 0, so
// the id-zero probe must not send a second request with id 0 (a requester MUST NOT reuse
// an id in a session): every request the client writes has an id of its own, and id-zero
// is judged on initialize's own answer. A server that drops id 0 fails it there.
func TestFirstIDZeroNoReusedID(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var sent []string
	opt := fakeOptions(t, "minimal")
	opt.Server.FirstIDZero = true
	opt.Server.OnEvent = func(ev mcpclient.Event) {
		if ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindRequest && ev.Msg != nil {
			mu.Lock()
			sent = append(sent, string(ev.Msg.ID))
			mu.Unlock()
		}
	}
	rep, err := check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	seen := map[string]bool{}
	for _, id := range sent {
		if seen[id] {
			t.Errorf("the main session sent two requests with id %s (all: %v)", id, sent)
		}
		seen[id] = true
	}
	if !seen["0"] {
		t.Errorf("no request with id 0 sent: %v", sent)
	}
	res := rep.Result("id-zero")
	if res.Status != check.StatusPass || len(res.Notes) == 0 || !strings.Contains(res.Notes[0].Text, "initialize with id 0") {
		t.Errorf("id-zero: %s %+v %+v", res.Status, res.Notes, res.Findings)
	}
	if res := rep.Result("string-id"); res.Status != check.StatusPass {
		t.Errorf("string-id: %s %+v", res.Status, res.Findings)
	}
}
