package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// waitTickMsg redraws the handshake's elapsed time while it waits.
type waitTickMsg struct{}

// waitTick schedules the next redraw of the handshake wait, while there is one.
func (m *Model) waitTick() tea.Cmd {
	if !m.handshaking() {
		return nil
	}
	m.tools.status = m.waitingText()
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return waitTickMsg{} })
}

// handshaking reports whether the handshake is still waiting for its answer.
func (m *Model) handshaking() bool {
	return m.sess != nil && m.server.init == nil && m.server.initErr == nil && !m.server.failed()
}

// waitingText says how long the handshake has waited, and for how long it may.
func (m *Model) waitingText() string {
	s := fmt.Sprintf("waiting for the handshake… %ds", int(m.now().Sub(m.started).Seconds()))
	if m.timeout > 0 {
		s += fmt.Sprintf(" (timeout %s)", m.timeout)
	}
	return s
}

// envText lists the variables the user set for the server, values masked:
// "env: KEY1=*** KEY2=***" ("" when there are none).
func envText(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = clean(k) + "=***"
	}
	return "env: " + strings.Join(parts, " ")
}

// protocolWarning says whether the negotiated protocol version deserves a warning: a
// version mcp-inspect does not know, or a handshake warning about the protocol.
func (s *serverInfo) protocolWarning() bool {
	if s.init == nil {
		return false
	}
	if !mcpclient.KnownProtocolVersion(s.init.ProtocolVersion) {
		return true
	}
	for _, w := range s.init.Warnings {
		if strings.Contains(strings.ToLower(w), "protocol") {
			return true
		}
	}
	return false
}
