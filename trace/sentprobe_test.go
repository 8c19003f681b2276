package trace_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestClientNotJSONIsAProbe: a line that is not JSON sent client→server (check's
// parse-error probe, a raw line) is the client's deliberate frame: read back from a trace it
// is no Warning (so not counted as a violation nor in the stats' problems) and gets no advice
// about the server's stdout; the same line from the server still is a violation with it.
func TestClientNotJSONIsAProbe(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	sy := newSynth(&buf)
	sy.emit(mcpclient.ClientToServer, `mcp-inspect check: this line is not JSON {`)
	sy.emit(mcpclient.ServerToClient, `a log line`)
	// The server's right answer to the probe (JSON-RPC 2.0 §5: id null) is no violation
	// either: no bad id, no unknown id.
	sy.emit(mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
	tr := openBytes(t, buf.Bytes())
	var c2s, s2c []mcpclient.Problem
	for ev, err := range tr.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == mcpclient.KindErrorResponse {
			if len(ev.Problems) != 0 {
				t.Errorf("the -32700 with id null: %+v", ev.Problems)
			}
			continue
		}
		switch ev.Dir {
		case mcpclient.ClientToServer:
			c2s = ev.Problems
		case mcpclient.ServerToClient:
			s2c = ev.Problems
		}
	}
	if len(c2s) != 1 || c2s[0].Code != mcpclient.CodeNotJSON || c2s[0].Severity != mcpclient.Info || strings.Contains(c2s[0].Text, "stderr") || !strings.Contains(c2s[0].Text, "sent by the client") {
		t.Errorf("client line: %+v", c2s)
	}
	if len(s2c) != 1 || s2c[0].Severity != mcpclient.Warning || !strings.Contains(s2c[0].Text, "log to stderr") {
		t.Errorf("server line: %+v", s2c)
	}
	st, err := trace.ComputeStats(tr)
	if err != nil {
		t.Fatal(err)
	}
	if st.Problems["not-json"] != 1 {
		t.Errorf("stats count %d not-json problems, want 1 (the server's line only)", st.Problems["not-json"])
	}
}
