package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// requestBadge shows how many server requests wait for the user.
func (m *model) requestBadge() string {
	if n := len(m.overlay.requests); n > 0 {
		return m.c.st.Warning.Render(fmt.Sprintf("⚑ %d waiting", n)) + "  "
	}
	return ""
}

// sessionStatus is the era, the requests in flight and the last ping, for the status bar.
func (m *model) sessionStatus() []string {
	var parts []string
	if m.server.init != nil {
		parts = append(parts, string(m.era())+" era")
	}
	if n := m.ops.Running(); n > 0 {
		parts = append(parts, fmt.Sprintf("%d in flight", n))
	}
	if m.pingSeen && m.pingErr == nil {
		parts = append(parts, "ping "+m.ping.Round(10*time.Microsecond).String())
	}
	return parts
}

// flashText is the transient note, while it lasts.
func (m *model) flashText() string {
	if m.flash == "" || !m.now().Before(m.flashUntil) {
		return ""
	}
	return clean(m.flash)
}

// serverMoreLines is the Server tab's part about eras and the client: what server/discover
// said (modern), the client capabilities offered, the roots, the log level and the ping.
func (m *model) serverMoreLines(w int) []string {
	st := m.c.st
	var out []string
	add := func(l ...string) { out = append(out, l...) }
	in := m.server.init
	if in == nil {
		return nil
	}
	add("", st.Title.Render("era"))
	switch in.Era {
	case mcpclient.EraModern:
		add("  modern (2026-07-28): stateless, no initialize; every request carries _meta")
		if d := in.Discover; d != nil {
			add(wrap("  server/discover supportedVersions: "+clean(strings.Join(d.SupportedVersions, ", ")), w)...)
			if d.TTLMs != nil {
				add(fmt.Sprintf("  ttlMs: %d", *d.TTLMs))
			}
			if d.CacheScope != "" {
				add("  cacheScope: " + clean(d.CacheScope))
			}
			if len(d.Meta) > 0 {
				b, _ := json.Marshal(d.Meta)
				if pretty, ok := prettyJSON(b); ok {
					add("  _meta:")
					for _, l := range wrap(block(pretty), max(w-4, 10)) {
						add("    " + l)
					}
				}
			}
		}
		if m.sess != nil && m.sess.Stream().On() {
			add(st.Success.Render("  subscriptions/listen open (list changes, resource updates)"))
		}
	default:
		add("  legacy (initialize handshake, " + clean(in.ProtocolVersion) + ")")
	}
	if !m.c.canSend() {
		// Offline or attached the client is not this mcp-inspect: no offers, no R or P.
		return append(out, m.seenClientLines(w)...)
	}
	add("", st.Title.Render("client (mcp-inspect) offers"))
	add(wrap("  capabilities: "+string(m.features.Capabilities()), w)...)
	if in != nil && in.Era == mcpclient.EraModern && !m.features.NoTasks {
		// Modern requests also declare the tasks extension (mcpclient adds it; --no-tasks drops it).
		add(wrap("  extensions: "+mcpclient.TasksExtension+" (a tools/call may be answered with a task)", w)...)
	}
	if len(m.roots.List) == 0 {
		add("  roots: none (R adds some)")
	}
	for _, r := range m.roots.List {
		add(wrap("  root: "+clean(r.URI), w)...)
	}
	level := "not set (the server decides)"
	if m.logs.serverLevel != "" {
		level = m.logs.serverLevel
	}
	add("  log level: " + level + " (7 Logs, l)")
	switch {
	case in.Era == mcpclient.EraModern:
		add(st.Muted.Render("  ping: not in the modern era"))
	case m.pinging:
		add("  ping: waiting…")
	case m.pingErr != nil:
		add(wrapStyled(st.Error, "  ping failed: "+clean(m.pingErr.Error()), w)...)
	case m.pingSeen:
		add(fmt.Sprintf("  ping: %s round trip (P again)", m.ping.Round(10*time.Microsecond)))
	default:
		add(st.Muted.Render("  ping: P measures the round trip"))
	}
	return out
}
