package ui

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// #14 §3: a tools/call result with isError: true is an error in the wire list, with the
// tool's name, and the problems filter shows it (without counting it as a violation).
func TestWireShowsToolErrors(t *testing.T) {
	callFail := ev(2, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fail","arguments":{}}}`+"\n")
	failed := ev(3, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"the backend is down"}],"isError":true}}`+"\n")
	failed.Pair, failed.Method = 2, "tools/call"
	callOK := ev(4, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{}}}`+"\n")
	ok := ev(5, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":3,"result":{"content":[],"isError":false}}`+"\n")
	ok.Pair, ok.Method = 4, "tools/call"
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{callFail, failed, callOK, ok}})
	keys(t, m, "3")
	out := view(m)
	mustContain(t, "isError row", out, "tool error (isError): fail")
	if strings.Count(out, "tool error (isError)") != 1 || !strings.Contains(out, "result (tools/call)") {
		t.Fatalf("only the isError result is a tool error:\n%s", out)
	}
	if m.tl.violations != 0 {
		t.Errorf("a tool error counted as %d violation(s)", m.tl.violations)
	}
	keys(t, m, "f", "f") // messages, problems
	out = view(m)
	mustContain(t, "problems filter", out, "tool error (isError): fail")
	if strings.Contains(out, "result (tools/call)") || strings.Contains(out, "no events match") {
		t.Errorf("the problems filter should list the tool error alone:\n%s", out)
	}
}
