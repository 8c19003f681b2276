package ui

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// toolsPane lists the server's tools (fuzzy-filterable with "/") and shows the selected
// tool's description in full, its annotations and its input schema.
type toolsPane struct {
	c     *common
	tools []mcpclient.Tool
	// list holds the rows, the selection and the filter; its items are tools, in order.
	list *itemList

	detailOff int
	// status says what the pane waits for or why it is empty.
	status string
	// listErr is why the last tools/list failed (nil after a good one): the pane says the
	// listing failed, never that the server has no tools.
	listErr error
	// listed is set once a listing answered (until then the count is unknown, not 0).
	listed bool
	// warnings are what the last listing warned about (pagination stopped, …): shown in
	// the heading and above the detail, so a cut-off list is never taken as complete.
	warnings []string
	// finds are each tool's findings (schema shapes, steering marks), by index in tools.
	finds [][]findings.Finding
	// callBy is the open call-by-name prompt (nil when closed).
	callBy *callByName
	// js is the selected tool's input schema as a JSON view: enter explores it while the
	// detail is zoomed (= ; enter otherwise calls the tool).
	js detailJSON

	// r is the pane's rectangle; lr and det the list's and the detail's.
	r, lr, det rect
	stacked    bool
	// banner is what the host shows above the tool, w wide: the dead-server panel once
	// the session failed, else the era probe's lines.
	banner func(w int) []string
}

func newToolsPane(c *common, banner func(w int) []string) *toolsPane {
	p := &toolsPane{c: c, status: "waiting for the handshake…", banner: banner}
	p.list = newItemList(c, "tools", "")
	p.list.noMarks, p.list.noMatch = true, "no tool matches"
	p.list.heading = p.heading
	p.list.emptyRow = p.emptyRow
	return p
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
	p.finds = make([][]findings.Finding, len(tools))
	for i, t := range tools {
		p.finds[i] = findings.Tool(t)
	}
	p.refilter()
	if len(tools) == 0 {
		p.status = "the server has no tools"
	}
}

// countTitle is the list's title: the number of tools once a listing answered.
func (p *toolsPane) countTitle() string {
	if !p.listed {
		return " tools" + p.list.pageNote
	}
	return fmt.Sprintf(" tools (%d)", len(p.tools)) + p.list.pageNote
}

// heading is the list's title row: the count, or how the last listing failed.
func (p *toolsPane) heading(w int) string {
	st := p.c.st
	switch {
	case p.listErr != nil && len(p.tools) == 0:
		return st.Error.Render(fit(" tools · listing failed", w))
	case p.listErr != nil:
		return st.Title.Render(fit(fmt.Sprintf(" tools (%d) · last listing failed", len(p.tools)), w))
	case len(p.warnings) > 0:
		return st.Warning.Render(fit(p.countTitle()+" · ⚠ "+clean(p.warnings[0]), w))
	}
	return st.Title.Render(fit(p.countTitle(), w))
}

// emptyRow says what the pane waits for, or why there are no tools.
func (p *toolsPane) emptyRow(w int) string {
	sty := p.c.st.Muted
	if p.listErr != nil {
		sty = p.c.st.Error
	}
	return sty.Render(fit(" "+p.status, w))
}

// refilter rebuilds the rows from the tools, keeping the selected tool if it still matches.
// A name a broken server lists twice gets a distinct key, so both rows stay selectable.
func (p *toolsPane) refilter() {
	cur := p.list.chosen()
	items := make([]listItem, len(p.tools))
	seen := make(map[string]int, len(p.tools))
	for i, t := range p.tools {
		k := t.Name
		if n := seen[t.Name]; n > 0 {
			k = fmt.Sprintf("%s\x00%d", t.Name, n)
		}
		seen[t.Name]++
		items[i] = listItem{key: k, label: t.Name, search: t.Name + " " + t.Title}
		if d := t.DisplayName(); d != t.Name {
			items[i].tag = d
		}
	}
	p.list.items = items
	p.list.refilter(cur)
	p.detailOff = 0
}

// selected returns the selected tool, or nil.
func (p *toolsPane) selected() *mcpclient.Tool {
	if i := p.list.selectedIndex(); i >= 0 && i < len(p.tools) {
		return &p.tools[i]
	}
	return nil
}

func (p *toolsPane) title() string { return "Tools" }

func (p *toolsPane) setSize(r rect) {
	p.r = r
	p.lr, p.det, p.stacked = p.c.splitView(r, len(p.tools))
	p.list.setSize(p.lr)
}

// inputFocused reports whether typed keys go to the filter input.
func (p *toolsPane) inputFocused() bool {
	return p.list.typing() || p.callBy != nil || p.js.view.searching()
}

// toolAction is what a key asks the root to do: open the selected tool (its form, or
// offline its recorded calls), or send a call-by-name.
type toolAction struct {
	open bool
	call *callRequest
}

// handleKey handles the pane's keys: r lists again, + steps a page; act is a toolAction
// when the root must open or send something.
func (p *toolsPane) handleKey(msg tea.KeyPressMsg) (bool, tea.Msg, tea.Cmd) {
	typing := p.inputFocused()
	if !typing {
		clampDetail(&p.detailOff, len(p.detailLines(p.banner(p.det.w))), p.det.h)
		if key.Matches(msg, p.c.keys.List.Refresh) && p.c.canSend() && p.c.session.State().Init != nil {
			return true, refreshAct{session.Tools}, nil
		}
	}
	if stepKey(p.c, msg, typing) {
		return true, stepPageAct{session.Tools}, nil
	}
	handled, act, cmd := p.listKey(msg)
	if act != nil {
		return true, *act, cmd
	}
	return handled || typing, nil, cmd // typed keys are the input's
}

// listKey handles the list's and the call-by-name prompt's keys. act is set when the root
// must open or send something.
func (p *toolsPane) listKey(msg tea.KeyPressMsg) (handled bool, act *toolAction, cmd tea.Cmd) {
	k := p.c.keys
	if p.callBy != nil {
		req, cmd := p.callByKey(msg)
		if req != nil {
			return true, &toolAction{call: req}, cmd
		}
		return true, nil, cmd
	}
	if !p.list.typing() {
		if ok, cmd := p.js.key(p.c, msg, p.c.zoom == zoomDetail, &p.detailOff, max(p.det.h-1, 1)); ok {
			return true, nil, cmd
		}
		switch {
		case key.Matches(msg, k.Tools.CallByName):
			return true, nil, p.openCallByName()
		case key.Matches(msg, k.Detail.Copy, k.Detail.CopyExact):
			_, cmd := p.c.copyShownKey(msg, p.copySource)
			return true, nil, cmd
		case k.Detail.pageDetail(msg, &p.detailOff, p.det.h):
			return true, nil, nil
		case key.Matches(msg, k.Tools.OpenForm):
			if p.selected() != nil {
				return true, &toolAction{open: true}, nil
			}
			return true, nil, nil
		}
	}
	handled, cmd = p.list.paneKey(msg, &p.detailOff)
	return handled, nil, cmd
}

// view draws the list and the detail; with no tool listed and the session failed, the
// dead-server panel gets the whole width.
func (p *toolsPane) view(time.Time) string {
	if p.c.session.State().Failed() && len(p.tools) == 0 {
		lines := append(p.banner(p.r.w), p.c.st.Muted.Render("3 Wire shows every byte exchanged; 4 Server the full stderr."))
		return strings.Join(lines, "\n")
	}
	banner := p.banner(p.det.w)
	det := p.viewDetail(banner)
	if p.callBy != nil {
		det = p.callByView(p.det.w, p.det.h)
	}
	return joinSplit(p.c.st, p.list.view(), p.lr, det, p.stacked)
}

func (p *toolsPane) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	if cb := p.callBy; cb != nil {
		var cmd tea.Cmd
		if cb.onArgs {
			cb.args, cmd = cb.args.Update(msg)
		} else {
			cb.name, cmd = cb.name.Update(msg)
		}
		return cmd, true
	}
	return updateFilter(p.list, msg)
}

func (p *toolsPane) bindings() []key.Binding {
	if p.js.exploring() {
		return jsonBindings(&p.c.keys)
	}
	return p.c.keys.offered("tools")
}

// sync keeps the selected tool's input schema view laid out to the detail and places it
// (its first line in the detail); leaving the zoom leaves the JSON.
func (p *toolsPane) sync() {
	t := p.selected()
	if t == nil || p.det.w <= 0 {
		p.js = detailJSON{}
		return
	}
	p.js.set(t.InputSchema, ".inputSchema", p.det.w)
	if p.c.zoom != zoomDetail {
		p.js.explore = false
	}
	_, p.js.at = p.detailLinesAt(p.banner(p.det.w))
}

// viewDetail shows banner lines (the dead-server panel) above the selected tool.
func (p *toolsPane) viewDetail(banner []string) string {
	w, h := p.det.w, p.det.h
	lines := p.detailLines(banner)
	if p.js.exploring() {
		// The last row says where the cursor is, as under the Wire pane's JSON.
		v := p.js.view
		rows := window(lines, clampScroll(p.detailOff, len(lines), h-1), h-1, w)
		return strings.Join(append(rows, v.pathLine(p.c.st, &p.c.keys, w)), "\n")
	}
	return strings.Join(window(lines, clampScroll(p.detailOff, len(lines), h), h, w), "\n")
}

// detailLines are the banner lines, the listing's problems and the selected tool.
func (p *toolsPane) detailLines(banner []string) []string {
	lines, _ := p.detailLinesAt(banner)
	return lines
}

// detailLinesAt is detailLines, and the line the input schema's JSON view starts on.
func (p *toolsPane) detailLinesAt(banner []string) ([]string, int) {
	w, at := p.det.w, 0
	lines := append([]string(nil), banner...)
	if p.listErr != nil {
		lines = append(lines, wrapStyled(p.c.st.Error, "tools/list failed: "+block(p.listErr.Error()), w)...)
		what := "the server's tools are unknown, not absent"
		if len(p.tools) > 0 {
			what = "the tools below are from the listing before"
		}
		lines = append(lines, p.c.st.Muted.Render(fmt.Sprintf("%s · %s lists again", what, p.c.keys.List.Refresh.Help().Key)), "")
	}
	if len(p.warnings) > 0 {
		lines = append(lines, noticeLines(p.c.st, nil, p.warnings, w)...)
		lines = append(lines, "")
	}
	if t := p.selected(); t != nil {
		if i := p.list.selectedIndex(); i < len(p.finds) {
			lines = append(lines, steeringLines(p.c.st, p.finds[i], w)...)
		}
		var schema []string
		if p.js.view != nil {
			schema = p.js.rows(p.c.st)
		}
		detail, in := toolDetailAt(p.c.st, p.c.md, t, w, schema)
		at = len(lines) + in
		lines = append(lines, detail...)
		switch {
		case p.js.exploring():
			lines[len(lines)-1] = p.c.st.Muted.Render("esc: leave the schema (the line under the detail says what the keys do)")
		case p.c.zoom == zoomDetail && p.js.view != nil:
			lines[len(lines)-1] = p.c.st.Muted.Render("enter: explore the input schema (= unzooms; then enter calls the tool)")
		case p.c.attached():
			lines[len(lines)-1] = p.c.st.Muted.Render("enter: the calls of this tool seen through the tap (read-only)")
		case !p.c.canSend():
			lines[len(lines)-1] = p.c.st.Muted.Render("enter: the calls of this tool in the recording (offline: recorded session)")
		}
	}
	return lines, at
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
func toolDetail(st *themes.Styles, md *markdown, t *mcpclient.Tool, w int) []string {
	out, _ := toolDetailAt(st, md, t, w, nil)
	return out
}

// toolDetailAt is toolDetail with the input schema drawn as schema (the pane's JSON view;
// nil draws it afresh), and the line the schema starts on.
func toolDetailAt(st *themes.Styles, md *markdown, t *mcpclient.Tool, w int, schema []string) (out []string, at int) {
	title := clean(t.Name)
	if dn := t.DisplayName(); dn != t.Name {
		title += " — " + clean(dn)
	}
	out = append(out, wrapStyled(st.Title, title, w)...)
	out = append(out, "")
	if t.Description == "" {
		out = append(out, st.Muted.Render("(no description)"))
	} else {
		out = append(out, st.Muted.Render(fmt.Sprintf("description (%d chars, for the model):", utf8.RuneCountInString(t.Description))))
		out = append(out, md.lines(t.Description, w)...)
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
	at = len(out)
	if schema != nil {
		out = append(out, schema...)
	} else if _, ok := jsontext.Indent(t.InputSchema); ok {
		out = append(out, jsonOrText(st, t.InputSchema, w)...)
	} else if len(t.InputSchema) == 0 {
		out = append(out, st.Warning.Render("(no inputSchema: the spec requires one)"))
	} else {
		out = append(out, wrapStyled(st.Error, "not valid JSON: "+clean(string(t.InputSchema)), w)...)
	}
	if len(t.OutputSchema) > 0 {
		out = append(out, "", st.Title.Render("output schema"))
		if _, ok := jsontext.Indent(t.OutputSchema); ok {
			out = append(out, jsonOrText(st, t.OutputSchema, w)...)
		}
	}
	out = append(out, "", st.Muted.Render("enter: call this tool"))
	return out, at
}

// listShare is the list's share of the pane in percent (the split keys step from it).
func (p *toolsPane) listShare() int { return share(p.lr, p.det, p.stacked) }
