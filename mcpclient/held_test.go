package mcpclient_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A Python server that prints without flushing holds every answer after its (flushed)
// handshake: a request that then waits the silence interval with nothing on stdout gets a
// buffered-stdout note naming the fix, before its timeout; run with PYTHONUNBUFFERED=1
// (what the TUI's U key adds) the same server answers at once.
func TestHeldAnswerOfPythonNamed(t *testing.T) {
	t.Parallel()
	argv := testservers.PrintBuffered(t)
	start := func(env string) (*mcpclient.Client, chan []mcpclient.Event) {
		c, err := mcpclient.Start(mcpclient.Config{Command: argv[0], Args: argv[1:], Env: []string{env},
			Timeout: 3 * time.Second, Silence: 300 * time.Millisecond, ShutdownGrace: 500 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan []mcpclient.Event, 1)
		go func() {
			var all []mcpclient.Event
			for ev := range c.Events() {
				all = append(all, ev)
			}
			done <- all
		}()
		if _, err := c.Initialize(context.Background()); err != nil {
			t.Fatal(err)
		}
		return c, done
	}

	c, done := start("PYTHONUNBUFFERED=") // this machine's environment may set it
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	_, _, err := c.ListTools(ctx)
	cancel()
	if err == nil {
		t.Fatal("a buffered server answered tools/list at once")
	}
	c.Close()
	got := silenceIn(<-done, mcpclient.BufferedNote)
	if len(got) != 1 || !strings.Contains(got[0], "tools/list (event #") || !strings.Contains(got[0], "run without -u or PYTHONUNBUFFERED") || !strings.Contains(got[0], "python -u") {
		t.Fatalf("notes %q", got)
	}

	c, done = start("PYTHONUNBUFFERED=1")
	ctx, cancel = context.WithTimeout(context.Background(), 2*time.Second)
	tools, _, err := c.ListTools(ctx)
	cancel()
	if err != nil || len(tools) != 1 {
		t.Fatalf("unbuffered: %v %v", tools, err)
	}
	c.Close()
	if got := silenceIn(<-done, mcpclient.BufferedNote); len(got) != 0 {
		t.Fatalf("a note for an unbuffered server: %q", got)
	}
}
