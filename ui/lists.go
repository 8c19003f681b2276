package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// Messages of the lists.
type (
	resourcesListedMsg struct {
		res      []mcpclient.Resource
		tmpls    []mcpclient.ResourceTemplate
		warnings []string
		err      error
		tmplErr  error
		repeats  []mcpclient.Repeat
	}
	promptsListedMsg struct {
		prompts  []mcpclient.Prompt
		warnings []string
		err      error
		repeats  []mcpclient.Repeat
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
func (m *model) listed(l session.List, n int, err error) tea.Cmd {
	if m.sender() == nil {
		return nil
	}
	again, note := m.sess.Lists().Listed(l, n, err)
	if note != nil {
		m.say(*note)
	}
	if again {
		return m.relist(l)
	}
	return nil
}

// toolsListed is the tools part of toolsListedMsg handling (refresh bookkeeping).
func (m *model) toolsListed(msg toolsListedMsg) tea.Cmd {
	m.listedInFull(session.Tools, msg.repeats)
	return m.listed(session.Tools, len(msg.tools), msg.err)
}

// resourcesListed takes resources/list and resources/templates/list.
func (m *model) resourcesListed(msg resourcesListedMsg) tea.Cmd {
	p := m.resources
	p.warnings, p.errs = msg.warnings, nil
	if msg.err != nil {
		p.errs = append(p.errs, "resources/list failed: "+block(msg.err.Error()))
	}
	if msg.tmplErr != nil {
		p.errs = append(p.errs, "resources/templates/list failed: "+block(msg.tmplErr.Error()))
	}
	for _, w := range msg.warnings {
		m.state().Warnings = append(m.state().Warnings, w)
	}
	m.listedInFull(session.Resources, msg.repeats)
	p.setLists(msg.res, msg.tmpls)
	p.setSize(m.lay.body)
	return m.listed(session.Resources, len(msg.res)+len(msg.tmpls), msg.err)
}

// promptsListed takes prompts/list.
func (m *model) promptsListed(msg promptsListedMsg) tea.Cmd {
	p := m.prompts
	p.warnings, p.errs = msg.warnings, nil
	if msg.err != nil {
		p.errs = append(p.errs, "prompts/list failed: "+block(msg.err.Error()))
	}
	m.state().Warnings = append(m.state().Warnings, msg.warnings...)
	m.listedInFull(session.Prompts, msg.repeats)
	p.setPrompts(msg.prompts)
	p.setSize(m.lay.body)
	return m.listed(session.Prompts, len(msg.prompts), msg.err)
}
