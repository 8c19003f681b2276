package ui

import "github.com/mcp-inspect/mcp-inspect/session"

// canSend reports whether the session can send requests (false for an opened trace or a
// tap: the panes show what happened and offer no action).
func (c *common) canSend() bool { return c.session.CanSend() }

// attached reports whether the session is a tap seen through attach (the host is the
// client), not a trace file: only wording differs.
func (c *common) attached() bool {
	r, ok := c.session.(*session.Recorded)
	return ok && r.Attached()
}
