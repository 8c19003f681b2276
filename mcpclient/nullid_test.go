package mcpclient_test

import (
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestParseErrorNullIDIsNoViolation: JSON-RPC 2.0 §5 requires id null on the answer to a
// line that could not be read (-32700, -32600): such an error is no bad id; with another
// code id null still is.
func TestParseErrorNullIDIsNoViolation(t *testing.T) {
	t.Parallel()
	for line, bad := range map[string]bool{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n":     false,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}` + "\n": false,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"nope"}}` + "\n":            true,
	} {
		kind, _, probs := mcpclient.Classify([]byte(line))
		got := false
		for _, p := range probs {
			got = got || p.Code == mcpclient.CodeBadID
		}
		if kind != mcpclient.KindErrorResponse || got != bad {
			t.Errorf("%s: kind %v, problems %+v; want bad-id %v", line, kind, probs, bad)
		}
	}
}
