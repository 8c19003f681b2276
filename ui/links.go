package ui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// A resource_link content block (MCP 2025-11-25 server/tools, Resource Links) names a
// resource the client may read; the Call pane reads it with resources/read (case B20) and
// shows the contents under the link, as the Resources pane shows a read.

// linkRead is the resources/read of one resource_link block of a call's result.
type linkRead struct {
	uri  string
	done bool
	res  *mcpclient.ReadResourceResult
	resp *mcpclient.Response
	err  error
}

// linkPos is where a resource_link block starts in the rendered result: its content block
// index and its line; hint is the line under it that says it is not read yet (-1 once a
// read was sent): the view says there which link the read key reads.
type linkPos struct {
	block int
	line  int
	hint  int
	uri   string
}

// linkReadMsg answers the resources/read of block of call.
type linkReadMsg struct {
	call, block int
	res         *mcpclient.ReadResourceResult
	resp        *mcpclient.Response
	err         error
}

// hasLinks reports whether the shown call's result holds a resource_link block.
func (p *callPane) hasLinks() bool {
	r := p.run
	if r == nil || !r.done || r.res == nil {
		return false
	}
	for _, b := range r.res.Content {
		if b.Type == "resource_link" {
			return true
		}
	}
	return false
}

// linkTarget is the resource_link the read key reads, so that repeated presses walk
// through the links: the first unread one that starts on screen, else the first unread
// one below the screen, else the first unread one above. When every link was read it is
// the first on screen (read again), else the last above, else the first. ok is false when
// there is none.
func (p *callPane) linkTarget() (linkPos, bool) {
	r := p.run
	if r == nil || len(r.linkAt) == 0 {
		return linkPos{}, false
	}
	bh := p.bodyHeight()
	onScreen := func(l *linkPos) bool { return l.line >= p.off && l.line < p.off+bh }
	var below, above, firstAbove, readOn, readAbove *linkPos
	for i := range r.linkAt {
		l := &r.linkAt[i]
		unread := r.links[l.block] == nil
		switch {
		case onScreen(l) && unread:
			return *l, true
		case onScreen(l) && readOn == nil:
			readOn = l
		case l.line >= p.off+bh && unread && below == nil:
			below = l
		case l.line < p.off && unread && firstAbove == nil:
			firstAbove = l
		case l.line < p.off:
			readAbove = l
		}
		if l.line < p.off {
			above = l
		}
	}
	for _, l := range []*linkPos{below, firstAbove, readOn, readAbove, above} {
		if l != nil {
			return *l, true
		}
	}
	return r.linkAt[0], true
}

// unreadLinks counts the resource_links of the shown result not read yet.
func (p *callPane) unreadLinks() int {
	n := 0
	if r := p.run; r != nil {
		for _, l := range r.linkAt {
			if r.links[l.block] == nil {
				n++
			}
		}
	}
	return n
}

// linkHints writes over the "not read yet" lines of out (the window of the rendered result
// from line off) which link the read key reads: the one linkTarget picks.
func (p *callPane) linkHints(out []string, off, w int) {
	r := p.run
	if r == nil || r.linkKey == "" {
		return
	}
	t, ok := p.linkTarget()
	if !ok || t.hint < 0 {
		return
	}
	if i := t.hint - off; i >= 0 && i < len(out) {
		text := "  " + r.linkKey + " reads this resource (resources/read)"
		if n := p.unreadLinks(); n > 1 {
			text += fmt.Sprintf(" · %d links not read yet; %s again reads the next", n, r.linkKey)
		}
		out[i] = fit(p.c.st.Accent.Render(text), w)
	}
}

// readLink sends resources/read for the resource_link the read key targets in the shown
// call's result; its answer is shown under the link (linkDone).
func (m *model) readLink() tea.Cmd {
	r := m.call.run
	key := m.c.keys.Call.ReadLink.Help().Key
	switch {
	case r == nil:
		m.note("info", key+": no call shown: nothing to read")
		return nil
	case !r.done:
		m.note("info", key+": the call has no result yet: a resource_link in it can be read once it comes")
		return nil
	}
	l, ok := m.call.linkTarget()
	if !ok {
		m.note("info", key+": the result of call #"+fmt.Sprint(r.id)+" has no resource_link to read")
		return nil
	}
	if !m.c.canSend() {
		m.note("warning", "no server to read "+l.uri+" from")
		return nil
	}
	again := ""
	if lr := r.links[l.block]; lr != nil {
		if !lr.done {
			m.note("info", "resources/read "+l.uri+" is already waiting for its answer")
			return nil
		}
		again = ", again: every link of this result was read"
	}
	if r.links == nil {
		r.links = map[int]*linkRead{}
	}
	r.links[l.block] = &linkRead{uri: l.uri}
	if bh := m.call.bodyHeight(); l.line < m.call.off || l.line >= m.call.off+bh/2 {
		// Bring the link read to the top, so its contents show under it and the next
		// press reads the link after it.
		m.call.off = l.line
	}
	m.call.render()
	m.call.off = clampScroll(m.call.off, len(m.call.lines), m.call.bodyHeight())
	n := 0
	for _, p := range r.linkAt {
		if p.block <= l.block {
			n++
		}
	}
	m.note("info", fmt.Sprintf("resources/read %s (resource_link %d of %d of call #%d%s)", l.uri, n, len(r.linkAt), r.id, again))
	ctx, s, id, block, uri := m.ctx, m.sender(), r.id, l.block, l.uri
	return func() tea.Msg {
		res, resp, err := s.ReadResource(ctx, uri)
		return linkReadMsg{call: id, block: block, res: res, resp: resp, err: err}
	}
}

// updateLinks handles linkReadMsg; ok is false for other messages.
func (m *model) updateLinks(msg tea.Msg) (tea.Cmd, bool) {
	lm, ok := msg.(linkReadMsg)
	if !ok {
		return nil, false
	}
	r := m.call.byID(lm.call)
	if r == nil || r.links[lm.block] == nil {
		return nil, true
	}
	lr := r.links[lm.block]
	lr.done, lr.res, lr.resp, lr.err = true, lm.res, lm.resp, lm.err
	if lm.err != nil && !errors.Is(lm.err, context.Canceled) {
		m.note("error", fmt.Sprintf("resources/read %s failed: %s", lr.uri, lm.err))
	}
	if r == m.call.run {
		m.call.render()
		// The answer pushes what follows down: a link in the lower half of the screen
		// goes to the top, so its contents show.
		p, bh := m.call, m.call.bodyHeight()
		for _, l := range r.linkAt {
			if l.block == lm.block && l.line >= p.off+bh/2 && l.line < p.off+bh {
				p.off = clampScroll(l.line, len(p.lines), bh)
			}
		}
	}
	return nil, true
}

// linkReadLines draws the read of a resource_link under it.
func linkReadLines(st *themes.Styles, lr *linkRead, w int) []string {
	switch {
	case !lr.done:
		return wrapStyled(st.Muted, "  resources/read "+clean(lr.uri)+" sent; waiting for the answer…", w)
	case lr.err != nil:
		out := wrapStyled(st.Title, "resources/read "+clean(lr.uri), w)
		return append(out, errorLines(st, lr.err, w)...)
	case lr.res == nil:
		return wrapStyled(st.Muted, "  resources/read "+clean(lr.uri)+": no result", w)
	}
	return readLines(st, nil, &readState{uri: lr.uri, res: lr.res, resp: lr.resp}, w)
}
