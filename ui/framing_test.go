package ui

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// --framing auto (issue #14): the client's note about the server's Content-Length framing
// is a line on the wire and stays in the Server pane, beside the protocol.
func TestFramingAutoNoteShown(t *testing.T) {
	m := connected(t, moreSession(), 160, 40)
	text := mcpclient.FramingAutoNote + "the server writes Content-Length framing (event #2): switched to Content-Length framing both ways; re-sending 1 pending request(s) so framed (still a violation: MCP stdio is newline-delimited JSON)"
	drive(t, m, eventsMsg{events: []mcpclient.Event{{Seq: 3, Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: &mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: text}}}})
	keys(t, m, "4")
	mustContain(t, "server pane", view(m), "framing:  ⚠ the server writes Content-Length framing (event #2): switched to Content-Length framing both ways")
	keys(t, m, "3")
	mustContain(t, "wire pane", view(m), "--framing auto: the server writes Content-Length")
}

// The line breaks of a Content-Length header block and of a pretty-printed message are not
// terminal controls; an escape inside either still is.
func TestFramingLineBreaksAreNotControls(t *testing.T) {
	for raw, want := range map[string]bool{
		"Content-Length: 2\r\n\r\n{}":                  false,
		"{\n  \"id\": 1\r\n}\n":                        false,
		"Content-Length: 2\r\n\r\n{\"a\":\"\x1b[2J\"}": true,
		"{\n  \"a\": \"\x07\"\n}\n":                    true,
		"{\"a\":1}\r\n":                                false,
		"a\rb\n":                                       true,
	} {
		if got := linesHaveControls([]byte(raw)); got != want {
			t.Errorf("%q: %v, want %v", raw, got, want)
		}
	}
}

// The parsed view of a Content-Length frame starts at the message: the header block is
// framing, shown in the raw bytes only (tester's report, issue #14).
func TestFramingParsedViewSkipsHeader(t *testing.T) {
	m := connected(t, moreSession(), 160, 40)
	body := `{"jsonrpc":"2.0","id":9,"result":{}}`
	raw := "Content-Length: 36\r\n\r\n" + body
	kind, msg, probs := mcpclient.Classify([]byte(raw))
	drive(t, m, eventsMsg{events: []mcpclient.Event{{Seq: 3, Dir: mcpclient.ServerToClient, Kind: kind, Msg: msg, Problems: probs, Raw: []byte(raw), Size: int64(len(raw))}}})
	keys(t, m, "3")
	v := view(m)
	mustContain(t, "wire pane", v, "Content-Length: 36\\r\\n")
	if strings.Contains(v, "Content-Length: 36{") {
		t.Errorf("the parsed view has the header glued to the message:\n%s", v)
	}
	mustContain(t, "parsed view", v, `"jsonrpc": "2.0"`)
}
