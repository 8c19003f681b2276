package mcpclient_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestSendRawNotJSONIsAProbe: a line that is not JSON sent with SendRaw appears on the
// timeline as the client's probe (Info, no advice about the server's stdout), not as a
// violation.
func TestSendRawNotJSONIsAProbe(t *testing.T) {
	t.Parallel()
	c, err := mcpclient.Start(mcpclient.Config{Command: fake.Binary(t), Args: []string{"--scenario", "minimal"}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	evs := c.Events()
	if _, err := c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := c.SendRaw([]byte("not json {")); err != nil {
		t.Fatal(err)
	}
	// Bounded: a regression that never emits the line fails here instead of hanging.
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-evs:
			if !ok {
				t.Fatal("the timeline ended without the raw line")
			}
			if ev.Dir != mcpclient.ClientToServer || ev.Kind != mcpclient.KindNotJSON {
				continue
			}
			if len(ev.Problems) != 1 || ev.Problems[0].Severity != mcpclient.Info || strings.Contains(ev.Problems[0].Text, "stderr") {
				t.Fatalf("problems of the client's line: %+v", ev.Problems)
			}
			return
		case <-deadline:
			t.Fatal("the raw line never appeared on the timeline within 10s")
		}
	}
}
