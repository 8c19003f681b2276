package mcpclient_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// --era modern against a legacy-only server: the -32601 to server/discover is explained
// (the server speaks the legacy era only; use auto or legacy), in the error Connect returns
// and in the handshake-failed lifecycle event the TUI shows; the RPC error is still inside.
func TestModernAgainstLegacyOnly(t *testing.T) {
	s := startFake(t, "minimal", func(c *mcpclient.Config) { c.Era = mcpclient.EraModern })
	_, err := s.c.Connect(context.Background())
	var lo *mcpclient.LegacyOnlyError
	var rpc *mcpclient.RPCError
	if !errors.As(err, &lo) || !errors.As(err, &rpc) || rpc.Code != -32601 {
		t.Fatalf("Connect: %v (%T), want a LegacyOnlyError around the -32601", err, err)
	}
	for _, want := range []string{"server/discover", "legacy era only", "--era auto", "--era legacy"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	found := false
	for _, ev := range s.events(t) {
		if ev.Life != nil && ev.Life.Kind == mcpclient.LifeHandshakeFailed {
			found = strings.Contains(ev.Life.Text, "legacy era only")
		}
	}
	if !found {
		t.Error("the handshake-failed event does not explain the -32601")
	}
}
