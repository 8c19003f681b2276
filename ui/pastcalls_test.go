package ui

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestPastCallsNarrowedListGrows: attached, the list narrowed to one tool (enter on it in
// Tools) takes that tool's calls the tap shows afterwards, and no other tool's.
func TestPastCallsNarrowedListGrows(t *testing.T) {
	c2s, s2c := mcpclient.ClientToServer, mcpclient.ServerToClient
	evs := pairedRecording([]recorded{
		legacyTraffic[0], legacyTraffic[1],
		{c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil},
		{s2c, `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}},{"name":"add","inputSchema":{"type":"object"}}]}}`, nil},
		{c2s, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"one"}}}`, nil},
		{s2c, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"one"}]}}`, nil},
		{c2s, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}`, nil},
		{s2c, `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"1"}]}}`, nil},
		{c2s, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"two"}}}`, nil},
		{s2c, `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"two"}]}}`, nil},
	})
	m := viewerModel(t, false, evs[:6])
	keys(t, m, "1")
	for m.tools.selected() != nil && m.tools.selected().Name != "echo" {
		keys(t, m, "down")
	}
	keys(t, m, "enter")
	mustContain(t, "narrowed to echo", view(m), "calls seen of echo (1)")
	drive(t, m, eventsMsg{events: evs[6:]})
	v := view(m)
	mustContain(t, "narrowed to echo, two calls", v, "calls seen of echo (2)", `{"text":"two"}`)
	if strings.Contains(v, `{"a":1}`) {
		t.Errorf("the list narrowed to echo shows the add call:\n%s", v)
	}
	keys(t, m, "esc")
	mustContain(t, "every tool's calls", view(m), "calls seen (3)", `{"a":1}`)
}
