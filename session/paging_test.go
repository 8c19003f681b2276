package session

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A recorded listing whose pages repeat an item is merged and says so, as live; a
// recorded handshake keeps the version asked for, and an older known one is a note.
func TestRecordedPagesRepeatAndRequestedVersion(t *testing.T) {
	lines := []line{
		{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-inspect","version":"0.1.0"}}}`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"1"}}}`},
		{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}],"nextCursor":"p2"}}`},
		{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"p2"}}`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}},{"name":"add","inputSchema":{"type":"object"}}],"nextCursor":""}}`},
	}
	_, obs, _ := replay(paired(lines))
	if len(obs) != 2 {
		t.Fatalf("observed %d, want the handshake and one listing", len(obs))
	}
	h := obs[0].Handshake.Result
	if h.Requested != "2025-11-25" || len(h.Notes) != 1 || !strings.Contains(h.Notes[0], "2025-03-26 (requested 2025-11-25): an older revision") || len(h.Warnings) != 0 {
		t.Errorf("handshake requested %q notes %q warnings %q", h.Requested, h.Notes, h.Warnings)
	}
	l := obs[1].Listing
	if len(l.Tools) != 2 || l.Tools[0].Name != "echo" || l.Tools[1].Name != "add" {
		t.Fatalf("tools %+v, want echo once then add", l.Tools)
	}
	if len(l.Repeats) != 1 || l.Repeats[0].ID != "echo" || l.Repeats[0].PagesText() != "1 and 2" || l.Repeats[0].Differ {
		t.Errorf("repeats %+v, want echo on pages 1 and 2, identical", l.Repeats)
	}
	w := strings.Join(l.Warnings, "\n")
	for _, want := range []string{`tools/list page 2: "nextCursor": ""`, `pages 1 and 2 each carry the item with name "echo" (identical copies)`} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
}
