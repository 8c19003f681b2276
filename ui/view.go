package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// View draws the whole screen.
func (m *model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	m.paintTerminal(&v)
	if m.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	return v
}

// render is View's content as a string (tests read it directly).
func (m *model) render() string {
	if m.width == 0 {
		return "starting…"
	}
	if m.lay.tooSmall {
		return m.tooSmall()
	}
	body := m.body()
	if m.help.shown {
		// Sized like any body, so the status bar stays on the last line.
		body = normalize(m.helpView(), m.lay.body.w, m.lay.body.h)
	}
	return strings.Join([]string{m.header(), body, m.statusBar()}, "\n")
}

func (m *model) tooSmall() string {
	msg := fmt.Sprintf("terminal too small: %dx%d, need at least %dx%d (%s quits)", m.width, m.height, minWidth, minHeight, m.c.keys.Global.Quit.Help().Key)
	return ansi.Hardwrap(msg, max(m.width, 1), true)
}

// header draws the pane tabs, the waiting server requests and the session title. When
// the tabs do not fit, the others shrink to their numbers.
func (m *model) header() string {
	st := m.c.st
	badge := m.requestBadge()
	var full, short []string
	for p, label := range m.tabLabels() {
		if paneID(p) == m.focus {
			full = append(full, st.TabActive.Render(label))
			short = append(short, st.TabActive.Render(label))
		} else {
			full = append(full, st.TabInactive.Render(label))
			short = append(short, st.TabInactive.Render(fmt.Sprintf("%d", p+1)))
		}
	}
	left := " " + strings.Join(full, "  ") + "  "
	if ansi.StringWidth(left+badge) > m.width {
		left = " " + strings.Join(short, " ") + "  "
	}
	title := st.Muted.Render(clean(m.launch.title))
	return fit(left+badge+title, m.width)
}

// tabLabels are the header's tab labels, unstyled, in pane order (the mouse finds tabs
// by them).
func (m *model) tabLabels() [paneCount]string {
	var labels [paneCount]string
	for p := paneID(0); p < paneCount; p++ {
		label := fmt.Sprintf("%d %s", p+1, m.panes[p].title())
		if n := m.call.runningCount(); p == paneCall && n > 0 {
			label += " " + m.call.spin.View()
			if n > 1 {
				label += fmt.Sprintf(" ×%d", n)
			}
		}
		labels[p] = label
	}
	return labels
}

// body draws the focused pane, or the dialog over it, into the body rectangle.
func (m *model) body() string {
	r := m.lay.body
	s := m.panes[m.focus].view(m.now())
	if d := m.modalView(); d != "" {
		s = d
	}
	return normalize(s, r.w, r.h)
}

// normalize forces s to exactly h lines of exactly w cells, so the status bar never moves.
func normalize(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = fit(l, w)
	}
	return strings.Join(lines, "\n")
}

// statusBar: server name and version, protocol, state, pid, violations, stderr, help hint.
func (m *model) statusBar() string {
	st := m.c.st
	s := m.state()
	var parts []string
	// proto is the protocol part, drawn in the warning style when it deserves one.
	var proto string
	if s.Init != nil {
		proto = "protocol " + clean(s.Init.ProtocolVersion)
		if s.Init.ProtocolVersion == "" {
			proto = "protocol (none answered)"
		}
		if s.ProtocolWarning() {
			proto = "⚠ " + proto
			if v := s.Init.ProtocolVersion; v != "" && !mcpclient.KnownProtocolVersion(v) {
				proto += " (unknown)"
			}
		}
		if r := s.Init.Requested; r != "" && r != s.Init.ProtocolVersion {
			// Negotiated and requested side by side: a known older one is no fault.
			proto += " (requested " + clean(r) + ")"
		}
		parts = append(parts, clean(s.Init.ServerInfo.Name)+" "+clean(s.Init.ServerInfo.Version), proto)
	} else {
		parts = append(parts, "server ?")
	}
	if m.probing() {
		parts = append(parts, "probing the era (--era auto)") // the Tools pane says more
	} else {
		parts = append(parts, stateText(s))
	}
	if live, ok := m.tl.stderrLive(); ok && strings.TrimSpace(live) != "" {
		// A progress bar on stderr (npx downloading, a model loading): its latest state.
		parts = append(parts, "stderr: "+ansi.Truncate(clean(strings.TrimSpace(m.c.maskText(live))), 40, "…"))
	}
	parts = append(parts, m.sessionStatus()...)
	if s.PID != 0 {
		parts = append(parts, fmt.Sprintf("pid %d", s.PID))
	}
	parts = append(parts, jsontext.Count(m.tl.violations, "violation", "violations"), fmt.Sprintf("%d stderr", m.tl.tail.Count()))
	if f := m.recFact(); f != "" {
		parts = append(parts, f)
	}
	// The keys as bound (the settings file can move them).
	helpKey := m.c.keys.Global.Help.Help().Key
	hint := " " + helpKey + " help "
	if s.Failed() && m.restart.enabled {
		// On every pane, not only where the dead-server panel shows.
		hint = " " + m.c.keys.Global.Restart.Help().Key + " restart · " + helpKey + " help "
	}
	text := " " + strings.Join(parts, " · ")
	if f := m.flashText(); f != "" {
		text = " " + f + " · " + strings.Join(parts, " · ")
	}
	room := max(m.width-ansi.StringWidth(hint), 0)
	line := fit(text, room) + hint
	sty := st.StatusBar
	if s.Failed() {
		sty = sty.Inherit(st.Error)
	}
	if s.ProtocolWarning() {
		if i := strings.Index(line, proto); i >= 0 {
			warn := st.Warning.Inherit(sty)
			return sty.Render(line[:i]) + warn.Render(proto) + sty.Render(line[i+len(proto):])
		}
	}
	return sty.Render(line)
}

// helpView lists the keys live in the focused pane (or the open dialog), then the global
// ones.
func (m *model) helpView() string {
	pane, global := m.helpKeys()
	st := m.c.st
	closes := fmt.Sprintf("(%s or %s closes)", m.c.keys.Global.Help.Help().Key, m.c.keys.Form.Cancel.Help().Key)
	head := st.Title.Render(fmt.Sprintf("keys · %s pane", m.panes[m.focus].title())) + st.Muted.Render("   "+closes)
	if m.formHasKeys() {
		head = st.Title.Render("keys · call form") + st.Muted.Render("   the form takes every key: "+m.c.keys.Form.NextField.Help().Key+" moves between fields, pane numbers are text · "+closes)
	}
	return m.helpPage(head, pane, global, m.lay.body.w, m.lay.body.h)
}

// helpKeys are the keys of the focused pane (or the open dialog), and the global keys.
func (m *model) helpKeys() (pane, global []key.Binding) {
	k := m.c.keys
	pane = m.panes[m.focus].bindings()
	if keys := m.modalHelp(); keys != nil {
		return keys, bindingsOf(k.Global)
	}
	if m.formHasKeys() {
		return pane, formGlobals(&k)
	}
	return pane, bindingsOf(k.Global)
}

// formHasKeys reports whether the call form owns the keys (it is open and focused, no
// dialog in front): only ctrl+c gets past it, and q and ? off a text field.
func (m *model) formHasKeys() bool {
	return m.focus == paneCall && m.call.form != nil && m.overlay.front() == nil
}

// formGlobals are the global keys that work in the open form, said as they work there.
func formGlobals(k *keyMap) []key.Binding {
	quit, help := k.Global.Quit, k.Global.Help
	quit.SetEnabled(true)
	quit.SetHelp(quit.Help().Key, "quit, off a text field (unsent changes: press it twice)")
	help.SetHelp(help.Help().Key, "this help, off a text field")
	return []key.Binding{quit, k.Global.ForceQuit, help}
}

// sync brings what the views read in line with the state, after every Update: key
// enablement, scroll offsets, the front dialog's size and stamps.
func (m *model) sync() {
	m.syncKeys()
	if p := m.call.past; p != nil {
		p.sync(m.focus == paneCall && m.call.form == nil && !m.lay.tooSmall && m.width > 0, m.lay.body.w, m.lay.body.h)
	}
	if m.lay.tooSmall || m.width == 0 {
		return
	}
	r := m.lay.body
	m.call.clampOff()
	if s, ok := m.panes[m.focus].(syncer); ok {
		s.sync()
	}
	m.fillMarkdown()
	if rd, ok := m.overlay.front().(requestDialog); ok {
		// A server request came to the front: its key guard starts now.
		d := rd.base()
		if d.during == "" && d.req.Modern() {
			// The input_required response may reach the timeline after the request.
			d.during = m.during(d.req)
		}
		if d.shownAt.IsZero() {
			d.shownAt = m.now()
		}
		d.waiting = len(m.overlay.requests) - 1
		rd.setSize(r.w, r.h)
		m.fitRequest(rd)
	}
}

// syncKeys enables bindings from state, so help shows only what works now.
func (m *model) syncKeys() {
	k := &m.c.keys
	running := m.call.anyRunning()
	k.Global.CancelCall.SetEnabled(running || m.sess.Inflight().Running() > 0)
	k.Call.Edit.SetEnabled(m.call.run != nil)
	// Offline (an opened trace, or attached to a tap), enter on a tool shows its calls, and
	// nothing can be sent.
	k.Tools.OpenForm.SetEnabled(m.tools.selected() != nil)
	if !m.c.canSend() {
		k.Tools.OpenForm.SetHelp("enter", "the calls of this tool")
	} else {
		k.Tools.OpenForm.SetHelp("enter", "call tool")
	}
	k.Tools.CallByName.SetEnabled(m.c.canSend())
	k.Form.Submit.SetEnabled(m.c.canSend())
	formTyping := m.focus == paneCall && m.call.form != nil && !m.call.form.keysFree()
	typing := m.focus != paneCall && m.panes[m.focus].inputFocused() || m.focus == paneCall && m.call.find.typing
	k.Global.Quit.SetEnabled(!formTyping && !m.tools.inputFocused() && !typing)
	live := m.c.canSend() && m.state().Init != nil
	k.Global.Ping.SetEnabled(live)
	k.Global.Roots.SetEnabled(m.c.canSend()) // offline there is no server to offer roots to
	k.Global.SaveSession.SetEnabled(m.recording.save != nil)
	k.Global.Sessions.SetEnabled(m.kept.list != nil)
	k.Global.Restart.SetEnabled(m.restart.enabled)
	res, _ := m.resources.selection()
	subOK := res != nil && live && (m.state().Era() == mcpclient.EraModern || m.state().Caps().Resources != nil && m.state().Caps().Resources.Subscribe)
	k.Resources.Subscribe.SetEnabled(subOK)
	k.Logs.SetLevel.SetEnabled(live)
	k.Tasks.TaskResult.SetEnabled(live && m.tasks.selected() != nil)
	k.Tasks.TaskCancel.SetEnabled(live && m.tasks.selected() != nil && !m.tasks.selected().Task.Terminal())
	k.List.Refresh.SetEnabled(live)
	k.List.NextPage.SetEnabled(live)
	k.List.OpenTask.SetEnabled(live) // tasks/get: nothing to send it to offline
	k.Call.ReadLink.SetEnabled(live && m.call.hasLinks())
	k.JSON.Explore.SetEnabled(m.focus != paneCall || m.call.explorable())
	k.Global.Breakpoints.SetEnabled(m.holds.bp != nil && !m.holds.gone)
	k.Global.Held.SetEnabled(m.holds.bp != nil && len(m.holds.q.Holds) > 0)
}

// selectRow draws a selected row: the theme's selection style, and a "▸" in the first cell
// when the theme has no attributes at all (plain), so the selection never disappears.
func selectRow(st *themes.Styles, line string, w int) string {
	line = fit(line, w)
	if st.Plain && w > 1 {
		line = "▸" + ansi.Cut(line, 1, w)
	}
	return st.Selection.Render(line)
}
