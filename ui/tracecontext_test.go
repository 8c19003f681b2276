package ui

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestWireDetailShowsTraceContext (issue 28): a request carrying a W3C traceparent in
// params._meta shows it in the wire pane's detail, decoded; an invalid one shows nothing.
func TestWireDetailShowsTraceContext(t *testing.T) {
	c2s := mcpclient.ClientToServer
	evs := pairedSession("2025-11-25",
		frame{c2s, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}` + "\n"},
		frame{c2s, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","_meta":{"traceparent":"00-zz-00f067aa0ba902b7-01"}}}` + "\n"},
	)
	m := newTestModel(t, nil, 200, 50)
	m.Update(eventsMsg{events: evs})
	keys(t, m, "3", "G", "k")
	mustContain(t, "detail of the request with a traceparent", view(m),
		"trace context (params._meta.traceparent): trace 4bf92f3577b34da6a3ce929d0e0e4736", "span 00f067aa0ba902b7 · sampled")
	keys(t, m, "j")
	if v := view(m); strings.Contains(v, "trace context (") {
		t.Errorf("an invalid traceparent is shown as trace context:\n%s", v)
	}
}
