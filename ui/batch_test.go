package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// frame is one recorded line of a made-up session: its direction and bytes.
type frame struct {
	dir mcpclient.Direction
	raw string
}

// pairedSession is a legacy session at protocol version: the initialize exchange, then
// frames, numbered from 1, classified and paired by one Pairer as the live client does
// (which words the batch problem by the negotiated version).
func pairedSession(version string, frames ...frame) []mcpclient.Event {
	all := append([]frame{
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{}}}` + "\n"},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"` + version + `","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}` + "\n"},
	}, frames...)
	p := mcpclient.NewPairer()
	evs := make([]mcpclient.Event, len(all))
	for i, f := range all {
		evs[i] = ev(uint64(i+1), f.dir, f.raw)
		p.Add(&evs[i])
	}
	return evs
}

func TestWireShowsBatchElementsPaired(t *testing.T) {
	for _, c := range []struct {
		version string
		rule    string
	}{
		{"2025-03-26", "allowed in the negotiated MCP 2025-03-26"},
		{"2025-06-18", "batching was removed in 2025-06-18"},
	} {
		t.Run(c.version, func(t *testing.T) {
			c2s, s2c := mcpclient.ClientToServer, mcpclient.ServerToClient
			evs := pairedSession(c.version,
				frame{c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"},
				frame{c2s, `{"jsonrpc":"2.0","id":"p","method":"ping"}` + "\n"},
				frame{s2c, `[{"jsonrpc":"2.0","id":"p","result":{}},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}},{"jsonrpc":"2.0","id":2,"result":{"tools":[]}},{"jsonrpc":"2.0","id":77,"error":{"code":-32000,"message":"boom"}}]` + "\n"},
			)
			m := newTestModel(t, nil, 200, 50)
			m.Update(eventsMsg{events: evs})
			press(t, m, "3") // the wire follows the last frame: the batch
			v := view(m)
			for _, want := range []string{
				"batch elements",
				"(4: 2 responses, 1 notification, 1 error)",
				`[0] response id "p" · answers #4 ping`,
				"[1] notification notifications/message",
				"[2] response id 2 · answers #3 tools/list",
				"[3] error -32000 id 77 · no request with this id",
				c.rule,
			} {
				if !strings.Contains(v, want) {
					t.Errorf("the batch's detail lacks %q:\n%s", want, v)
				}
			}
		})
	}
}

// TestBatchServerLive: the batch fake server through the real client, for a version that
// allows batches and one that does not: the batched roots/list is asked and answered, the
// wire detail of each batch lists its elements,
// pairs the batched tools/call response with its request, and words the rule by version.
func TestBatchServerLive(t *testing.T) {
	for _, c := range []struct{ version, rule string }{
		{"2025-03-26", "allowed in the negotiated MCP 2025-03-26"},
		{"2025-06-18", "not allowed in the negotiated MCP 2025-06-18"},
	} {
		t.Run(c.version, func(t *testing.T) {
			l := startLive(t, []string{fake.Binary(t), "--scenario", "batch"},
				mcpclient.Config{ProtocolVersion: c.version, Timeout: 2 * time.Second}, Options{})
			l.until("tools listed", func() bool { return len(l.m.tools.tools) > 0 }, 30*time.Second)
			// The roots/list inside the first batch is asked like a lone one (the UI
			// advertises roots); enter accepts it, which answers it.
			l.until("the batched roots/list asks", func() bool {
				return strings.Contains(view(l.m), "the server asks for the client's roots")
			}, 10*time.Second)
			l.key("enter")
			// The response inside the batch completes the call (it is a violation after
			// 2025-03-26, shown as such, but still the server's answer).
			if run := l.callTool("echo", `{"text":"hi"}`, nil, nil); run.err != nil || resultText(run) != "hi" {
				t.Fatalf("the batched echo: err %v, result %q", run.err, resultText(run))
			}
			var batches []uint64
			// The call's answer and the wire's events reach the model by separate messages.
			l.until("both batch frames on the wire", func() bool {
				batches = batches[:0]
				for _, e := range l.m.tl.evs {
					if e.kind == mcpclient.KindBatch {
						batches = append(batches, e.seq)
					}
				}
				return len(batches) >= 2
			}, 10*time.Second)
			if len(batches) != 2 {
				t.Fatalf("%d batch frames on the wire, want 2", len(batches))
			}
			l.m.Update(tea.WindowSizeMsg{Width: 400, Height: 80}) // no wrapping inside the checked texts
			l.key("3")
			l.m.wire.jump(batches[0])
			v := view(l.m)
			for _, want := range []string{"[0] notification notifications/message", `[1] request roots/list id "srv-1" · answered in a frame of its own`, c.rule} {
				if !strings.Contains(v, want) {
					t.Errorf("the first batch lacks %q:\n%s", want, v)
				}
			}
			l.m.wire.jump(batches[1])
			v = view(l.m)
			if !regexp.MustCompile(`\[0\] response id \d+ · answers #\d+ tools/call`).MatchString(v) || !strings.Contains(v, c.rule) {
				t.Errorf("the echo batch should pair its response with the tools/call:\n%s", v)
			}
		})
	}
}
