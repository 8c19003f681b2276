package ui

import (
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// ownSession is a live session of our own as the panes read it: it can send, and the
// handshake's answer is the one the Server pane holds.
type ownSession struct{ server *serverInfo }

// The live session is a session.Session.
var _ session.Session = ownSession{}

func (c ownSession) CanSend() bool                     { return true }
func (c ownSession) Init() *mcpclient.InitializeResult { return c.server.init }

func (c ownSession) Era() mcpclient.Era {
	if in := c.server.init; in != nil && in.Era != "" {
		return in.Era
	}
	return mcpclient.EraLegacy
}

func (c ownSession) Caps() mcpclient.ServerCapabilities {
	if c.server.init == nil {
		return mcpclient.ServerCapabilities{}
	}
	return c.server.init.Caps
}

// canSend reports whether the session can send requests (false for an opened trace or a
// tap: the panes show what happened and offer no action).
func (c *common) canSend() bool { return c.session.CanSend() }

// attached reports whether the session is a tap seen through attach (the host is the
// client), not a trace file: only wording differs.
func (c *common) attached() bool {
	r, ok := c.session.(*session.Recorded)
	return ok && r.Attached()
}
