package mcpclient_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Every JSON-RPC message of an HTTP session is linked to the exchange it travelled in
// (Event.Exchange): a POST to the message its body carries, and a message read from an
// answer (a JSON body or an SSE event) to that answer's POST, also across a 307 hop.
func TestHTTPMessagesLinkedToExchanges(t *testing.T) {
	for _, sc := range []string{"http-minimal", "http-gzip-sse", "http-redirect-307"} {
		t.Run(sc, func(t *testing.T) {
			_, url := fake.HTTPServer(t, sc, fake.HTTPOptions{})
			s := connectHTTP(t, mcpclient.Config{URL: url, Timeout: 5 * time.Second})
			ctx := context.Background()
			if _, _, err := s.c.CallTool(ctx, "echo", []byte(`{"text":"x"}`)); err != nil {
				t.Fatal(err)
			}
			evs := s.close()
			bySeq := map[uint64]mcpclient.Event{}
			for _, ev := range evs {
				bySeq[ev.Seq] = ev
			}
			posts, answers := 0, 0
			for _, ev := range evs {
				switch {
				case ev.Kind == mcpclient.KindHTTPRequest && ev.Exchange != 0:
					posts++
					if m := bySeq[ev.Exchange]; m.Dir != mcpclient.ClientToServer || string(m.Raw) == "" {
						t.Errorf("POST #%d links to #%d, not a sent message: %+v", ev.Seq, ev.Exchange, m.Kind)
					}
				case ev.Dir == mcpclient.ServerToClient:
					answers++
					if x := bySeq[ev.Exchange]; x.Kind != mcpclient.KindHTTPRequest {
						t.Errorf("message #%d (%s) links to #%d, not an HTTP request", ev.Seq, ev.Kind, ev.Exchange)
					} else if c := bySeq[x.Exchange]; c.Msg == nil || ev.Msg == nil || (ev.Kind == mcpclient.KindResponse && string(c.Msg.ID) != string(ev.Msg.ID)) {
						t.Errorf("message #%d answers a POST that carried #%d", ev.Seq, x.Exchange)
					}
				case ev.Kind == mcpclient.KindHTTPRequest && strings.HasPrefix(string(ev.Raw), "POST "):
					t.Errorf("POST #%d carries no message: %q", ev.Seq, ev.Raw)
				}
			}
			// initialize, notifications/initialized, tools/call; and each 307 hop again.
			if posts < 3 || answers < 2 {
				t.Fatalf("%d linked POSTs, %d linked answers", posts, answers)
			}
		})
	}
}
