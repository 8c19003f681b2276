package ui

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/yosida95/uritemplate/v3"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// readState is the last resources/read of one list item (a resource, or a template with
// the URI its variables expanded to).
type readState struct {
	uri  string
	opID int
	res  *mcpclient.ReadResourceResult
	resp *mcpclient.Response
	// pics previews image blobs (imagepreview.go); nil draws none.
	pics *resultPics
}

// updateMark counts notifications/resources/updated for one URI.
type updateMark struct {
	count int
	last  time.Time
}

// savePrompt asks where to write a content item of the selected resource.
type savePrompt struct {
	key   string
	index int
	input textinput.Model
}

// resourcesPane lists resources and resource templates (every page), reads them (text in
// full, blobs as mime and size with save-to-file), fills templates through a form of their
// RFC 6570 variables, and subscribes to updates.
type resourcesPane struct {
	formList
	resources []mcpclient.Resource
	templates []mcpclient.ResourceTemplate

	reads   map[string]*readState
	subs    map[string]bool
	pending map[string]bool // subscribe/unsubscribe in flight
	updated map[string]*updateMark

	save *savePrompt
	// saved says where the last save went (or why it failed).
	saved string
}

func newResourcesPane(c *common, ops *session.Inflight, ids *formIDs) *resourcesPane {
	p := &resourcesPane{
		formList: newFormList(c, ops, ids, "resources"),
		reads:    map[string]*readState{}, subs: map[string]bool{}, pending: map[string]bool{},
		updated: map[string]*updateMark{},
	}
	p.setUp(p.detailLines)
	p.result = p.readResult
	return p
}

// listHeading is a list pane's title row: the title, and the first warning of the last
// listing (a duplicate name, pagination stopped …) when it warned, as the Tools pane's.
func listHeading(st *themes.Styles, title string, warnings []string, w int) string {
	if len(warnings) > 0 {
		return st.Warning.Render(fit(" "+title+" · ⚠ "+clean(warnings[0]), w))
	}
	return st.Title.Render(fit(" "+title, w))
}

// resource and template keys in the list.
func resKey(uri string) string   { return "r:" + uri }
func tmplKey(tmpl string) string { return "t:" + tmpl }

// setLists shows a new listing (after the handshake, or a list_changed refresh).
func (p *resourcesPane) setLists(res []mcpclient.Resource, tmpls []mcpclient.ResourceTemplate) {
	p.resources, p.templates, p.listed = res, tmpls, true
	p.rebuild()
}

// rebuild recomputes the list rows (marks change with subscriptions and updates).
func (p *resourcesPane) rebuild() {
	items := make([]listItem, 0, len(p.resources)+len(p.templates))
	for _, r := range p.resources {
		mark := ""
		switch {
		case p.updated[r.URI] != nil:
			mark = "↻"
		case p.subs[r.URI]:
			mark = "●"
		}
		label := r.Name
		if label == "" {
			label = r.URI
		}
		items = append(items, listItem{key: resKey(r.URI), label: label, mark: mark, search: r.Name + " " + r.URI + " " + r.Title})
	}
	for _, t := range p.templates {
		label := t.Name
		if label == "" {
			label = t.URITemplate
		}
		items = append(items, listItem{key: tmplKey(t.URITemplate), label: label, tag: "template", search: t.Name + " " + t.URITemplate + " " + t.Title})
	}
	p.list.title = fmt.Sprintf("resources (%d) · templates (%d)", len(p.resources), len(p.templates))
	switch {
	case !p.listed:
	case len(p.errs) > 0:
		p.list.empty = "listing failed (see the detail)"
	default:
		p.list.empty = "the server has no resources"
	}
	p.list.setItems(items)
}

func (p *resourcesPane) setSize(r rect) { p.layOut(r, len(p.resources)+len(p.templates)) }

// selection returns the selected resource or template (one of them is nil).
func (p *resourcesPane) selection() (*mcpclient.Resource, *mcpclient.ResourceTemplate) {
	it := p.list.selected()
	if it == nil {
		return nil, nil
	}
	if uri, ok := strings.CutPrefix(it.key, "r:"); ok {
		for i := range p.resources {
			if p.resources[i].URI == uri {
				return &p.resources[i], nil
			}
		}
	}
	if tmpl, ok := strings.CutPrefix(it.key, "t:"); ok {
		for i := range p.templates {
			if p.templates[i].URITemplate == tmpl {
				return nil, &p.templates[i]
			}
		}
	}
	return nil, nil
}

// inputFocused reports whether a form, the filter or the save prompt owns the keys.
func (p *resourcesPane) inputFocused() bool {
	return p.form != nil || p.list.typing() || p.save != nil || p.js.view.searching()
}

// markUpdated records notifications/resources/updated for uri; false when no listed
// resource has that URI (a sub-resource, or one not listed).
func (p *resourcesPane) markUpdated(uri string, now time.Time) bool {
	u := p.updated[uri]
	if u == nil {
		u = &updateMark{}
		p.updated[uri] = u
	}
	u.count++
	u.last = now
	p.rebuild()
	for _, r := range p.resources {
		if r.URI == uri {
			return true
		}
	}
	return false
}

// resourceAction is what a key in the pane asks the root to do (the root owns the session).
type resourceAction struct {
	read      string // uri to read
	key       string // the list item the read belongs to
	subscribe string // uri to (un)subscribe
	on        bool
	refresh   bool
}

func (p *resourcesPane) title() string { return "Resources" }

// handleKey handles the pane's keys: ctrl+x cancels its op, + steps a page; act is a
// resourceAction when the root must send something.
func (p *resourcesPane) handleKey(msg tea.KeyPressMsg) (bool, tea.Msg, tea.Cmd) {
	if cancelKey(p.c, msg) {
		return true, cancelAct{}, nil
	}
	if p.form == nil {
		clampDetail(&p.detailOff, len(p.detailLines(p.c.now())), p.det.h)
	}
	if stepKey(p.c, msg, p.inputFocused()) {
		return true, stepPageAct{session.Resources}, nil
	}
	handled, act, cmd := p.listKey(msg)
	if handled && act != nil {
		return true, *act, cmd
	}
	return handled, nil, cmd
}

func (p *resourcesPane) sync() {
	syncArgsForm(p.form, p.det)
	p.syncJSON()
}

func (p *resourcesPane) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	if s := p.save; s != nil {
		var cmd tea.Cmd
		s.input, cmd = s.input.Update(msg)
		return cmd, true
	}
	if cmd, ok := updateFilter(p.list, msg); ok {
		return cmd, true
	}
	return updateArgsForm(p.form, msg)
}

func (p *resourcesPane) bindings() []key.Binding {
	if p.form != nil {
		return p.c.keys.offered("argsform")
	}
	if p.js.exploring() {
		return jsonBindings(&p.c.keys)
	}
	return p.c.keys.offered("resources")
}

// listKey handles the list's, the form's and the save prompt's keys. act is set when the
// root must send something.
func (p *resourcesPane) listKey(msg tea.KeyPressMsg) (handled bool, act *resourceAction, cmd tea.Cmd) {
	k := p.c.keys
	if p.save != nil {
		return true, nil, p.saveKey(msg)
	}
	if p.form != nil {
		sub, closed, c := p.form.handleKey(msg)
		if closed {
			p.form = nil
			return true, nil, c
		}
		if sub != nil {
			_, t := p.selection()
			if t == nil {
				return true, nil, c
			}
			uri, err := expandTemplate(t.URITemplate, stringArgs(sub.args))
			if err != nil {
				p.form.errs = []string{"the template does not expand: " + clean(err.Error())}
				return true, nil, c
			}
			p.form = nil
			return true, &resourceAction{read: uri, key: tmplKey(t.URITemplate)}, c
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
	res, tmpl := p.selection()
	switch {
	case key.Matches(msg, k.List.Open):
		switch {
		case res != nil:
			return true, &resourceAction{read: res.URI, key: resKey(res.URI)}, nil
		case tmpl != nil:
			return true, nil, p.openForm(tmpl)
		}
	case key.Matches(msg, k.Resources.Subscribe):
		if res != nil && !p.pending[res.URI] {
			return true, &resourceAction{subscribe: res.URI, on: !p.subs[res.URI]}, nil
		}
	case key.Matches(msg, k.Detail.Save):
		return true, nil, p.openSave()
	case key.Matches(msg, k.List.Refresh):
		return true, &resourceAction{refresh: true}, nil
	case k.Detail.pageDetail(msg, &p.detailOff, p.det.h):
	default:
		return false, nil, nil
	}
	return true, nil, nil
}

// nextFormID numbers argument forms across panes so completion answers find their form.
type formIDs struct{ n int }

func (f *formIDs) next() int { f.n++; return f.n }

// openForm opens (or reopens, with its values) the variables form of a template.
func (p *resourcesPane) openForm(t *mcpclient.ResourceTemplate) tea.Cmd {
	f, ok := p.forms[t.URITemplate]
	if !ok {
		var specs []argSpec
		if tp, err := uritemplate.New(t.URITemplate); err == nil {
			for _, v := range tp.Varnames() {
				specs = append(specs, argSpec{name: v, required: true})
			}
		}
		f = newArgsForm(p.c, p.ids.next(), "read "+clean(t.URITemplate), "read resource",
			mcpclient.CompletionRef{Type: "ref/resource", URI: t.URITemplate}, specs)
		tmpl := t.URITemplate
		f.expand = func(v map[string]string) (string, error) { return expandTemplate(tmpl, v) }
		if _, err := uritemplate.New(t.URITemplate); err != nil {
			f.shapeWarn = "not an RFC 6570 template: " + clean(err.Error())
		}
		p.forms[t.URITemplate] = f
	}
	p.form = f
	f.setSize(p.det.w, p.det.h)
	return f.focus(0)
}

// expandTemplate expands an RFC 6570 URI template with string values.
func expandTemplate(tmpl string, vals map[string]string) (string, error) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return "", err
	}
	v := uritemplate.Values{}
	for k, s := range vals {
		v.Set(k, uritemplate.String(s))
	}
	return t.Expand(v)
}

// startRead records a read in flight for the list item key.
func (p *resourcesPane) startRead(key, uri string, opID int) {
	p.reads[key] = &readState{uri: uri, opID: opID, pics: newResultPics(p.c.gfx, max(p.det.h-6, 4))}
	p.detailOff = 0
}

// resourceReadMsg answers resources/read for op.
type resourceReadMsg struct {
	op   int
	key  string
	res  *mcpclient.ReadResourceResult
	resp *mcpclient.Response
	err  error
}

// readResource sends resources/read.
func readResource(ctx context.Context, s session.Conn, op int, key, uri string) tea.Cmd {
	return func() tea.Msg {
		res, resp, err := s.ReadResource(ctx, uri)
		return resourceReadMsg{op: op, key: key, res: res, resp: resp, err: err}
	}
}

// readDone stores a read's answer (only for the latest read of that item).
func (p *resourcesPane) readDone(msg resourceReadMsg) {
	r := p.reads[msg.key]
	if r == nil || r.opID != msg.op {
		return
	}
	r.res, r.resp = msg.res, msg.resp
	if u := p.updated[r.uri]; u != nil && msg.err == nil {
		// Reading it again acknowledges the update mark.
		delete(p.updated, r.uri)
		p.rebuild()
	}
}

// runningOp is the op of the selected item's read while it runs (for ctrl+x).
func (p *resourcesPane) runningOp() *session.Op {
	it := p.list.selected()
	if it == nil {
		return nil
	}
	if r := p.reads[it.key]; r != nil {
		if o := p.ops.Get(r.opID); o.Running() {
			return o
		}
	}
	return nil
}

// openSave asks for a file name for the selected item's first content.
func (p *resourcesPane) openSave() tea.Cmd {
	it := p.list.selected()
	if it == nil {
		return nil
	}
	r := p.reads[it.key]
	if r == nil || r.res == nil || len(r.res.Contents) == 0 {
		p.saved = "nothing to save yet: read the resource first (enter)"
		return nil
	}
	ti := textinput.New()
	ti.Prompt = "save to: "
	ti.SetStyles(inputStyles(p.c.st))
	ti.SetWidth(max(p.det.w-12, 10))
	ti.SetValue(p.saveName(it.key, r.res.Contents, 0))
	ti.CursorEnd()
	// Focus the copy the prompt keeps: a focused local copy would leave the field deaf.
	p.save = &savePrompt{key: it.key, input: ti}
	return p.save.input.Focus()
}

// saveName is the save prompt's file name for content item i: the file w or O already
// wrote it to (saving there again is no second copy), else one after its URI and type.
func (p *resourcesPane) saveName(key string, contents []mcpclient.ResourceContents, i int) string {
	if path := p.c.gfx.files[resourceItem(key, i+1)]; path != "" {
		return path
	}
	return defaultFileName(contents[i])
}

// savedMsg reports a file write: item (a mediaFiles key) went to path, or was there
// already (same).
type savedMsg struct {
	item string
	path string
	n    int
	same bool
	err  error
}

// saveKey handles the save prompt: tab picks the content item, enter writes, esc closes.
func (p *resourcesPane) saveKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.c.keys
	s := p.save
	r := p.reads[s.key]
	switch {
	case key.Matches(msg, k.Dialog.Dismiss):
		p.save = nil
		return nil
	case key.Matches(msg, k.Dialog.Confirm):
		p.save = nil
		if r == nil || r.res == nil || s.index >= len(r.res.Contents) {
			return nil
		}
		data, err := contentBytes(r.res.Contents[s.index])
		if err != nil {
			p.saved = "not saved: " + err.Error()
			return nil
		}
		return writeFile(resourceItem(s.key, s.index+1), s.input.Value(), data)
	case key.Matches(msg, k.Form.NextField):
		if r != nil && r.res != nil && len(r.res.Contents) > 0 {
			s.index = (s.index + 1) % len(r.res.Contents)
			s.input.SetValue(p.saveName(s.key, r.res.Contents, s.index))
			s.input.CursorEnd()
		}
		return nil
	}
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(msg)
	return cmd
}

// contentBytes is what a content item holds: its text, or its blob decoded from base64.
func contentBytes(c mcpclient.ResourceContents) ([]byte, error) {
	if c.Blob != "" {
		b, err := base64.StdEncoding.DecodeString(c.Blob)
		if err != nil {
			return nil, fmt.Errorf("the blob is not valid base64: %w", err)
		}
		return b, nil
	}
	return []byte(c.Text), nil
}

// expandHome replaces a leading "~/" (or a lone "~") with the home directory, as a
// shell would; the name is kept when the home directory is unknown.
func expandHome(name string, home func() (string, error)) string {
	if name != "~" && !strings.HasPrefix(name, "~/") {
		return name
	}
	h, err := home()
	if err != nil || h == "" {
		return name
	}
	return filepath.Join(h, name[1:])
}

// writeFile writes item's data to a new file name (never over an existing one); a file
// that holds data already is the item saved, not an error.
func writeFile(item, name string, data []byte) tea.Cmd {
	return func() tea.Msg {
		if strings.TrimSpace(name) == "" {
			return savedMsg{err: errors.New("no file name given")}
		}
		name = expandHome(name, os.UserHomeDir)
		if abs, err := filepath.Abs(name); err == nil {
			name = abs
		}
		if holds(name, data) {
			return savedMsg{item: item, path: name, n: len(data), same: true}
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return savedMsg{path: name, err: err}
		}
		n, err := f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return savedMsg{path: name, err: err}
		}
		return savedMsg{item: item, path: name, n: n}
	}
}

// mimeExt gives a file extension for common MIME types (no system lookup).
func mimeExt(mime string) string {
	mime, _, _ = strings.Cut(mime, ";")
	switch strings.TrimSpace(strings.ToLower(mime)) {
	case "text/plain":
		return ".txt"
	case "text/markdown":
		return ".md"
	case "text/html":
		return ".html"
	case "application/json":
		return ".json"
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/svg+xml":
		return ".svg"
	case "audio/wav", "audio/x-wav":
		return ".wav"
	case "application/gzip":
		return ".gz"
	case "application/pdf":
		return ".pdf"
	}
	return ".bin"
}

// defaultFileName derives a safe file name from a content item's URI and MIME type.
func defaultFileName(c mcpclient.ResourceContents) string {
	base := path.Base(strings.TrimRight(c.URI, "/"))
	if i := strings.IndexAny(base, "?#"); i >= 0 {
		base = base[:i]
	}
	var b strings.Builder
	for _, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteRune('_')
		}
	}
	name := strings.Trim(b.String(), "._")
	if name == "" {
		name = "resource"
	}
	if !strings.Contains(name, ".") {
		name += mimeExt(c.MimeType)
	}
	return name
}

func (p *resourcesPane) detailLines(now time.Time) []string {
	st := p.c.st
	w, out := p.detailStart()
	add := func(l ...string) { out = append(out, l...) }
	if p.save != nil {
		add(fit(p.save.input.View(), w))
		add(st.Muted.Render(fmt.Sprintf("content %d · enter writes (never over an existing file) · tab next content · esc", p.save.index+1)), "")
	}
	if p.saved != "" {
		add(wrapStyled(st.Muted, clean(p.saved), w)...)
	}
	res, tmpl := p.selection()
	key := ""
	switch {
	case res != nil:
		key = resKey(res.URI)
		title := res.Name
		if res.Title != "" {
			title += " — " + res.Title
		}
		add(wrapStyled(st.Title, clean(title), w)...)
		add(wrap("uri:  "+clean(res.URI), w)...)
		if res.MimeType != "" {
			add("mime: " + clean(res.MimeType))
		}
		if res.Size != nil {
			add(fmt.Sprintf("size: %s (%d bytes)", humanSize(*res.Size), *res.Size))
		}
		if res.Description != "" {
			add("")
			add(p.c.md.lines(res.Description, w)...)
		}
		if len(res.Annotations) > 0 {
			pretty, _ := jsontext.Indent(res.Annotations)
			add("", st.Title.Render("annotations"))
			add(wrap(block(pretty), w)...)
		}
		add("")
		switch {
		case p.pending[res.URI]:
			add(st.Muted.Render("subscription change in flight…"))
		case p.subs[res.URI]:
			add(st.Success.Render("● subscribed") + st.Muted.Render(" (s unsubscribes)"))
		default:
			add(st.Muted.Render("not subscribed (s subscribes to notifications/resources/updated)"))
		}
		if u := p.updated[res.URI]; u != nil {
			add(st.Warning.Render(fmt.Sprintf("↻ updated %d time(s), last %s ago: enter reads it again", u.count, now.Sub(u.last).Round(time.Second))))
		}
		add(st.Muted.Render("enter reads · w saves the contents to a file"))
	case tmpl != nil:
		key = tmplKey(tmpl.URITemplate)
		title := tmpl.Name
		if tmpl.Title != "" {
			title += " — " + tmpl.Title
		}
		add(wrapStyled(st.Title, clean(title), w)...)
		add(wrap("template: "+clean(tmpl.URITemplate), w)...)
		if tp, err := uritemplate.New(tmpl.URITemplate); err == nil {
			add(wrap("variables: "+clean(strings.Join(tp.Varnames(), ", ")), w)...)
		} else {
			add(wrapStyled(st.Warning, "not an RFC 6570 template: "+clean(err.Error()), w)...)
		}
		if tmpl.MimeType != "" {
			add("mime: " + clean(tmpl.MimeType))
		}
		if tmpl.Description != "" {
			add("")
			add(p.c.md.lines(tmpl.Description, w)...)
		}
		add("", st.Muted.Render("enter fills the variables (with completions) and reads"))
	default:
		if !p.listed && p.status != "" {
			add(st.Muted.Render(p.status))
		}
		return out
	}
	r := p.reads[key]
	if r == nil {
		return out
	}
	add("")
	o := p.ops.Get(r.opID)
	add(opLines(st, p.bar.ViewAs, o, now, w)...)
	if o != nil && o.State == session.OpDone && r.res != nil {
		add(readLines(st, p.c.md, r, w)...)
	}
	return out
}

// readLines renders a resources/read result: every content item, text in full, blobs as
// MIME type and size.
func readLines(st *themes.Styles, md *markdown, r *readState, w int) []string {
	var out []string
	facts := fmt.Sprintf("resources/read %s", clean(r.uri))
	out = append(out, wrapStyled(st.Title, facts, w)...)
	if r.resp != nil {
		out = append(out, st.Muted.Render(fmt.Sprintf("took %s · request #%d → response #%d", r.resp.Elapsed.Round(time.Millisecond), r.resp.RequestSeq, r.resp.Seq)))
	}
	out = append(out, st.Success.Render(fmt.Sprintf("%d content item(s)", len(r.res.Contents))))
	for i, c := range r.res.Contents {
		out = append(out, "", st.Accent.Render(fmt.Sprintf("[%d] %s", i+1, clean(c.URI))))
		if c.MimeType != "" {
			out = append(out, "  mime: "+clean(c.MimeType))
		}
		switch {
		case c.Blob != "":
			if b, err := base64.StdEncoding.DecodeString(c.Blob); err != nil {
				out = append(out, st.Warning.Render(fmt.Sprintf("  blob: %d bytes of base64 that do not decode: %s", len(c.Blob), clean(err.Error()))))
			} else {
				out = append(out, fmt.Sprintf("  blob: %s decoded (%d bytes) · w saves it", humanSize(int64(len(b))), len(b)))
				out = append(out, r.pics.blobPreview(st, i, c, w)...)
			}
		case c.Text == "":
			out = append(out, st.Muted.Render("  (empty text)"))
		case jsonMime(c.MimeType):
			out = append(out, jsonOrText(st, []byte(c.Text), w)...)
		case isMarkdown(c.MimeType):
			out = append(out, md.lines(c.Text, w)...)
		default:
			out = append(out, wrap(block(c.Text), w)...)
		}
	}
	return out
}

// readResult is the selected item's last read result as the server sent it.
func (p *resourcesPane) readResult() ([]byte, string) {
	it := p.list.selected()
	if it == nil {
		return nil, ""
	}
	r := p.reads[it.key]
	if r == nil || r.res == nil {
		return nil, ""
	}
	return rawResult(r.resp, r.res), "result"
}
