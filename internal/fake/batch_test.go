package fake

import (
	"strings"
	"testing"
)

// TestBatchScenario: the initialized batch holds a notification and a roots/list request;
// tools/call echo is answered by a batch of the response and a notification.
func TestBatchScenario(t *testing.T) {
	t.Parallel()
	p := scenario(t, "batch")
	p.send(initReq)
	p.responseTo("1")
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.expect(`[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched hello"}},{"jsonrpc":"2.0","id":"srv-1","method":"roots/list"}]`)
	p.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
	got := p.line()
	want := `[{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"hi"}]}},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"echoed in a batch"}}]` + "\n"
	if got != want {
		t.Fatalf("echo:\n got %q\nwant %q", got, want)
	}
	if strings.Count(got, "\n") != 1 {
		t.Fatal("a batch is one line")
	}
}
