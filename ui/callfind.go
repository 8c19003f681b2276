package ui

import (
	tea "charm.land/bubbletea/v2"
)

// The Call pane's calls are searched as every list is (issue 27): "/" moves to the calls
// whose tool name or arguments hold the query, n/N to the next and previous one, live and
// in a recorded session alike.

// findKey handles the search keys among the calls; false for other keys.
func (p *callPane) findKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if p.form != nil || p.pathRows() > 0 {
		return false, nil // the form's keys, or the explored JSON's own search
	}
	if pc := p.past; pc != nil {
		n := pc.shownLen()
		text := func(r int) string {
			c := pc.rec.Call(pc.shownAt(r))
			return c.Tool + " " + pc.heads[c.ReqSeq]
		}
		ok, to, cmd := p.find.key(&p.c.keys, msg, n, pc.sel, text)
		if ok && to != pc.sel {
			pc.sel, pc.off = to, 0
		}
		return ok, cmd
	}
	text := func(i int) string { return p.calls[i].tool + " " + string(p.calls[i].args) }
	ok, to, cmd := p.find.key(&p.c.keys, msg, len(p.calls), p.index(), text)
	if ok {
		p.show(to)
	}
	return ok, cmd
}

// findTitle is the title row of the calls while a search is typed or in force, else
// title.
func (p *callPane) findTitle(title string, w int) string {
	if p.find.shown() {
		return p.find.line(p.c, w)
	}
	return title
}
