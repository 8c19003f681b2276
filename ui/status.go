package ui

import (
	"fmt"
	"time"
)

// requestBadge shows how many server requests wait for the user.
func (m *model) requestBadge() string {
	if n := len(m.overlay.requests); n > 0 {
		return m.c.st.Warning.Render(fmt.Sprintf("⚑ %d waiting", n)) + "  " + m.holdBadge()
	}
	return m.holdBadge()
}

// sessionStatus is the era, the requests in flight and the last ping, for the status bar.
func (m *model) sessionStatus() []string {
	var parts []string
	if a := m.authText(); a != "" {
		parts = append(parts, a)
	}
	if m.state().Init != nil {
		parts = append(parts, string(m.state().Era())+" era")
	}
	switch {
	case m.state().Expired != "":
		parts = append(parts, "session "+clean(m.state().Expired)+" expired")
	case m.state().SessionID != "":
		parts = append(parts, "session "+clean(m.state().SessionID))
	}
	if n := m.sess.Inflight().Running(); n > 0 {
		parts = append(parts, fmt.Sprintf("%d in flight", n))
	}
	if b := m.breakpointsStatus(); b != "" {
		parts = append(parts, b)
	}
	if m.state().Ping.Seen && m.state().Ping.Err == nil {
		parts = append(parts, "ping "+m.state().Ping.RTT.Round(10*time.Microsecond).String())
	}
	return parts
}

// flashText is the transient note, while it lasts.
func (m *model) flashText() string {
	if m.flash.text == "" || !m.now().Before(m.flash.until) {
		return ""
	}
	return clean(m.flash.text)
}
