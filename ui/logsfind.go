package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// The Logs pane's search and filter keep the grammar of every list (issue 27): "/" moves
// the selection to the entries holding the query (n/N next/previous), "F" shows only
// them; "f" stays the quick level preset. Both match the row as drawn: level or source,
// logger and the text with secrets masked, case-insensitively.

// newLogsFilter is the Logs pane's "F" input.
func newLogsFilter(c *common) textinput.Model {
	ti := textinput.New()
	ti.Prompt = "filter: "
	ti.Placeholder = "show only entries holding this"
	ti.SetStyles(inputStyles(c.st))
	return ti
}

// entryText is what the search and the filter match in e.
func (p *logsPane) entryText(e *logEntry) string {
	return e.level + " " + e.logger + " " + p.c.maskText(e.text)
}

// rowText is entryText of shown row r.
func (p *logsPane) rowText(r int) string { return p.entryText(&p.entries[p.shown[r]]) }

// filterQuery is the "F" filter in force, lower-cased ("" = none).
func (p *logsPane) filterQuery() string {
	return strings.ToLower(strings.TrimSpace(p.filterIn.Value()))
}

// findKey handles "/", n, N and "F" and their inputs; false for other keys.
func (p *logsPane) findKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := &p.c.keys
	if p.filterTyping {
		switch {
		case key.Matches(msg, k.Dialog.Dismiss):
			p.filterTyping = false
			p.filterIn.Blur()
			p.filterIn.SetValue("")
			p.refilter()
		case key.Matches(msg, k.Dialog.Confirm):
			p.filterTyping = false
			p.filterIn.Blur()
		default:
			old := p.filterIn.Value()
			var cmd tea.Cmd
			p.filterIn, cmd = p.filterIn.Update(msg)
			if p.filterIn.Value() != old {
				p.refilter()
			}
			return true, cmd
		}
		return true, nil
	}
	if ok, to, cmd := p.find.key(k, msg, len(p.shown), p.sel, p.rowText); ok {
		if to != p.sel {
			p.sel, p.follow = to, false
			p.scrollIntoView()
		}
		return true, cmd
	}
	switch {
	case key.Matches(msg, k.List.Filter):
		p.filterTyping = true
		return true, p.filterIn.Focus()
	case key.Matches(msg, k.Dialog.Dismiss) && p.filterIn.Value() != "":
		p.filterIn.SetValue("")
		p.refilter()
		return true, nil
	}
	return false, nil
}

// findLine is the line under the heading while a search or a filter is typed or in force
// ("" for none).
func (p *logsPane) findLine(w int) string {
	switch {
	case p.filterTyping:
		return fit(p.filterIn.View(), w)
	case p.find.shown():
		line := p.find.line(p.c, w)
		if f := p.filterIn.Value(); f != "" {
			line = fit(p.c.st.Muted.Render(p.filterIn.Prompt+clean(f)+"  ")+line, w)
		}
		return line
	case p.filterIn.Value() != "":
		return fit(p.c.st.Accent.Render(p.filterIn.Prompt+clean(p.filterIn.Value())), w)
	}
	return ""
}
