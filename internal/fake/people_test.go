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

// stderr-progress draws a progress bar with '\r' (states FAKE_DELAY_MS apart, the line
// ended at 100%) and an unfinished "Loading model… " before it serves; union offers a tool
// whose argument is a oneOf with a const discriminator and echoes its arguments.
func TestProgressAndUnionScenarios(t *testing.T) {
	t.Parallel()
	p := scenario(t, "stderr-progress", "FAKE_DELAY_MS=1")
	p.waitStderr("Loading model… done\n")
	got := p.stderrUntil("done\n")
	if !strings.HasPrefix(got, "\r 10%|█         | 1/10\r 20%|██") || !strings.Contains(got, "\r100%|██████████| 10/10\nLoading model… done\n") {
		t.Fatalf("stderr %q", got)
	}
	p.handshake()

	p = scenario(t, "union")
	p.handshake()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if l := p.line(); !strings.Contains(l, `"shape":{"oneOf":[{"title":"circle"`) || !strings.Contains(l, `"kind":{"const":"square"}`) {
		t.Fatalf("tools/list %q", l)
	}
	p.exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"draw","arguments":{"shape":{"r":2}}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"shape\":{\"r\":2}}"}]}}`)
}
