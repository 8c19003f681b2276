package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// Messages of the lists: a complete listing of resources (with the templates) or of
// prompts, as Live.List returns it.
type (
	resourcesListedMsg struct{ session.Listing }
	promptsListedMsg   struct{ session.Listing }
	// relistDueMsg is the quiet-interval timer of list's list_changed firing at at.
	relistDueMsg struct {
		list session.List
		at   time.Time
	}
)

// afterConnect lists everything the server offers (first, as Live.Connected said) and,
// in the modern era, opens the subscriptions/listen stream.
func (m *model) afterConnect(first []session.List, listTasksToo bool) tea.Cmd {
	var cmds []tea.Cmd
	for _, l := range first {
		cmds = append(cmds, listCmd(m.ctx, m.sender(), l))
	}
	caps := m.state().Caps()
	if caps.Resources != nil {
		m.resources.status = "listing resources…"
	} else {
		m.resources.status = "the server offers no resources (no resources capability)"
		m.resources.list.empty = m.resources.status
	}
	if caps.Prompts != nil {
		m.prompts.status = "listing prompts…"
	} else {
		m.prompts.status = "the server offers no prompts (no prompts capability)"
		m.prompts.list.empty = m.prompts.status
	}
	if listTasksToo {
		cmds = append(cmds, listTasks(m.ctx, m.sender()))
	}
	if m.state().Era() == mcpclient.EraModern {
		cmds = append(cmds, m.startListen())
	}
	return tea.Batch(cmds...)
}

// relistLater starts the timers the session asks for: list_changed notifications wait for a
// quiet interval before their listing (Lists.Due).
func (m *model) relistLater(rs []session.Relist) tea.Cmd {
	var cmds []tea.Cmd
	for _, r := range rs {
		cmds = append(cmds, m.relistTimer(r.List, r.After))
	}
	return tea.Batch(cmds...)
}

func (m *model) relistTimer(l session.List, after time.Duration) tea.Cmd {
	return m.c.tick(after, func(at time.Time) tea.Msg { return relistDueMsg{list: l, at: at} })
}

// relistDue is a quiet-interval timer firing: the listing goes out, or the timer waits
// more (another list_changed came), or the storm guard pauses and says so.
func (m *model) relistDue(msg relistDueMsg) tea.Cmd {
	if m.sender() == nil {
		return nil
	}
	send, arm, note := m.sess.Lists().Due(msg.list, msg.at)
	if note != nil {
		m.say(*note)
	}
	switch {
	case arm > 0:
		return m.relistTimer(msg.list, arm)
	case send:
		return m.relist(msg.list)
	}
	return nil
}

// relist sends the listings the session asks for (list_changed, or one more after a burst).
func (m *model) relist(ls ...session.List) tea.Cmd {
	var cmds []tea.Cmd
	for _, l := range ls {
		cmds = append(cmds, listCmd(m.ctx, m.sender(), l))
	}
	return tea.Batch(cmds...)
}

// refresh lists one kind again at the user's request (r), clearing its storm guard.
func (m *model) refresh(l session.List) tea.Cmd {
	if m.sender() == nil || !m.sess.Lists().UserRefresh(l) {
		return nil
	}
	return m.relist(l)
}

// listed closes a listing: says what changed, and lists again if asked meanwhile.
func (m *model) listed(l session.List, n int, err error, changes string) tea.Cmd {
	if m.sender() == nil {
		return nil
	}
	again, note := m.sess.Lists().Listed(l, n, err, changes)
	if note != nil {
		m.say(*note)
	}
	if again {
		return m.relist(l)
	}
	return nil
}

// toolsListed is the tools part of toolsListedMsg handling (refresh bookkeeping).
func (m *model) toolsListed(msg toolsListedMsg, changes string) tea.Cmd {
	m.listedInFull(session.Tools, msg.Repeats)
	return m.listed(session.Tools, len(msg.Tools), msg.Err, changes)
}

// resourcesListed takes resources/list and resources/templates/list.
func (m *model) resourcesListed(msg resourcesListedMsg) tea.Cmd {
	p := m.resources
	p.warnings, p.errs = msg.Warnings, nil
	if msg.Err != nil {
		p.errs = append(p.errs, "resources/list failed: "+block(msg.Err.Error()))
	}
	if msg.TemplatesErr != nil {
		p.errs = append(p.errs, "resources/templates/list failed: "+block(msg.TemplatesErr.Error()))
	}
	for _, w := range msg.Warnings {
		m.state().Warnings = append(m.state().Warnings, w)
	}
	m.listedInFull(session.Resources, msg.Repeats)
	changes := session.ListChanges(p.resources, msg.Resources, func(r mcpclient.Resource) string { return r.URI })
	p.setLists(msg.Resources, msg.Templates)
	p.setSize(m.lay.body)
	return m.listed(session.Resources, len(msg.Resources)+len(msg.Templates), msg.Err, changes)
}

// promptsListed takes prompts/list.
func (m *model) promptsListed(msg promptsListedMsg) tea.Cmd {
	p := m.prompts
	p.warnings, p.errs = msg.Warnings, nil
	if msg.Err != nil {
		p.errs = append(p.errs, "prompts/list failed: "+block(msg.Err.Error()))
	}
	m.state().Warnings = append(m.state().Warnings, msg.Warnings...)
	m.listedInFull(session.Prompts, msg.Repeats)
	changes := session.ListChanges(p.prompts, msg.Prompts, func(p mcpclient.Prompt) string { return p.Name })
	p.setPrompts(msg.Prompts)
	p.setSize(m.lay.body)
	return m.listed(session.Prompts, len(msg.Prompts), msg.Err, changes)
}
