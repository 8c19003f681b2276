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
			keys(t, m, "3") // the wire follows the last frame: the batch
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
				for i := range l.m.tl.len() {
					if e := l.m.tl.evs.at(i); e.kind == mcpclient.KindBatch {
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

// TestBatchNotificationsReachLogs: a notifications/message inside a JSON-RPC batch reaches
// the Logs pane like one sent alone, in the batch's order, and a batched list_changed is
// noted there too.
func TestBatchNotificationsReachLogs(t *testing.T) {
	s2c := mcpclient.ServerToClient
	evs := pairedSession("2025-03-26",
		frame{s2c, `[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched hello"}},{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"second"}}]` + "\n"},
	)
	m := newTestModel(t, nil, 200, 50)
	m.Update(eventsMsg{events: evs})
	var got []string
	for _, e := range m.logs.entries {
		got = append(got, e.text)
		if e.seq != 3 {
			t.Errorf("entry %q has seq %d, want the batch's 3", e.text, e.seq)
		}
	}
	if len(got) != 3 || !strings.Contains(got[0], "batched hello") || !strings.Contains(got[1], "notifications/prompts/list_changed") || !strings.Contains(got[2], "second") {
		t.Fatalf("logs from the batch: %q", got)
	}
	keys(t, m, "7")
	if v := view(m); !strings.Contains(v, "batched hello") || strings.Contains(v, "nothing logged yet") {
		t.Errorf("the Logs pane should show the batched message:\n%s", v)
	}
}

// TestWireLinksRequestToBatchedResponse: a request answered by a response inside a batch
// shows the batch frame as its response, and p jumps to the batch and back.
func TestWireLinksRequestToBatchedResponse(t *testing.T) {
	c2s, s2c := mcpclient.ClientToServer, mcpclient.ServerToClient
	evs := pairedSession("2025-03-26",
		frame{c2s, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}}` + "\n"},
		frame{s2c, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}` + "\n"},
		frame{s2c, `[{"jsonrpc":"2.0","id":3,"result":{"content":[]}},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"y"}}]` + "\n"},
	)
	m := newTestModel(t, nil, 200, 50)
	m.Update(eventsMsg{events: evs})
	keys(t, m, "3")
	m.wire.jump(3)
	v := view(m)
	if strings.Contains(v, "no response yet") || !strings.Contains(v, "response: #5") {
		t.Fatalf("the request should link to the batch #5:\n%s", v)
	}
	keys(t, m, "p")
	if e := m.wire.selected(); e == nil || e.seq != 5 {
		t.Fatalf("p from the request selected %+v, want the batch #5", e)
	}
	keys(t, m, "p")
	if e := m.wire.selected(); e == nil || e.seq != 3 {
		t.Fatalf("p from the batch selected %+v, want the request #3", e)
	}
}
