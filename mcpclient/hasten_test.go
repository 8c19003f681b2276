package mcpclient_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Hasten cuts a Close in progress short: a server that ignores its stdin's end and SIGTERM
// (linger-kill) is killed well before the configured ShutdownGrace would even send SIGTERM,
// and the report still says SIGKILL ended it. A Hasten before Close does the same.
func TestHastenCutsShutdownShort(t *testing.T) {
	t.Parallel()
	const grace = time.Minute // Close alone would take two minutes
	for _, during := range []bool{true, false} {
		s := startFake(t, "linger-kill", func(c *mcpclient.Config) {
			c.ShutdownGrace = grace
			c.OnEvent = nil
		})
		if _, err := s.c.Connect(context.Background()); err != nil {
			t.Fatal(err)
		}
		closed := make(chan struct{})
		if during {
			go func() { s.c.Close(); close(closed) }()
			// Close is waiting on the stdin step (the server ignores it) when Hasten comes.
			for s.c.State() != mcpclient.StateClosed {
				time.Sleep(5 * time.Millisecond)
			}
			s.c.Hasten(20 * time.Millisecond)
		} else {
			s.c.Hasten(20 * time.Millisecond)
			go func() { s.c.Close(); close(closed) }()
		}
		select {
		case <-closed:
		case <-time.After(grace):
			t.Fatalf("during %v: Close still waiting after the configured grace %v", during, grace)
		}
		r := s.c.Shutdown()
		if r.Step != mcpclient.ShutdownKill || r.After >= grace {
			t.Errorf("during %v: report %+v, want SIGKILL well before %v", during, r, grace)
		}
	}
}
