package ui

import (
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// shownRaw is what the wire pane shows of an event's bytes: for an HTTP request or
// response (http> / http<), the values of credential headers (Authorization, Cookie,
// X-Api-Key…) and OAuth codes and tokens masked the way a trace masks them
// (trace.HTTPHead, trace.OAuthCredentials), unless showCreds. masked reports a
// change; raw itself is never modified, and the frame save key writes the exact bytes.
func (t *timeline) shownRaw(dir mcpclient.Direction, raw []byte) (shown []byte, masked bool) {
	if t.showCreds || (dir != mcpclient.HTTPOut && dir != mcpclient.HTTPIn) || len(raw) == 0 {
		return raw, false
	}
	out, a := trace.HTTPHead(raw)
	out, b := trace.OAuthCredentials(out)
	return out, a || b
}
