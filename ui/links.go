package ui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
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
// index and its line.
type linkPos struct {
	block int
	line  int
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

// linkTarget is the resource_link the read key reads: the first one that starts on screen,
// else the last one above the screen, else the first; ok is false when there is none.
func (p *callPane) linkTarget() (linkPos, bool) {
	r := p.run
	if r == nil || len(r.linkAt) == 0 {
		return linkPos{}, false
	}
	bh := p.bodyHeight()
	var above *linkPos
	for i := range r.linkAt {
		l := &r.linkAt[i]
		if l.line >= p.off && l.line < p.off+bh {
			return *l, true
		}
		if l.line < p.off {
			above = l
		}
	}
	if above != nil {
		return *above, true
	}
	return r.linkAt[0], true
}

// readLink sends resources/read for the resource_link the read key targets in the shown
// call's result; its answer is shown under the link (linkDone).
func (m *Model) readLink() tea.Cmd {
	r := m.call.run
	l, ok := m.call.linkTarget()
	if r == nil || !ok {
		return nil
	}
	if m.sess == nil {
		m.note("warning", "no server to read "+l.uri+" from")
		return nil
	}
	if lr := r.links[l.block]; lr != nil && !lr.done {
		return nil // already in flight
	}
	if r.links == nil {
		r.links = map[int]*linkRead{}
	}
	r.links[l.block] = &linkRead{uri: l.uri}
	m.call.render()
	m.note("info", "resources/read "+l.uri+" (resource_link of call #"+fmt.Sprint(r.id)+")")
	ctx, s, id, block, uri := m.ctx, m.sess, r.id, l.block, l.uri
	return func() tea.Msg {
		res, resp, err := s.ReadResource(ctx, uri)
		return linkReadMsg{call: id, block: block, res: res, resp: resp, err: err}
	}
}

// updateLinks handles linkReadMsg; ok is false for other messages.
func (m *Model) updateLinks(msg tea.Msg) (tea.Cmd, bool) {
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
	}
	return nil, true
}

// linkReadLines draws the read of a resource_link under it.
func linkReadLines(st *stylesT, lr *linkRead, w int) []string {
	switch {
	case !lr.done:
		return wrapStyled(st.Muted, "  resources/read "+clean(lr.uri)+" sent; waiting for the answer…", w)
	case lr.err != nil:
		out := wrapStyled(st.Title, "resources/read "+clean(lr.uri), w)
		return append(out, errorLines(st, lr.err, w)...)
	case lr.res == nil:
		return wrapStyled(st.Muted, "  resources/read "+clean(lr.uri)+": no result", w)
	}
	return readLines(st, &readState{uri: lr.uri, res: lr.res, resp: lr.resp}, w)
}
