package cmd

import (
	"fmt"
	"time"

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
