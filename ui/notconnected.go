package ui

// notConnectedNote refuses a request made before the initialize response: MCP's
// lifecycle (spec basic/lifecycle) allows only pings until then. Such a request is
// refused, not queued: the user's values stay in place to send once connected, and a
// handshake that fails never fires a forgotten call later.
const notConnectedNote = "the handshake is not finished: wait for connected"

// notConnected reports a live session whose initialize response has not come (or the
// handshake failed): no request but a ping may be sent.
func (m *model) notConnected() bool { return m.c.canSend() && m.state().Init == nil }
