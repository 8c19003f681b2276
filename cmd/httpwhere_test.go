package cmd

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// Problems of a remote server's messages name the message among the HTTP bodies and
// streams, never a stdout line (a remote server has none).
func TestHeadlessHTTPProblemsSayHTTP(t *testing.T) {
	t.Parallel()
	srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := `{"tools":[]}`
		if m.Method == "initialize" {
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"x","version":"1"}}`
		}
		w.Header().Set("Content-Type", "application/json")
		// Both result and error: a response breaking JSON-RPC 2.0 §5.
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `,"error":{"code":1,"message":"also"}}`))
	})
	r := inspect(t, nil, "tools", srv.URL)
	if !strings.Contains(r.stderr, "server message") || !strings.Contains(r.stderr, "(HTTP body or stream)") || strings.Contains(r.stderr, "stdout line") {
		t.Fatalf("stderr:\n%s", r.stderr)
	}
}
