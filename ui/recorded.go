package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// recordedAnswer applies what a recorded event stands for (a finished handshake, a
// listing, a subscription) as the live answer to the same request would be applied.
func (m *model) recordedAnswer(r session.Reaction) tea.Cmd {
	switch {
	case r.Handshake != nil:
		return m.handshook(*r.Handshake, m.recordedConnected)
	case r.Listing != nil:
		return m.listingRecorded(r.Listing)
	case r.Subscription != nil:
		// As the live answer would: the Resources pane shows it subscribed or not.
		m.resources.subs[r.Subscription.URI] = r.Subscription.On
	}
	return nil
}

// listingRecorded applies a recorded listing as the live answer to the same request.
func (m *model) listingRecorded(l *session.Listing) tea.Cmd {
	switch l.List {
	case session.Tools:
		return m.toolsArrived(toolsListedMsg{*l})
	case session.Resources:
		cmd := m.resourcesListed(resourcesListedMsg{*l})
		// Live, one message carries both listings and their warnings; here each listing
		// carries its own (the Server pane gets each once) and the pane shows both.
		if rec := m.recorded(); rec != nil {
			m.resources.warnings = rec.ResourceWarnings()
		}
		return cmd
	case session.Prompts:
		return m.promptsListed(promptsListedMsg{*l})
	}
	return nil
}

// seenClientLines stand, on the Server pane of a recorded or attached session, for what
// this mcp-inspect would offer: the client the events show (the host, attached), whose
// roots and ping are not ours to change or send.
func (m *model) seenClientLines(w int) []string {
	st := m.c.st
	title := "client (as recorded)"
	if m.c.attached() {
		title = "client (the host, seen through the tap: read-only)"
	}
	out := []string{"", st.Title.Render(title)}
	c := m.recorded().Client()
	if c == nil {
		return append(out, st.Muted.Render("  no initialize request or client _meta seen"))
	}
	out = append(out, wrap("  name: "+clean(c.Info), w)...)
	caps := "(none)"
	if len(c.Caps) > 0 {
		caps = string(c.Caps)
	}
	return append(out, wrap("  capabilities: "+clean(caps), w)...)
}

// notListed is what a pane says before the recording or the tap shows its listing.
func (m *model) notListed(method string) string {
	if m.c.attached() {
		return "attached: the host has not sent " + method + " yet"
	}
	return "offline: no " + method + " recorded"
}

// recordedConnected stands for afterConnect on a recorded session: nothing is asked; the
// panes say what the recording holds until its listings arrive.
func (m *model) recordedConnected() tea.Cmd {
	caps := m.state().Caps()
	m.tools.status = m.notListed("tools/list")
	m.resources.status = m.notListed("resources/list")
	if caps.Resources == nil {
		m.resources.status = "the server offered no resources (no resources capability)"
	}
	m.resources.list.empty = m.resources.status
	m.prompts.status = m.notListed("prompts/list")
	if caps.Prompts == nil {
		m.prompts.status = "the server offered no prompts (no prompts capability)"
	}
	m.prompts.list.empty = m.prompts.status
	return nil
}

// loadShown asks for the recorded events the screen shows and returns the Cmd that reads
// them (nil when nothing is missing, or when the timeline keeps every event's bytes).
func (m *model) loadShown() tea.Cmd {
	if m.tl.load == nil {
		return nil
	}
	m.wire.needShown()
	if m.call.past != nil {
		m.call.past.needShown(m.tl, m.lay.body.h)
	}
	return m.tl.loadCmd()
}

// timelineEvents reads recorded events back from the timeline for session.Recorded's
// Detail: ok is false while an event is still loading (or unknown).
type timelineEvents struct{ tl *timeline }

func (s timelineEvents) Event(seq uint64) (mcpclient.Event, bool, error) {
	i, ok := s.tl.index(seq)
	if !ok {
		return mcpclient.Event{}, false, nil
	}
	ev, ok := s.tl.full(i)
	if !ok {
		return ev, false, s.tl.loadErr(seq)
	}
	return ev, true, nil
}
