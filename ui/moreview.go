package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// requestBadge shows how many server requests wait for the user.
func (m *Model) requestBadge() string {
	if n := len(m.dialogs); n > 0 {
		return m.c.st.Warning.Render(fmt.Sprintf("⚑ %d waiting", n)) + "  "
	}
	return ""
}

// bodyMore draws the panes beyond the first four.
func (m *Model) bodyMore() string {
	now := m.now()
	switch m.focus {
	case paneResources:
		return m.resources.view(now)
	case panePrompts:
		return m.prompts.view(now)
	case paneLogs:
		base := now
		if m.tl.len() > 0 {
			base = m.tl.base
		}
		return m.logs.view(base)
	case paneTasks:
		return m.tasks.view(now)
	}
	return ""
}

// modalView is the roots editor or the front dialog, drawn over the body ("" when none).
func (m *Model) modalView() string {
	r := m.lay.body
	switch {
	case m.keep.prompt != nil:
		return m.keepView()
	case m.restart.prompt != nil:
		return m.restartView()
	case m.rootsEd != nil:
		m.rootsEd.w, m.rootsEd.h = r.w, r.h
		return m.rootsEd.view(m.roots, m.era() == mcpclient.EraLegacy, m.rootNotes)
	case len(m.dialogs) > 0:
		d := m.dialogs[0]
		if d.during == "" && d.req.modern() {
			// The input_required response may reach the timeline after the request.
			d.during = m.during(d.req)
		}
		if d.shownAt.IsZero() {
			d.shownAt = m.now()
		}
		d.setSize(r.w, r.h)
		return d.view(m.roots, len(m.dialogs)-1)
	}
	return ""
}

// statusMore adds the era and the requests in flight to the status bar.
func (m *Model) statusMore() []string {
	var parts []string
	if m.server.init != nil {
		parts = append(parts, string(m.era())+" era")
	}
	if n := m.ops.inFlight(); n > 0 {
		parts = append(parts, fmt.Sprintf("%d in flight", n))
	}
	if m.pingSeen && m.pingErr == nil {
		parts = append(parts, "ping "+m.ping.Round(10*time.Microsecond).String())
	}
	return parts
}

// flashText is the transient note, while it lasts.
func (m *Model) flashText() string {
	if m.flash == "" || !m.now().Before(m.flashUntil) {
		return ""
	}
	return clean(m.flash)
}

// helpMore lists the keys of the panes beyond the first four.
func (m *Model) helpMore() []key.Binding {
	k := m.c.keys
	nav := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	switch m.focus {
	case paneResources:
		if m.resources.form != nil {
			return []key.Binding{k.NextField, k.PrevField, k.SuggestNext, k.SuggestPrev, k.Submit, k.Cancel}
		}
		return append(nav, k.Filter, k.Open, k.Subscribe, k.Save, k.Refresh, k.DetailUp, k.DetailDown)
	case panePrompts:
		if m.prompts.form != nil {
			return []key.Binding{k.NextField, k.PrevField, k.SuggestNext, k.SuggestPrev, k.Submit, k.Cancel}
		}
		return append(nav, k.Filter, k.Open, k.Refresh, k.DetailUp, k.DetailDown)
	case paneLogs:
		return append(nav, k.LevelFilter, k.SetLevel)
	case paneTasks:
		return append(nav, k.Filter, k.Open, k.TaskResult, k.TaskCancel, k.Refresh, k.DetailUp, k.DetailDown)
	}
	return nil
}

// modalHelp lists the keys of the open dialog or editor (nil when none is open).
func (m *Model) modalHelp() []key.Binding {
	k := m.c.keys
	switch {
	case m.keep.prompt != nil, m.restart.prompt != nil:
		return []key.Binding{k.Confirm, k.Dismiss}
	case m.rootsEd != nil:
		return []key.Binding{k.AddRoot, k.RemoveRoot, k.Up, k.Down, k.Dismiss}
	case len(m.dialogs) > 0:
		switch m.dialogs[0].kind {
		case dlgRoots:
			return []key.Binding{k.Accept, k.Confirm, k.EditRoots, k.Decline, k.Dismiss}
		case dlgElicitForm:
			return []key.Binding{k.NextField, k.PrevField, k.Toggle, k.Accept, k.Decline, k.Dismiss, k.ScrollUp, k.ScrollDown}
		}
		return []key.Binding{k.Accept, k.Decline, k.Dismiss, k.ScrollUp, k.ScrollDown}
	}
	return nil
}

// syncKeysMore enables the bindings of the panes beyond tools from state.
func (m *Model) syncKeysMore() {
	k := &m.c.keys
	live := m.sess != nil && m.server.init != nil
	if m.ops.inFlight() > 0 {
		k.CancelCall.SetEnabled(true)
	}
	k.Ping.SetEnabled(live)
	k.Roots.SetEnabled(m.sess != nil) // offline there is no server to offer roots to
	k.SaveSession.SetEnabled(m.keep.save != nil)
	k.Restart.SetEnabled(m.restart.enabled)
	res, _ := m.resources.selection()
	subOK := res != nil && live && (m.era() == mcpclient.EraModern || m.caps().Resources != nil && m.caps().Resources.Subscribe)
	k.Subscribe.SetEnabled(subOK)
	k.SetLevel.SetEnabled(live)
	k.TaskResult.SetEnabled(live && m.tasks.selected() != nil)
	k.TaskCancel.SetEnabled(live && m.tasks.selected() != nil && !m.tasks.selected().task.Terminal())
	k.Refresh.SetEnabled(live)
	k.ReadLink.SetEnabled(live && m.call.hasLinks())
}

// resizeMore sizes the panes beyond tools and the open dialogs.
func (m *Model) resizeMore(r rect) {
	m.resources.setSize(r)
	m.prompts.setSize(r)
	m.logs.setSize(r)
	m.tasks.setSize(r)
	for _, d := range m.dialogs {
		d.setSize(r.w, r.h)
	}
}

// serverMoreLines is the Server tab's part about eras and the client: what server/discover
// said (modern), the client capabilities offered, the roots, the log level and the ping.
func (m *Model) serverMoreLines(w int) []string {
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
		if m.listenOn {
			add(st.Success.Render("  subscriptions/listen open (list changes, resource updates)"))
		}
	default:
		add("  legacy (initialize handshake, " + clean(in.ProtocolVersion) + ")")
	}
	if m.offline != nil {
		// Offline or attached the client is not this mcp-inspect: no offers, no R or P.
		return append(out, m.seenClientLines(w)...)
	}
	add("", st.Title.Render("client (mcp-inspect) offers"))
	add(wrap("  capabilities: "+string(m.features.Capabilities()), w)...)
	if in != nil && in.Era == mcpclient.EraModern && !m.features.NoTasks {
		// Modern requests also declare the tasks extension (mcpclient adds it; --no-tasks drops it).
		add(wrap("  extensions: "+mcpclient.TasksExtension+" (a tools/call may be answered with a task)", w)...)
	}
	if len(m.roots) == 0 {
		add("  roots: none (R adds some)")
	}
	for _, r := range m.roots {
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
