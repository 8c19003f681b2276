package cmd

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// jsonShutdown is --json's "shutdown": present when the server did not leave on closed
// stdin, it says which step ended it and how long after stdin closed, in milliseconds.
type jsonShutdown struct {
	Step    string  `json:"step"`
	AfterMs float64 `json:"afterMs"`
}

// shutdownLine says which step ended a server that did not exit when its stdin closed
// (MCP 2025-11-25 basic/lifecycle §Shutdown asks it to), "" when it left as it should.
func shutdownLine(c *mcpclient.Client) string {
	r := c.Shutdown()
	if !r.Lingered() {
		return ""
	}
	return fmt.Sprintf("the server (pid %d) did not exit when its stdin was closed: %s ended it %s later", c.PID(), r.Step, r.After.Round(time.Millisecond))
}

// noteShutdown records, once, how the server was ended when it lingered: a warning
// (stderr unless --quiet) and --json's "shutdown".
func (h *headless) noteShutdown() {
	if h.client == nil || h.shutdownNoted {
		return
	}
	h.shutdownNoted = true
	line := shutdownLine(h.client)
	if line == "" {
		return
	}
	r := h.client.Shutdown()
	h.doc.Shutdown = &jsonShutdown{Step: r.Step, AfterMs: ms(r.After)}
	h.warn("%s", line)
}

// hastenOnInterrupt cuts the client's shutdown to check.InterruptGrace per step once SIGINT,
// SIGTERM or SIGHUP (an *interruptError cause) ends ctx: a server that ignores its stdin's
// end should not keep a user who pressed ctrl+c waiting. It returns when ctx ends.
func hastenOnInterrupt(ctx context.Context, c *mcpclient.Client) {
	<-ctx.Done()
	var ie *interruptError
	if errors.As(context.Cause(ctx), &ie) {
		c.Hasten(check.InterruptGrace)
	}
}

// noteInterruptedClose says, when a signal came after the command's result was known (so
// during the server's shutdown), that the shutdown was cut short. The result stands: its
// exit code is kept, since the output was already written.
func (h *headless) noteInterruptedClose(ctx context.Context) {
	var ie *interruptError
	if !errors.As(context.Cause(ctx), &ie) {
		return
	}
	what := "the " + h.doc.Method + " result above stands"
	if h.doc.Bench != nil {
		what = "the figures above stand"
	}
	h.warn("%s came while the server was shutting down: its shutdown was cut short (%v per step); %s", signalName(ie.sig), check.InterruptGrace, what)
}
