package ui

import (
	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// pageStep is a listing stepped through one page at a time by hand (the NextPage key):
// one Pager per list method (resources steps resources/list and resources/templates/list
// together), the pages fetched so far, and whether a page is on its way.
type pageStep struct {
	methods []string
	pagers  []*mcpclient.Pager
	page    int
	busy    bool
	gen     int
}

// more reports whether any of the step's listings offers another page.
func (s *pageStep) more() bool {
	for _, p := range s.pagers {
		if p.More {
			return true
		}
	}
	return false
}

// pageStepMsg answers one step: the page results by method index (nil where no page was
// asked or it failed; errs says why).
type pageStepMsg struct {
	l       session.List
	gen     int
	results []json.RawMessage
	errs    []error
}

// stepPage asks for the next page of l (the first page when the listing is not being
// stepped, or has no more pages: stepping starts over).
func (m *model) stepPage(l session.List) tea.Cmd {
	if m.sender() == nil || m.state().Init == nil || !m.c.canSend() {
		return nil
	}
	st := m.steps[l]
	if st != nil && st.busy {
		return nil
	}
	if st == nil || !st.more() {
		methods, keys := session.ListMethods(l)
		gen := 1
		if st != nil {
			gen = st.gen + 1
		}
		st = &pageStep{methods: methods, gen: gen}
		for i, meth := range methods {
			st.pagers = append(st.pagers, mcpclient.NewPager(meth, keys[i]))
		}
		m.steps[l] = st
	}
	st.busy = true
	first := st.page == 0
	cursors := make([]string, len(st.pagers))
	ask := make([]bool, len(st.pagers))
	for i, p := range st.pagers {
		cursors[i], ask[i] = p.Next, first || p.More
	}
	m.paneList(l).pageNote = fmt.Sprintf(" · page %d on its way…", st.page+1)
	ctx, s, gen, methods := m.ctx, m.sender(), st.gen, st.methods
	return func() tea.Msg {
		msg := pageStepMsg{l: l, gen: gen, results: make([]json.RawMessage, len(methods)), errs: make([]error, len(methods))}
		for i, meth := range methods {
			if ask[i] {
				msg.results[i], msg.errs[i] = s.FetchPage(ctx, meth, cursors[i])
			}
		}
		return msg
	}
}

// pageStepped adds a stepped page to its listing and shows the listing so far.
func (m *model) pageStepped(msg pageStepMsg) tea.Cmd {
	st := m.steps[msg.l]
	if st == nil || st.gen != msg.gen {
		return nil
	}
	st.busy = false
	st.page++
	var errs []error
	for i, p := range st.pagers {
		if msg.errs[i] != nil {
			errs = append(errs, fmt.Errorf("%s: %w", st.methods[i], msg.errs[i]))
			p.More = false
			continue
		}
		if msg.results[i] != nil {
			if _, _, err := p.Add(msg.results[i]); err != nil {
				errs = append(errs, err)
			}
		}
	}
	var err error
	if len(errs) > 0 {
		err = errs[0]
	}
	var warns []string
	var reps []mcpclient.Repeat
	for _, p := range st.pagers {
		warns = append(warns, p.Finish()...)
		reps = append(reps, p.Repeats...)
	}
	m.showStepped(msg.l, st, warns, reps, err)
	note := fmt.Sprintf(" · page %d, more available", st.page)
	if !st.more() {
		note = fmt.Sprintf(" · page %d, the last", st.page)
	}
	m.paneList(msg.l).pageNote = note
	return nil
}

// showStepped puts a stepped listing so far in its pane, as a full listing would be.
func (m *model) showStepped(l session.List, st *pageStep, warns []string, reps []mcpclient.Repeat, err error) {
	switch l {
	case session.Tools:
		tools, w := mcpclient.DecodeList[mcpclient.Tool](st.pagers[0].Items, st.methods[0], warns)
		m.tools.setTools(tools, err)
		m.tools.warnings = w
		m.tools.setSize(m.lay.body)
	case session.Resources:
		res, w := mcpclient.DecodeList[mcpclient.Resource](st.pagers[0].Items, st.methods[0], warns)
		tmpls, w := mcpclient.DecodeList[mcpclient.ResourceTemplate](st.pagers[1].Items, st.methods[1], w)
		p := m.resources
		p.warnings, p.errs = w, nil
		if err != nil {
			p.errs = append(p.errs, "listing a page failed: "+block(err.Error()))
		}
		p.setLists(res, tmpls)
		p.setSize(m.lay.body)
	case session.Prompts:
		ps, w := mcpclient.DecodeList[mcpclient.Prompt](st.pagers[0].Items, st.methods[0], warns)
		p := m.prompts
		p.warnings, p.errs = w, nil
		if err != nil {
			p.errs = append(p.errs, "listing a page failed: "+block(err.Error()))
		}
		p.setPrompts(ps)
		p.setSize(m.lay.body)
	}
	m.paneList(l).repeats = repeatFlags(l, reps)
}

// listedInFull takes a whole listing of l: stepping by hand ends, and the items its
// pages repeated are flagged.
func (m *model) listedInFull(l session.List, reps []mcpclient.Repeat) {
	if st := m.steps[l]; st != nil {
		st.gen++ // a page still on its way is dropped
		m.steps[l] = nil
	}
	list := m.paneList(l)
	list.pageNote = ""
	list.repeats = repeatFlags(l, reps)
}

// paneList is the item list of l's pane.
func (m *model) paneList(l session.List) *itemList {
	switch l {
	case session.Resources:
		return m.resources.list
	case session.Prompts:
		return m.prompts.list
	}
	return m.tools.list
}

// repeatFlags maps the list keys of repeated items to their flag, "⚠ pages 1,3".
func repeatFlags(l session.List, reps []mcpclient.Repeat) map[string]string {
	if len(reps) == 0 {
		return nil
	}
	out := make(map[string]string, len(reps))
	for _, r := range reps {
		k := r.ID
		if l == session.Resources {
			k = resKey(r.ID)
			if r.Method == "resources/templates/list" {
				k = tmplKey(r.ID)
			}
		}
		flag := "⚠ pages "
		for i, p := range r.Pages {
			if i > 0 {
				flag += ","
			}
			if i == 4 && len(r.Pages) > 5 {
				flag += fmt.Sprintf("…%d", r.Pages[len(r.Pages)-1])
				break
			}
			flag += fmt.Sprint(p)
		}
		out[k] = flag
	}
	return out
}
