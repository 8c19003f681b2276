package ui

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// promptGet is the last prompts/get of one prompt.
type promptGet struct {
	opID int
	args map[string]string
	res  *mcpclient.GetPromptResult
	resp *mcpclient.Response
}

// promptsPane lists prompts, gets one with a form of its arguments (with completions) and
// renders the returned messages by role, every content type.
type promptsPane struct {
	formList
	prompts []mcpclient.Prompt
	gets    map[string]*promptGet
}

func newPromptsPane(c *common, ops *session.Inflight, ids *formIDs) *promptsPane {
	p := &promptsPane{formList: newFormList(c, ops, ids, "prompts"), gets: map[string]*promptGet{}}
	p.setUp(p.detailLines)
	p.result = p.getResult
	return p
}

func (p *promptsPane) setPrompts(ps []mcpclient.Prompt) {
	p.prompts, p.listed = ps, true
	items := make([]listItem, 0, len(ps))
	for _, pr := range ps {
		tag := ""
		if n := len(pr.Arguments); n > 0 {
			tag = fmt.Sprintf("(%d)", n)
		}
		items = append(items, listItem{key: pr.Name, label: pr.Name, tag: tag, search: pr.Name + " " + pr.Title})
	}
	p.list.title = fmt.Sprintf("prompts (%d)", len(ps))
	p.list.empty = "the server has no prompts"
	if len(p.errs) > 0 {
		p.list.empty = "listing failed (see the detail)"
	}
	p.list.setItems(items)
}

func (p *promptsPane) setSize(r rect) { p.layOut(r, len(p.prompts)) }

func (p *promptsPane) selected() *mcpclient.Prompt {
	it := p.list.selected()
	if it == nil {
		return nil
	}
	for i := range p.prompts {
		if p.prompts[i].Name == it.key {
			return &p.prompts[i]
		}
	}
	return nil
}

func (p *promptsPane) inputFocused() bool {
	return p.form != nil || p.list.typing() || p.js.view.searching()
}

// promptAction asks the root to send prompts/get (get set) or to list again.
type promptAction struct {
	get     string
	args    map[string]string
	refresh bool
}

func (p *promptsPane) title() string { return "Prompts" }

// handleKey handles the pane's keys: ctrl+x cancels its op, + steps a page; act is a
// promptAction when the root must send something.
func (p *promptsPane) handleKey(msg tea.KeyPressMsg) (bool, tea.Msg, tea.Cmd) {
	if cancelKey(p.c, msg) {
		return true, cancelAct{}, nil
	}
	if p.form == nil {
		clampDetail(&p.detailOff, len(p.detailLines(p.c.now())), p.det.h)
	}
	if stepKey(p.c, msg, p.inputFocused()) {
		return true, stepPageAct{session.Prompts}, nil
	}
	handled, act, cmd := p.listKey(msg)
	if handled && act != nil {
		return true, *act, cmd
	}
	return handled, nil, cmd
}

func (p *promptsPane) sync() {
	syncArgsForm(p.form, p.det)
	p.syncJSON()
}

func (p *promptsPane) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	if cmd, ok := updateFilter(p.list, msg); ok {
		return cmd, true
	}
	return updateArgsForm(p.form, msg)
}

func (p *promptsPane) bindings() []key.Binding {
	if p.form != nil {
		return p.c.keys.offered("argsform")
	}
	if p.js.exploring() {
		return jsonBindings(&p.c.keys)
	}
	return p.c.keys.offered("prompts")
}

// listKey handles the list's and the form's keys. act is set when the root must send
// something.
func (p *promptsPane) listKey(msg tea.KeyPressMsg) (bool, *promptAction, tea.Cmd) {
	k := p.c.keys
	if p.form != nil {
		sub, closed, c := p.form.handleKey(msg)
		switch {
		case closed:
			p.form = nil
		case sub != nil:
			pr := p.selected()
			p.form = nil
			if pr != nil {
				return true, &promptAction{get: pr.Name, args: stringArgs(sub.args)}, c
			}
		}
		return true, nil, c
	}
	if ok, c := p.jsonKey(msg); ok {
		return true, nil, c
	}
	if h, c := p.list.paneKey(msg, &p.detailOff); h {
		return true, nil, c
	}
	if ok, c := p.c.copyShownKey(msg, p.copySource); ok {
		return true, nil, c
	}
	pr := p.selected()
	switch {
	case key.Matches(msg, k.List.OpenPrompt):
		if pr == nil {
			return true, nil, nil
		}
		if len(pr.Arguments) == 0 {
			return true, &promptAction{get: pr.Name}, nil
		}
		return true, nil, p.openForm(pr)
	case key.Matches(msg, k.List.Refresh):
		return true, &promptAction{refresh: true}, nil
	case k.Detail.pageDetail(msg, &p.detailOff, p.det.h):
	default:
		return false, nil, nil
	}
	return true, nil, nil
}

// openForm opens the arguments form of pr, keeping earlier values.
func (p *promptsPane) openForm(pr *mcpclient.Prompt) tea.Cmd {
	f, ok := p.forms[pr.Name]
	if !ok {
		specs := make([]argSpec, 0, len(pr.Arguments))
		for _, a := range pr.Arguments {
			desc := a.Description
			if a.Title != "" {
				desc = strings.TrimSpace(a.Title + ": " + desc)
			}
			specs = append(specs, argSpec{name: a.Name, desc: desc, required: a.Required})
		}
		f = newArgsForm(p.c, p.ids.next(), "get prompt "+clean(pr.Name), "get prompt",
			mcpclient.CompletionRef{Type: "ref/prompt", Name: pr.Name}, specs)
		p.forms[pr.Name] = f
	}
	p.form = f
	f.setSize(p.det.w, p.det.h)
	return f.focus(0)
}

// promptGotMsg answers prompts/get for op.
type promptGotMsg struct {
	op   int
	name string
	res  *mcpclient.GetPromptResult
	resp *mcpclient.Response
	err  error
}

// getPrompt sends prompts/get.
func getPrompt(ctx context.Context, s session.Conn, op int, name string, args map[string]string) tea.Cmd {
	return func() tea.Msg {
		res, resp, err := s.GetPrompt(ctx, name, args)
		return promptGotMsg{op: op, name: name, res: res, resp: resp, err: err}
	}
}

func (p *promptsPane) startGet(name string, args map[string]string, opID int) {
	p.gets[name] = &promptGet{opID: opID, args: args}
	p.detailOff = 0
}

func (p *promptsPane) got(msg promptGotMsg) {
	g := p.gets[msg.name]
	if g == nil || g.opID != msg.op {
		return
	}
	g.res, g.resp = msg.res, msg.resp
}

func (p *promptsPane) runningOp() *session.Op {
	if pr := p.selected(); pr != nil {
		if g := p.gets[pr.Name]; g != nil {
			if o := p.ops.Get(g.opID); o.Running() {
				return o
			}
		}
	}
	return nil
}

func (p *promptsPane) detailLines(now time.Time) []string {
	st := p.c.st
	w, out := p.detailStart()
	add := func(l ...string) { out = append(out, l...) }
	pr := p.selected()
	if pr == nil {
		if !p.listed && p.status != "" {
			add(st.Muted.Render(p.status))
		}
		return out
	}
	title := pr.Name
	if pr.Title != "" {
		title += " — " + pr.Title
	}
	add(wrapStyled(st.Title, clean(title), w)...)
	if fs := findings.Prompt(*pr); len(fs) > 0 {
		add("")
		add(steeringLines(st, fs, w)...)
	}
	if pr.Description != "" {
		add("", st.Muted.Render(fmt.Sprintf("description (%d chars, for the model):", utf8.RuneCountInString(pr.Description))))
		add(p.c.md.lines(pr.Description, w)...)
	}
	add("", st.Title.Render("arguments"))
	if len(pr.Arguments) == 0 {
		add(st.Muted.Render("  (none)"))
	}
	for _, a := range pr.Arguments {
		req := ""
		if a.Required {
			req = " (required)"
		}
		line := "  " + clean(a.Name) + req
		if a.Description != "" {
			line += ": " + clean(a.Description)
		}
		add(wrap(line, w)...)
	}
	add("", st.Muted.Render("enter gets the prompt"))
	g := p.gets[pr.Name]
	if g == nil {
		return out
	}
	add("")
	o := p.ops.Get(g.opID)
	add(opLines(st, p.bar.ViewAs, o, now, w)...)
	if o != nil && o.State == session.OpDone && g.res != nil {
		add(promptResultLines(st, pr.Name, g, w)...)
	}
	return out
}

// promptResultLines renders a GetPromptResult: the description, then each message under its
// role, every content block by type (unknown types raw).
func promptResultLines(st *themes.Styles, name string, g *promptGet, w int) []string {
	var out []string
	out = append(out, wrapStyled(st.Title, "prompts/get "+clean(name), w)...)
	if len(g.args) > 0 {
		keys := make([]string, 0, len(g.args))
		for k := range g.args {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+"="+g.args[k])
		}
		out = append(out, wrapStyled(st.Muted, "arguments: "+clean(strings.Join(parts, " ")), w)...)
	}
	if g.resp != nil {
		out = append(out, st.Muted.Render(fmt.Sprintf("took %s · request #%d → response #%d", g.resp.Elapsed.Round(time.Millisecond), g.resp.RequestSeq, g.resp.Seq)))
	}
	if g.res.Description != "" {
		out = append(out, wrap(block(g.res.Description), w)...)
	}
	out = append(out, st.Success.Render(fmt.Sprintf("%d message(s)", len(g.res.Messages))))
	for i, m := range g.res.Messages {
		role := st.Request
		if m.Role == "assistant" {
			role = st.Response
		}
		out = append(out, "", role.Render(fmt.Sprintf("── %d · %s ──", i+1, clean(m.Role))))
		out = append(out, blockLines(st, 0, m.Content, false, w)...)
	}
	return out
}

// getResult is the selected prompt's last get result as the server sent it.
func (p *promptsPane) getResult() ([]byte, string) {
	pr := p.selected()
	if pr == nil {
		return nil, ""
	}
	g := p.gets[pr.Name]
	if g == nil || g.res == nil {
		return nil, ""
	}
	return rawResult(g.resp, g.res), "result"
}
