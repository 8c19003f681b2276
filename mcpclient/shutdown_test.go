package mcpclient_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// #14 §3: Close says which step ended the server and how long after its stdin closed: a
// server that leaves on closed stdin, one that waits for SIGTERM, one that needs SIGKILL.
func TestShutdownReportSaysWhichStep(t *testing.T) {
	t.Parallel()
	const grace = 500 * time.Millisecond
	for _, c := range []struct {
		scenario string
		step     string
		atLeast  time.Duration
	}{
		{"minimal", mcpclient.ShutdownStdin, 0},
		{"linger", mcpclient.ShutdownTerminate, grace},
		{"linger-kill", mcpclient.ShutdownKill, 2 * grace},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			t.Parallel()
			s := startFake(t, c.scenario, nil)
			if _, err := s.c.Connect(context.Background()); err != nil {
				t.Fatal(err)
			}
			if r := s.c.Shutdown(); r.Step != "" {
				t.Fatalf("a report before Close: %+v", r)
			}
			s.events(t)
			r := s.c.Shutdown()
			if r.Step != c.step || r.After < c.atLeast || r.Lingered() != (c.step != mcpclient.ShutdownStdin) {
				t.Fatalf("report %+v (lingered %v), want step %q after at least %v", r, r.Lingered(), c.step, c.atLeast)
			}
		})
	}
}
