package fake

import (
	"strings"
	"testing"
	"time"
)

// The issue 24 servers: NaN as Python writes it, replies to notifications.
func TestPeopleScenarios(t *testing.T) {
	t.Parallel()
	p := scenario(t, "nan")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stats","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"mean NaN"}],"structuredContent":{"mean": NaN, "max": Infinity, "min": -Infinity, "note": "NaN stays in strings"}}}`)
	p = scenario(t, "buffered")
	p.send(initReq)
	select {
	case c := <-p.chunks:
		t.Fatalf("a buffered server wrote at once: %q", c.b)
	case <-time.After(200 * time.Millisecond):
	}
	if e := p.wait(true); !strings.Contains(e.stdout, `"id":1,"result"`) {
		t.Fatalf("at exit it wrote %q", e.stdout)
	}
	p = scenario(t, "reply-to-notification")
	p.exchange(initReq, defaultInit)
	p.exchange(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","id":null,"result":{}}`)
	p.exchange(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`, `{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"}}`)
}
