package mcpclient_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// R08: a server that forgot the session says so in other ways than the spec's 404 (400, 401,
// or a JSON-RPC error without an id, even with 200): each is named a dropped session, and a
// new initialize opens a new session that works, the boundary marked on the wire.
func TestHTTPDroppedSessionNamed(t *testing.T) {
	for _, how := range []string{"404", "400", "401", "200"} {
		t.Run(how, func(t *testing.T) {
			_, url := fake.HTTPServer(t, "http-session-"+how, fake.HTTPOptions{})
			s := connectHTTP(t, mcpclient.Config{URL: url, Timeout: 5 * time.Second})
			ctx := context.Background()
			if _, _, err := s.c.ListTools(ctx); err != nil {
				t.Fatalf("the first request in s1: %v", err)
			}
			_, _, err := s.c.ListTools(ctx)
			var se *mcpclient.SessionExpiredError
			if !errors.As(err, &se) || se.SessionID != "s1" {
				t.Fatalf("tools/list in a forgotten session: %v", err)
			}
			if how != "404" && (!strings.Contains(err.Error(), "seems to have dropped session s1") || !strings.Contains(err.Error(), "MCP says 404")) {
				t.Errorf("message: %s", err)
			}
			if _, err := s.c.Connect(ctx); err != nil {
				t.Fatalf("a new initialize: %v", err)
			}
			if got := s.c.SessionID(); got != "s2" {
				t.Fatalf("new session %q", got)
			}
			if _, _, err := s.c.ListTools(ctx); err != nil {
				t.Fatalf("tools/list in the new session: %v", err)
			}
			notes := strings.Join(lifeNotes(s.close()), "\n")
			if !strings.Contains(notes, "new session s2 replaces session s1") {
				t.Errorf("no session boundary on the wire:\n%s", notes)
			}
		})
	}
}
