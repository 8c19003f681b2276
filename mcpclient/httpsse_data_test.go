package mcpclient_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// An SSE event whose data is spread over several data: lines (one without the space), with
// CRLF line ends and an unknown field, is one message: no stdio framing problem is found in
// it (a pretty-printed message, a CR) (#23 part 2).
func TestHTTPMultiLineDataNotAViolation(t *testing.T) {
	srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		result := `{"tools":[]}`
		if m.Method == "initialize" {
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"x","version":"1"}}`
		}
		w.Write([]byte("event: message\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata:\"id\":" + string(m.ID) + ",\r\ndata: \"result\":" + result + "}\r\nfoo: bar\r\n\r\n"))
	})
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, Timeout: 5 * time.Second})
	if _, err := s.c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.c.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, ev := range s.close() {
		for _, p := range ev.Problems {
			t.Errorf("#%d %s %s: %s", ev.Seq, ev.Kind, p.Code, p.Text)
		}
	}
}
