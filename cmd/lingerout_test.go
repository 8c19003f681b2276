package cmd

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestTUIStopServerHastenedByInterrupt: after the UI quit, stopServer waits for a server
// that ignores its stdin's end and SIGTERM; ctrl+c then (ctx ends) cuts each remaining step
// to InterruptGrace, so SIGKILL ends the server well before one DefaultShutdownGrace.
func TestTUIStopServerHastenedByInterrupt(t *testing.T) {
	t.Parallel()
	c, err := mcpclient.Start(mcpclient.Config{Command: fake.Binary(t), Args: []string{"--scenario", "linger-kill"}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range c.Events() {
		}
	}()
	if _, err := c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	var stderr bytes.Buffer
	go func() {
		stopServer(ctx, c, &stderr)
		close(stopped)
	}()
	for c.State() != mcpclient.StateClosed {
		time.Sleep(5 * time.Millisecond)
	}
	cancel() // the second ctrl+c, during the close
	<-stopped
	r := c.Shutdown()
	if r.Step != "SIGKILL" || r.After >= mcpclient.DefaultShutdownGrace {
		t.Fatalf("shutdown %+v: an interrupt should cut each step to %v, not wait %v", r, check.InterruptGrace, mcpclient.DefaultShutdownGrace)
	}
}
