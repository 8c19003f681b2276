package ui

import (
	"encoding/json"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// noteToolCall keeps the tool name of a tools/call request, and marks its result when it
// has isError: true (MCP 2025-11-25 server/tools: a tool's own failure is a result, not a
// JSON-RPC error, so without this the wire list shows it as a plain "result").
func (t *timeline) noteToolCall(ev *mcpclient.Event, e *tlEvent) {
	m := ev.Msg
	if m == nil {
		return
	}
	switch {
	case ev.Kind == mcpclient.KindRequest && m.Method == "tools/call":
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			t.toolNames[ev.Seq] = p.Name
		}
	case ev.Kind == mcpclient.KindResponse && ev.Method == "tools/call" && len(m.Result) > 0:
		name, ok := t.toolNames[ev.Pair]
		delete(t.toolNames, ev.Pair) // only errors keep a name: a long session stays small
		if !ok {
			name = "?"
		}
		var r struct {
			IsError bool `json:"isError"`
		}
		if json.Unmarshal(m.Result, &r) != nil || !r.IsError {
			return
		}
		e.flags |= evToolError
		t.toolNames[ev.Seq] = name
	}
}

// toolErrorSummary is the wire row of an isError result: "tool error (isError): NAME".
func (t *timeline) toolErrorSummary(ev *tlEvent) string {
	return "tool error (isError): " + clean(t.toolNames[ev.seq])
}
