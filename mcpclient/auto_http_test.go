package mcpclient_test

import (
	"context"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

func TestHTTPEraAuto(t *testing.T) {
	// server/discover first; a legacy server's 400 (server-everything: a JSON-RPC error
	// with id null, flagged) means initialize (MCP 2026-07-28 streamable-http §Backward
	// Compatibility).
	want := map[string]mcpclient.Era{"server-everything": mcpclient.EraLegacy, "go-stateless": mcpclient.EraModern}
	for name, srv := range map[string]*testservers.HTTPServer{
		"server-everything": testservers.ServerEverythingHTTP(t),
		"go-stateless":      testservers.GoEverythingHTTP(t, true),
	} {
		t.Run(name, func(t *testing.T) {
			s := startHTTP(t, mcpclient.Config{URL: srv.URL, Era: mcpclient.EraAuto})
			res, err := s.c.Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.c.ListTools(context.Background()); err != nil {
				t.Fatal(err)
			}
			evs := s.close()
			if res.Era != want[name] {
				t.Errorf("%s: era %s, want %s", name, res.Era, want[name])
			}
			for _, w := range warnings(evs) {
				t.Logf("warning: %s", w)
			}
		})
	}
}
