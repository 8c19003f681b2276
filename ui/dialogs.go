package ui

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// samplingReplyModel is the model name a user-typed sampling reply carries.
const samplingReplyModel = "mcp-inspect-user"

// requestBase is what every server-request dialog shares: sampling/createMessage,
// elicitation/create (form or URL mode) or roots/list, in either era. The dialog owns the
// keys while it is the front of the overlay.
type requestBase struct {
	c   *common
	req *session.Inbound
	// during says which of our requests the server asked this in ("" if unknown).
	during string
	// shownAt is when the dialog came to the front (keys before that, and just after, are
	// ignored: see model.dialogGuard). Set in Update (model.sync).
	shownAt time.Time
	// waiting is how many server requests wait behind this one (set by the root's sync).
	waiting int
	// quitAsked is set by a first q (model.dialogQuit): a second q quits, any other key
	// clears it. quitText is the question shown in place of the key line ("" when the
	// elicitation form's own warning asked).
	quitAsked bool
	quitText  string
	// off scrolls the request.
	off  int
	w, h int
}

func (d *requestBase) base() *requestBase { return d }

// scrollKey scrolls the request with ScrollUp/ScrollDown.
func (d *requestBase) scrollKey(msg tea.KeyPressMsg) bool {
	k := d.c.keys
	switch {
	case key.Matches(msg, k.Dialog.ScrollUp):
		d.off = max(d.off-max(d.h/2, 1), 0)
	case key.Matches(msg, k.Dialog.ScrollDown):
		d.off += max(d.h/2, 1)
	default:
		return false
	}
	return true
}

// samplingDialog answers sampling/createMessage with a reply the user types.
type samplingDialog struct {
	requestBase
	reply textarea.Model
}

// elicitFormDialog answers a form-mode elicitation/create with the form of its schema.
type elicitFormDialog struct {
	requestBase
	message string
	form    *elicitForm
}

// elicitURLDialog answers a URL-mode elicitation/create: consent, never opened by us.
type elicitURLDialog struct {
	requestBase
	message, rawURL, host, elicitID, urlProblem string
}

// rootsDialog answers roots/list with the roots offered.
type rootsDialog struct{ requestBase }

// newDialog builds the dialog for a request the features cover.
func newDialog(c *common, req *session.Inbound, during string) requestDialog {
	b := requestBase{c: c, req: req, during: during}
	switch req.Method {
	case "sampling/createMessage":
		ta := textarea.New()
		ta.ShowLineNumbers = false
		ta.Placeholder = "type the assistant's reply"
		ta.SetStyles(areaStyles(c.st))
		ta.SetHeight(4)
		return &samplingDialog{requestBase: b, reply: ta}
	case "elicitation/create":
		var p struct {
			Message         string          `json:"message"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
			URL             string          `json:"url"`
			ElicitationID   string          `json:"elicitationId"`
		}
		_ = json.Unmarshal(req.Params, &p)
		if session.ElicitMode(req.Params) != "url" {
			return &elicitFormDialog{requestBase: b, message: p.Message, form: newElicitForm(c, p.RequestedSchema)}
		}
		d := &elicitURLDialog{requestBase: b, message: p.Message, rawURL: p.URL, elicitID: p.ElicitationID}
		u, err := url.Parse(p.URL)
		switch {
		case err != nil:
			d.urlProblem = "the URL does not parse: " + err.Error()
		case u.Host == "":
			d.urlProblem = "the URL has no host"
		default:
			d.host = u.Hostname()
			if u.Scheme != "https" {
				d.urlProblem = "the URL is not https (" + u.Scheme + ")"
			}
		}
		return d
	}
	return &rootsDialog{requestBase: b}
}

func (d *samplingDialog) focus() tea.Cmd   { return d.reply.Focus() }
func (d *elicitFormDialog) focus() tea.Cmd { return d.form.focus() }
func (d *elicitURLDialog) focus() tea.Cmd  { return nil }
func (d *rootsDialog) focus() tea.Cmd      { return nil }

// dialogOutcome is what the user decided: a result or an error to send, in words.
type dialogOutcome struct {
	result json.RawMessage
	err    *mcpclient.RPCError
	what   string
	// editRoots asks the root to open the roots editor (the dialog stays).
	editRoots bool
}

// samplingResult is the CreateMessageResult of a typed reply (MCP client/sampling).
func samplingResult(text string) json.RawMessage {
	b, _ := json.Marshal(struct {
		Role       string `json:"role"`
		Content    any    `json:"content"`
		Model      string `json:"model"`
		StopReason string `json:"stopReason"`
	}{"assistant", map[string]string{"type": "text", "text": text}, samplingReplyModel, "endTurn"})
	return b
}

// elicitResult is an ElicitResult (MCP client/elicitation); content only for accept.
func elicitResult(action string, content json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content,omitempty"`
	}{action, content})
	return b
}

// answer handles a key of the sampling dialog; out is set when the user answered.
func (d *samplingDialog) answer(msg tea.KeyPressMsg, _ []mcpclient.Root) (*dialogOutcome, tea.Cmd) {
	k := d.c.keys
	switch {
	case d.scrollKey(msg):
		return nil, nil
	case key.Matches(msg, k.Dialog.Accept):
		text := d.reply.Value()
		return &dialogOutcome{result: samplingResult(text), what: fmt.Sprintf("sent your reply (%d characters)", len([]rune(text)))}, nil
	case key.Matches(msg, k.Dialog.Decline), key.Matches(msg, k.Dialog.Dismiss):
		return &dialogOutcome{err: &mcpclient.RPCError{Code: -1, Message: "User rejected sampling request"}, what: "rejected it"}, nil
	}
	var c tea.Cmd
	d.reply, c = d.reply.Update(msg)
	return nil, c
}

func (d *elicitFormDialog) answer(msg tea.KeyPressMsg, _ []mcpclient.Root) (*dialogOutcome, tea.Cmd) {
	if d.scrollKey(msg) {
		return nil, nil
	}
	if key.Matches(msg, d.c.keys.Dialog.Decline) {
		return &dialogOutcome{result: elicitResult("decline", nil), what: "declined"}, nil
	}
	content, cancel, c := d.form.handleKey(msg)
	switch {
	case content != nil:
		return &dialogOutcome{result: elicitResult("accept", content), what: "accepted with " + string(content)}, c
	case cancel:
		return &dialogOutcome{result: elicitResult("cancel", nil), what: "cancelled"}, c
	}
	return nil, c
}

func (d *elicitURLDialog) answer(msg tea.KeyPressMsg, _ []mcpclient.Root) (*dialogOutcome, tea.Cmd) {
	k := d.c.keys
	switch {
	case d.scrollKey(msg):
	case key.Matches(msg, k.Dialog.Accept, k.Dialog.Confirm):
		return &dialogOutcome{result: elicitResult("accept", nil), what: "accepted (you consent to open the URL yourself)"}, nil
	case key.Matches(msg, k.Dialog.Decline):
		return &dialogOutcome{result: elicitResult("decline", nil), what: "declined"}, nil
	case key.Matches(msg, k.Dialog.Dismiss):
		return &dialogOutcome{result: elicitResult("cancel", nil), what: "cancelled"}, nil
	}
	return nil, nil
}

func (d *rootsDialog) answer(msg tea.KeyPressMsg, roots []mcpclient.Root) (*dialogOutcome, tea.Cmd) {
	k := d.c.keys
	switch {
	case d.scrollKey(msg):
	case key.Matches(msg, k.Dialog.Accept, k.Dialog.Confirm):
		return &dialogOutcome{result: mcpclient.RootsResult(roots), what: fmt.Sprintf("sent %d root(s)", len(roots))}, nil
	case key.Matches(msg, k.Dialog.EditRoots), key.Matches(msg, k.Global.Roots):
		return &dialogOutcome{editRoots: true}, nil
	case key.Matches(msg, k.Dialog.Decline), key.Matches(msg, k.Dialog.Dismiss):
		return &dialogOutcome{err: &mcpclient.RPCError{Code: -1, Message: "User refused to share roots"}, what: "refused"}, nil
	}
	return nil, nil
}

func (d *requestBase) setSize(w, h int) { d.w, d.h = w, h }

func (d *samplingDialog) setSize(w, h int) {
	d.w, d.h = w, h
	d.reply.SetWidth(max(w-4, 10))
}

func (d *samplingDialog) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	var cmd tea.Cmd
	d.reply, cmd = d.reply.Update(msg)
	return cmd, true
}
func (d *elicitFormDialog) updateInput(msg tea.Msg) (tea.Cmd, bool) { return d.form.update(msg), true }

// A request dialog without an input still takes the messages: nothing under it blinks.
func (d *elicitURLDialog) updateInput(tea.Msg) (tea.Cmd, bool) { return nil, true }
func (d *rootsDialog) updateInput(tea.Msg) (tea.Cmd, bool)     { return nil, true }

func (d *samplingDialog) bindings(k *keyMap) []key.Binding   { return k.offered("sampling") }
func (d *elicitURLDialog) bindings(k *keyMap) []key.Binding  { return k.offered("elicitURL") }
func (d *elicitFormDialog) bindings(k *keyMap) []key.Binding { return k.offered("elicitForm") }
func (d *rootsDialog) bindings(k *keyMap) []key.Binding      { return k.offered("roots") }

func (d *samplingDialog) title() string   { return d.titleOf("") }
func (d *elicitFormDialog) title() string { return d.titleOf(" (form)") }
func (d *elicitURLDialog) title() string  { return d.titleOf(" (url)") }
func (d *rootsDialog) title() string      { return d.titleOf("") }

// titleOf names the request (method, then mode) and where it came from.
func (d *requestBase) titleOf(mode string) string {
	s := d.req.Method + mode
	if d.req.Modern() {
		s += " · modern input request " + d.req.Key
	} else if d.req.ID != nil {
		s += " · request id " + string(d.req.ID)
	}
	return s
}

// duringLines says which of our requests the server asked in.
func (d *requestBase) duringLines(w int) []string {
	if d.during == "" {
		return nil
	}
	return wrapStyled(d.c.st.Muted, "asked while "+clean(d.during)+" is pending", w)
}

// requestLines draw what the server asks, for reading before answering.
func (d *samplingDialog) requestLines(_ []mcpclient.Root, w int) []string {
	return append(d.duringLines(w), samplingLines(d.c.st, d.req.Params, w)...)
}

func (d *elicitFormDialog) requestLines(_ []mcpclient.Root, w int) []string {
	out := append(d.duringLines(w), d.c.st.Title.Render("the server asks"))
	return append(out, wrap(block(d.message), w)...)
}

func (d *elicitURLDialog) requestLines(_ []mcpclient.Root, w int) []string {
	st := d.c.st
	out := append(d.duringLines(w), st.Title.Render("the server asks you to open a URL"))
	out = append(out, wrap(block(d.message), w)...)
	out = append(out, "", "url:  "+clean(d.rawURL), st.Warning.Render("host: "+clean(d.host)))
	if d.elicitID != "" {
		out = append(out, "elicitationId: "+clean(d.elicitID))
	}
	if d.urlProblem != "" {
		out = append(out, wrapStyled(st.Warning, "⚠ "+clean(d.urlProblem), w)...)
	}
	return append(out, st.Muted.Render("mcp-inspect never opens it; accepting only tells the server you consent."))
}

func (d *rootsDialog) requestLines(roots []mcpclient.Root, w int) []string {
	st := d.c.st
	out := append(d.duringLines(w), st.Title.Render("the server asks for the client's roots"))
	if len(roots) == 0 {
		out = append(out, st.Muted.Render("  (no roots configured: --root PATH, or e to add some)"))
	}
	for _, r := range roots {
		line := "  " + clean(r.URI)
		if r.Name != "" {
			line += "  " + st.Muted.Render(clean(r.Name))
		}
		out = append(out, line)
	}
	return out
}

// samplingLines renders a CreateMessageRequest: messages by role with every content block,
// system prompt, model preferences, limits.
func samplingLines(st *themes.Styles, params json.RawMessage, w int) []string {
	var p struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		SystemPrompt     string          `json:"systemPrompt"`
		ModelPreferences json.RawMessage `json:"modelPreferences"`
		MaxTokens        *int64          `json:"maxTokens"`
		Temperature      *float64        `json:"temperature"`
		StopSequences    []string        `json:"stopSequences"`
		IncludeContext   string          `json:"includeContext"`
		Metadata         json.RawMessage `json:"metadata"`
		Tools            json.RawMessage `json:"tools"`
	}
	var out []string
	add := func(l ...string) { out = append(out, l...) }
	if err := json.Unmarshal(params, &p); err != nil {
		add(wrapStyled(st.Warning, "the params do not read as a sampling request: "+clean(err.Error()), w)...)
	}
	if p.SystemPrompt != "" {
		add(st.Title.Render("system prompt"))
		add(wrap(block(p.SystemPrompt), w)...)
	}
	add(st.Title.Render(fmt.Sprintf("messages (%d)", len(p.Messages))))
	for i, m := range p.Messages {
		role := st.Request
		if m.Role == "assistant" {
			role = st.Response
		}
		add(role.Render(fmt.Sprintf("── %d · %s ──", i+1, clean(m.Role))))
		for j, b := range contentBlocks(m.Content) {
			add(blockLines(st, j, b, false, w)...)
		}
	}
	var facts []string
	if p.MaxTokens != nil {
		facts = append(facts, fmt.Sprintf("maxTokens %d", *p.MaxTokens))
	} else {
		facts = append(facts, "maxTokens missing (the spec requires it)")
	}
	if p.Temperature != nil {
		facts = append(facts, fmt.Sprintf("temperature %g", *p.Temperature))
	}
	if p.IncludeContext != "" {
		facts = append(facts, "includeContext "+p.IncludeContext)
	}
	if len(p.StopSequences) > 0 {
		facts = append(facts, "stop "+strings.Join(p.StopSequences, " | "))
	}
	add(wrapStyled(st.Muted, clean(strings.Join(facts, " · ")), w)...)
	for _, sec := range []struct {
		name string
		raw  json.RawMessage
	}{{"model preferences", p.ModelPreferences}, {"metadata", p.Metadata}, {"tools", p.Tools}} {
		if len(sec.raw) == 0 || string(sec.raw) == "null" {
			continue
		}
		pretty, _ := jsontext.Indent(sec.raw)
		add(st.Title.Render(sec.name))
		add(wrap(block(pretty), w)...)
	}
	return out
}

// contentBlocks reads a sampling message's content: one block or an array of blocks.
func contentBlocks(raw json.RawMessage) []mcpclient.ContentBlock {
	var many []mcpclient.ContentBlock
	if json.Unmarshal(raw, &many) == nil {
		return many
	}
	var one mcpclient.ContentBlock
	_ = json.Unmarshal(raw, &one)
	if one.Raw == nil {
		one.Raw = raw
	}
	return []mcpclient.ContentBlock{one}
}

// keyLine says which keys answer the dialog.
func (d *samplingDialog) keyLine() string {
	return "ctrl+s send the reply · ctrl+d or esc reject · pgup/pgdn scroll the request"
}
func (d *elicitFormDialog) keyLine() string {
	return "ctrl+s accept (send the form) · ctrl+d decline · esc cancel · pgup/pgdn scroll"
}
func (d *elicitURLDialog) keyLine() string {
	return "enter/ctrl+s accept · ctrl+d decline · esc cancel"
}
func (d *rootsDialog) keyLine() string {
	return "enter send these roots · e edit the roots · ctrl+d/esc refuse"
}

// inputLines are the dialog's input under the request: the reply (sampling), the form
// (elicitation form mode); avail is the room under the header, body the request's length.
func (d *samplingDialog) inputLines(avail, body int) []string {
	input := []string{d.c.st.Title.Render("your reply (as the assistant)")}
	input = append(input, strings.Split(d.reply.View(), "\n")...)
	if len(input) > avail-min(body, 2) {
		input = input[:max(avail-min(body, 2), 1)]
	}
	return input
}

// formHeight is the form's share of avail: the request gets what it needs up to a third
// (at least two lines: the question), the form the rest.
func (d *elicitFormDialog) formHeight(avail, body int) int {
	top := min(body, max(d.h/3, 2))
	return max(avail-top, min(5, avail-min(body, 2)), 1)
}

func (d *elicitFormDialog) inputLines(avail, body int) []string {
	fh := d.formHeight(avail, body)
	input := strings.Split(d.form.view(), "\n")
	if len(input) > fh {
		input = input[:fh]
	}
	return input
}

func (d *elicitURLDialog) inputLines(int, int) []string { return nil }
func (d *rootsDialog) inputLines(int, int) []string     { return nil }

// view draws the dialog into w×h: title, the request (scrollable), the input, the keys.
// The key line (wrapped) always shows; on a short screen the rules go first, then the
// form shrinks so the question keeps at least two lines.
func requestView(d requestDialog, roots []mcpclient.Root, waiting int) string {
	b := d.base()
	st := b.c.st
	w, h := b.w, b.h
	f := frameOf(d, roots, waiting)
	lines := f.head
	input := d.inputLines(f.avail, len(f.body))
	room := max(f.avail-len(input), 0)
	off := clampScroll(b.off, len(f.body), max(room, 1))
	lines = append(lines, window(f.body, off, room, w)...)
	if room >= 2 && off+room < len(f.body) {
		lines[len(lines)-1] = fit(st.Muted.Render(fmt.Sprintf("… %d more lines (pgdn)", len(f.body)-off-room)), w)
	}
	lines = append(lines, input...)
	lines = append(lines, f.foot...)
	if len(lines) > h { // keys last: cut from above them
		lines = append(lines[:max(h-len(f.foot), 0)], f.foot...)
	}
	return strings.Join(window(lines, 0, h, w), "\n")
}

// requestFrame is a request dialog's layout: the header and footer lines, the request's
// lines, and the rows left between header and footer (avail).
type requestFrame struct {
	head, foot, body []string
	avail            int
}

// frameOf lays d out in its w×h (waiting more requests behind it).
func frameOf(d requestDialog, roots []mcpclient.Root, waiting int) requestFrame {
	b := d.base()
	st := b.c.st
	w, h := b.w, b.h
	head := st.Title.Render("server request: ") + st.Accent.Render(clean(d.title()))
	if waiting > 0 {
		head += st.Warning.Render(fmt.Sprintf("   +%d more waiting", waiting))
	}
	rule := st.Border.Render(strings.Repeat("─", max(w, 0)))
	keys := wrapStyled(st.Muted, d.keyLine(), max(w, 10))
	if b.quitText != "" {
		keys = wrapStyled(st.Warning, b.quitText, max(w, 10))
	}
	lines := []string{fit(head, w), rule}
	foot := append([]string{rule}, keys...)
	if h < 16 {
		lines, foot = lines[:1], keys
	}
	body := d.requestLines(roots, max(w-2, 10))
	return requestFrame{head: lines, foot: foot, body: body, avail: max(h-len(lines)-len(foot), 1)}
}

// fitRequest sizes the front request dialog's form to the room left and keeps its scroll
// offset in range (after every Update; the view only reads them).
func (m *model) fitRequest(d requestDialog) {
	f := frameOf(d, m.sess.Roots().List, len(m.overlay.requests)-1)
	if ef, ok := d.(*elicitFormDialog); ok {
		ef.form.setSize(max(ef.w, 10), ef.formHeight(f.avail, len(f.body)))
		ef.form.pane.sync()
	}
	room := max(f.avail-len(d.inputLines(f.avail, len(f.body))), 0)
	b := d.base()
	b.off = clampScroll(b.off, len(f.body), max(room, 1))
}
