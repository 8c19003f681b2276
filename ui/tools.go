package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/sahilm/fuzzy"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// toolsPane lists the server's tools (fuzzy-filterable with "/") and shows the selected
// tool's description in full, its annotations and its input schema.
type toolsPane struct {
	c     *common
	tools []mcpclient.Tool
	// shown maps list rows to tools (all of them, or the filter's matches, best first).
	shown []int
	sel   int
	top   int

	filter    textinput.Model
	filtering bool // the filter input has focus

	detailOff int
	// status says what the pane waits for or why it is empty.
	status string
	// listErr is why the last tools/list failed (nil after a good one): the pane says the
	// listing failed, never that the server has no tools.
	listErr error
	// listed is set once a listing answered (until then the count is unknown, not 0).
	listed bool
	// callBy is the open call-by-name prompt (nil when closed); callReq is what it
	// submitted, for the root to send.
	callBy  *callByName
	callReq *callRequest

	list, det rect
	stacked   bool
}

func newToolsPane(c *common) *toolsPane {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "filter"
	ti.SetStyles(inputStyles(c.st))
	return &toolsPane{c: c, filter: ti, status: "waiting for the handshake…"}
}

// setTools shows a listing's answer. A failed listing keeps the tools listed before (if
// any) and says why it failed; tools a failed listing still returned are shown.
func (p *toolsPane) setTools(tools []mcpclient.Tool, err error) {
	p.listErr = err
	if err != nil && len(tools) == 0 {
		p.status = "tools/list failed (see right)"
		p.refilter()
		return
	}
	p.tools, p.listed = tools, true
	p.refilter()
	if len(tools) == 0 {
		p.status = "the server has no tools"
	}
}

// countTitle is the list's title: the number of tools once a listing answered.
func (p *toolsPane) countTitle() string {
	if !p.listed {
		return " tools"
	}
	return fmt.Sprintf(" tools (%d)", len(p.tools))
}

// refilter recomputes the shown rows from the filter text, keeping the selected tool if it
// still matches.
func (p *toolsPane) refilter() {
	var cur = -1
	if t := p.selectedIndex(); t >= 0 {
		cur = t
	}
	q := strings.TrimSpace(p.filter.Value())
	p.shown = p.shown[:0]
	if q == "" {
		for i := range p.tools {
			p.shown = append(p.shown, i)
		}
	} else {
		names := make([]string, len(p.tools))
		for i, t := range p.tools {
			names[i] = t.Name + " " + t.Title
		}
		for _, m := range fuzzy.Find(q, names) {
			p.shown = append(p.shown, m.Index)
		}
	}
	p.sel = 0
	for r, i := range p.shown {
		if i == cur {
			p.sel = r
		}
	}
	p.top = 0
	p.detailOff = 0
	p.scrollIntoView()
}

// selectedIndex is the index in tools of the selected row, -1 when none.
func (p *toolsPane) selectedIndex() int {
	if p.sel < 0 || p.sel >= len(p.shown) {
		return -1
	}
	return p.shown[p.sel]
}

// selected returns the selected tool, or nil.
func (p *toolsPane) selected() *mcpclient.Tool {
	if i := p.selectedIndex(); i >= 0 {
		return &p.tools[i]
	}
	return nil
}

func (p *toolsPane) setSize(r rect) {
	p.stacked = r.w < wideTools
	if p.stacked {
		lh := max(min(len(p.tools)+2, r.h/3), 4)
		p.list = rect{r.x, r.y, r.w, lh}
		p.det = rect{r.x, r.y + lh + 1, r.w, max(r.h-lh-1, 0)}
	} else {
		lw := min(max(r.w/3, 24), 48)
		p.list = rect{r.x, r.y, lw, r.h}
		p.det = rect{r.x + lw + 1, r.y, max(r.w-lw-1, 0), r.h}
	}
	p.filter.SetWidth(max(p.list.w-3, 1))
	p.scrollIntoView()
}

func (p *toolsPane) scrollIntoView() {
	h := max(p.list.h-1, 1)
	if p.sel < p.top {
		p.top = p.sel
	}
	if p.sel >= p.top+h {
		p.top = p.sel - h + 1
	}
	p.top = clampScroll(p.top, len(p.shown), h)
}

func (p *toolsPane) move(d int) {
	if len(p.shown) == 0 {
		return
	}
	p.sel = min(max(p.sel+d, 0), len(p.shown)-1)
	p.detailOff = 0
	p.scrollIntoView()
}

// inputFocused reports whether typed keys go to the filter input.
func (p *toolsPane) inputFocused() bool { return p.filtering || p.callBy != nil }

// handleKey handles the pane's keys; open is set when the user asked for the form.
func (p *toolsPane) handleKey(msg tea.KeyPressMsg) (handled bool, open bool, cmd tea.Cmd) {
	k := p.c.keys
	if p.callBy != nil {
		return true, false, p.callByKey(msg)
	}
	if p.filtering {
		switch msg.String() {
		case "esc":
			p.filtering = false
			p.filter.Blur()
			p.filter.SetValue("")
			p.refilter()
			return true, false, nil
		case "enter":
			p.filtering = false
			p.filter.Blur()
			return true, false, nil
		case "up", "down":
			if msg.String() == "up" {
				p.move(-1)
			} else {
				p.move(1)
			}
			return true, false, nil
		}
		before := p.filter.Value()
		var c tea.Cmd
		p.filter, c = p.filter.Update(msg)
		if p.filter.Value() != before {
			p.refilter()
		}
		return true, false, c
	}
	switch {
	case key.Matches(msg, k.CallByName):
		return true, false, p.openCallByName()
	case key.Matches(msg, k.Filter):
		// A new "/" starts a new search.
		p.filtering = true
		if p.filter.Value() != "" {
			p.filter.SetValue("")
			p.refilter()
		}
		return true, false, p.filter.Focus()
	case key.Matches(msg, k.Up):
		p.move(-1)
	case key.Matches(msg, k.Down):
		p.move(1)
	case key.Matches(msg, k.PageUp):
		p.move(-max(p.list.h-2, 1))
	case key.Matches(msg, k.PageDown):
		p.move(max(p.list.h-2, 1))
	case key.Matches(msg, k.Top):
		p.move(-len(p.shown))
	case key.Matches(msg, k.Bottom):
		p.move(len(p.shown))
	case key.Matches(msg, k.DetailUp):
		p.detailOff = max(p.detailOff-max(p.det.h/2, 1), 0)
	case key.Matches(msg, k.DetailDown):
		p.detailOff += max(p.det.h/2, 1)
	case key.Matches(msg, k.OpenForm):
		return true, p.selected() != nil, nil
	case msg.String() == "esc" && p.filter.Value() != "":
		p.filter.SetValue("")
		p.refilter()
	default:
		return false, false, nil
	}
	return true, false, nil
}

func (p *toolsPane) view(banner []string) string {
	list := p.viewList()
	det := p.viewDetail(banner)
	if p.callBy != nil {
		det = p.callByView(p.det.w, p.det.h)
	}
	if p.stacked {
		sep := p.c.st.Border.Render(strings.Repeat("─", p.list.w))
		return lipgloss.JoinVertical(lipgloss.Left, list, sep, det)
	}
	bar := make([]string, p.list.h)
	for i := range bar {
		bar[i] = p.c.st.Border.Render("│")
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, list, strings.Join(bar, "\n"), det)
}

func (p *toolsPane) viewList() string {
	st := p.c.st
	w, h := p.list.w, p.list.h
	rows := make([]string, 0, h)
	switch {
	case p.filtering || p.filter.Value() != "":
		rows = append(rows, fit(p.filter.View(), w))
	case p.listErr != nil && len(p.tools) == 0:
		rows = append(rows, st.Error.Render(fit(" tools · listing failed", w)))
	case p.listErr != nil:
		rows = append(rows, st.Title.Render(fit(fmt.Sprintf(" tools (%d) · last listing failed", len(p.tools)), w)))
	default:
		rows = append(rows, st.Title.Render(fit(p.countTitle(), w)))
	}
	if len(p.shown) == 0 {
		msg, sty := p.status, st.Muted
		if len(p.tools) > 0 {
			msg = "no tool matches"
		} else if p.listErr != nil {
			sty = st.Error
		}
		rows = append(rows, sty.Render(fit(" "+msg, w)))
	}
	for r := p.top; r < len(p.shown) && len(rows) < h; r++ {
		t := &p.tools[p.shown[r]]
		name := " " + clean(t.Name)
		dn := ""
		if d := t.DisplayName(); d != t.Name {
			dn = " " + clean(d)
		}
		if r == p.sel {
			// The selected row keeps the title too.
			rows = append(rows, selectRow(st, name+dn, w))
			continue
		}
		rows = append(rows, fit(name+st.Muted.Render(dn), w))
	}
	for len(rows) < h {
		rows = append(rows, strings.Repeat(" ", w))
	}
	return strings.Join(rows[:h], "\n")
}

// viewDetail shows banner lines (the dead-server panel) above the selected tool.
func (p *toolsPane) viewDetail(banner []string) string {
	w, h := p.det.w, p.det.h
	lines := append([]string(nil), banner...)
	if p.listErr != nil {
		lines = append(lines, wrapStyled(p.c.st.Error, "tools/list failed: "+block(p.listErr.Error()), w)...)
		what := "the server's tools are unknown, not absent"
		if len(p.tools) > 0 {
			what = "the tools below are from the listing before"
		}
		lines = append(lines, p.c.st.Muted.Render(fmt.Sprintf("%s · %s lists again", what, p.c.keys.Refresh.Help().Key)), "")
	}
	if t := p.selected(); t != nil {
		lines = append(lines, toolDetail(p.c.st, t, w)...)
		if p.c.offline {
			lines[len(lines)-1] = p.c.st.Muted.Render("enter: the calls of this tool in the recording (offline: recorded session)")
		}
	}
	p.detailOff = clampScroll(p.detailOff, len(lines), h)
	return strings.Join(window(lines, p.detailOff, h, w), "\n")
}

// hint renders a tool annotation with the spec's default when absent (MCP 2025-03-26
// server/tools ToolAnnotations: readOnly false, destructive true, idempotent false,
// openWorld true).
func hint(v *bool, def bool) string {
	if v == nil {
		return fmt.Sprintf("%t (default)", def)
	}
	return fmt.Sprintf("%t", *v)
}

// notMeaningful renders a hint that does not apply because the tool is read-only.
func notMeaningful(v *bool) string {
	if v == nil {
		return "— (not meaningful: readOnly is true)"
	}
	return fmt.Sprintf("%t (not meaningful: readOnly is true)", *v)
}

// toolDetail is the full description, annotations and pretty input schema of a tool.
func toolDetail(st *stylesT, t *mcpclient.Tool, w int) []string {
	var out []string
	title := clean(t.Name)
	if dn := t.DisplayName(); dn != t.Name {
		title += " — " + clean(dn)
	}
	out = append(out, wrapStyled(st.Title, title, w)...)
	out = append(out, "")
	if t.Description == "" {
		out = append(out, st.Muted.Render("(no description)"))
	} else {
		out = append(out, wrap(block(t.Description), w)...)
	}
	out = append(out, "", st.Title.Render("annotations"))
	a := t.Annotations
	if a == nil {
		a = &mcpclient.ToolAnnotations{}
	}
	destructive, idempotent := hint(a.DestructiveHint, true), hint(a.IdempotentHint, false)
	if a.ReadOnlyHint != nil && *a.ReadOnlyHint {
		// MCP 2025-11-25 ToolAnnotations: destructiveHint and idempotentHint are meaningful
		// only when readOnlyHint is false.
		destructive = notMeaningful(a.DestructiveHint)
		idempotent = notMeaningful(a.IdempotentHint)
	}
	out = append(out,
		"  readOnly     "+hint(a.ReadOnlyHint, false),
		"  destructive  "+destructive,
		"  idempotent   "+idempotent,
		"  openWorld    "+hint(a.OpenWorldHint, true),
	)
	out = append(out, "", st.Title.Render("input schema"))
	if pretty, ok := prettyJSON(t.InputSchema); ok {
		out = append(out, wrap(block(pretty), w)...)
	} else if len(t.InputSchema) == 0 {
		out = append(out, st.Warning.Render("(no inputSchema: the spec requires one)"))
	} else {
		out = append(out, wrapStyled(st.Error, "not valid JSON: "+clean(string(t.InputSchema)), w)...)
	}
	if len(t.OutputSchema) > 0 {
		out = append(out, "", st.Title.Render("output schema"))
		if pretty, ok := prettyJSON(t.OutputSchema); ok {
			out = append(out, wrap(block(pretty), w)...)
		}
	}
	out = append(out, "", st.Muted.Render("enter: call this tool"))
	return out
}
