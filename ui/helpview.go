package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// helpColumnGap is the space between the help's two columns.
const helpColumnGap = 4

// helpPage draws the help overlay in w×h cells: the pane's keys and the global keys,
// side by side when both fit, else one after the other; when they do not fit in h
// lines they scroll (m.help.off, moved by the list keys) and the last line says so.
// bubbles' FullHelpView drops whole columns that do not fit ("…"), which left a small
// terminal with no keys at all.
func (m *model) helpPage(head string, pane, global []key.Binding, w, h int) string {
	lines := m.helpLines(pane, global, w)
	g := m.helpGrammar(w)
	room := helpRoom(len(lines), h-len(g))
	off := min(max(m.help.off, 0), max(len(lines)-room, 0))
	out := []string{fit(head, w), fit(m.helpSearchLine(), w)}
	for _, l := range g {
		out = append(out, fit(l, w))
	}
	end := min(off+room, len(lines))
	out = append(out, lines[off:end]...)
	if len(lines) == 0 {
		out = append(out, m.c.st.Muted.Render(fit("no key matches", w)))
	}
	if off > 0 || end < len(lines) {
		out = append(out, m.c.st.Muted.Render(fit(fmt.Sprintf("lines %d–%d of %d · j/k pgup/pgdn scroll", off+1, end, len(lines)), w)))
	}
	return strings.Join(out, "\n")
}

// helpGrammar is the key grammar in short, wrapped to w, over the keys while no search is typed or
// in force (nil then): read once, it lets a user guess keys right in every pane. The man
// page and docs/reference.md say it in full (keyGrammar).
func (m *model) helpGrammar(w int) []string {
	if m.help.query != "" || m.help.typing {
		return nil
	}
	k := &m.c.keys
	key := func(b key.Binding) string { return b.Help().Key }
	var out []string
	for _, l := range wrapSpaces("in every pane: "+key(k.List.Search)+" search · "+
		key(k.List.SearchNext)+"/"+key(k.List.SearchPrev)+" next/previous match · "+key(k.List.Filter)+" filter · "+
		key(k.List.NextPage)+" next page · "+key(k.Detail.Copy)+"/"+key(k.Detail.CopyParsed)+"/"+key(k.Detail.CopyExact)+" copy shown/other form/exact", max(w, 10)) {
		out = append(out, m.c.st.Muted.Render(l))
	}
	return out
}

// helpRoom is how many of n help lines show in h rows: less the title, a blank line and,
// when they do not all fit, the scroll line.
func helpRoom(n, h int) int {
	room := max(h-2, 1)
	if n > room {
		room = max(room-1, 1)
	}
	return room
}

// clampHelp keeps the help page's offset in range before a key scrolls it (the page draws
// it in range but does not write it back).
func (m *model) clampHelp() {
	pane, global := m.helpKeys()
	n := len(m.helpLines(pane, global, m.lay.body.w))
	m.help.off = min(max(m.help.off, 0), max(n-helpRoom(n, m.lay.body.h-len(m.helpGrammar(m.lay.body.w))), 0))
}

// helpRows draws bindings (the enabled ones) as "key  description" rows, keys aligned.
func (m *model) helpRows(bs []key.Binding) []string {
	kw := 0
	for _, b := range bs {
		if b.Enabled() {
			kw = max(kw, ansi.StringWidth(b.Help().Key))
		}
	}
	var rows []string
	q := strings.ToLower(m.help.query)
	for _, b := range bs {
		if !b.Enabled() || q != "" && !strings.Contains(strings.ToLower(b.Help().Key+" "+b.Help().Desc), q) {
			continue
		}
		h := b.Help()
		pad := strings.Repeat(" ", kw-ansi.StringWidth(h.Key)+2)
		rows = append(rows, m.c.st.Accent.Render(h.Key)+pad+m.c.st.Base.Render(h.Desc))
	}
	return rows
}

// helpLines lays the two groups out for width w.
func (m *model) helpLines(pane, global []key.Binding, w int) []string {
	left, right := m.helpRows(pane), m.helpRows(global)
	lw, rw := 0, 0
	for _, r := range left {
		lw = max(lw, ansi.StringWidth(r))
	}
	for _, r := range right {
		rw = max(rw, ansi.StringWidth(r))
	}
	if len(left) == 0 || lw+helpColumnGap+rw > w {
		// One column: the pane's keys, then the global ones; a row too wide is cut.
		var out []string
		for _, r := range left {
			out = append(out, fit(r, w))
		}
		if len(left) > 0 && len(right) > 0 {
			out = append(out, "")
		}
		for _, r := range right {
			out = append(out, fit(r, w))
		}
		return out
	}
	out := make([]string, max(len(left), len(right)))
	for i := range out {
		l := ""
		if i < len(left) {
			l = left[i]
		}
		l += strings.Repeat(" ", lw+helpColumnGap-ansi.StringWidth(l))
		if i < len(right) {
			l += right[i]
		}
		out[i] = l
	}
	return out
}

// helpSearchKey handles the help page's search: / starts typing a query that narrows the
// keys listed (their key or text holds it), enter keeps it, esc drops it; false for the
// keys it leaves (scrolling, closing).
func (m *model) helpSearchKey(msg tea.KeyPressMsg) bool {
	k := &m.c.keys
	if !m.help.typing {
		switch {
		case key.Matches(msg, k.List.Search):
			m.help.typing, m.help.off = true, 0
			return true
		case m.help.query != "" && key.Matches(msg, k.Form.Cancel):
			m.help.query, m.help.off = "", 0
			return true
		}
		return false
	}
	switch {
	case key.Matches(msg, k.Form.Cancel):
		m.help.query, m.help.typing = "", false
	case key.Matches(msg, k.Dialog.Confirm):
		m.help.typing = false
	case key.Matches(msg, k.Input.DeleteBack):
		if r := []rune(m.help.query); len(r) > 0 {
			m.help.query = string(r[:len(r)-1])
		}
	case msg.Text != "":
		m.help.query += msg.Text
	}
	m.help.off = 0
	return true
}

// helpSearchLine is the help page's search line: the query being typed or in force, or
// how to start one.
func (m *model) helpSearchLine() string {
	st, k := m.c.st, &m.c.keys
	switch {
	case m.help.typing:
		return st.Accent.Render("/"+clean(m.help.query)+"▏") + st.Muted.Render("  enter keeps it, esc clears it")
	case m.help.query != "":
		return st.Accent.Render("/"+clean(m.help.query)) + st.Muted.Render("  "+k.Form.Cancel.Help().Key+" shows every key")
	}
	return st.Muted.Render(k.List.Search.Help().Key + " searches the keys")
}
