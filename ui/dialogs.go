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

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// dialogKind is the kind of server request a dialog answers.
type dialogKind uint8

const (
	dlgSampling dialogKind = iota
	dlgElicitForm
	dlgElicitURL
	dlgRoots
)

// samplingReplyModel is the model name a user-typed sampling reply carries.
const samplingReplyModel = "mcp-inspect-user"

// dialog is one server request waiting for the user: sampling/createMessage,
// elicitation/create (form or URL mode) or roots/list, in either era. It owns the keys while
// it is the front of the queue.
type dialog struct {
	c    *common
	req  *inbound
	kind dialogKind
	// during says which of our requests the server asked this in ("" if unknown).
	during string

	// Sampling: the reply the user types.
	reply textarea.Model
	// Elicitation, form mode.
	form *elicitForm
	// Elicitation, URL mode, and the message of both modes.
	message, rawURL, host, elicitID, urlProblem string

	// shownAt is when the dialog was first drawn (keys before that, and just after, are
	// ignored: see Model.dialogGuard).
	shownAt time.Time

	// off scrolls the request.
	off  int
	w, h int
}

// newDialog builds the dialog for a request the features cover.
func newDialog(c *common, req *inbound, during string) *dialog {
	d := &dialog{c: c, req: req, during: during}
	switch req.method {
	case "sampling/createMessage":
		d.kind = dlgSampling
		ta := textarea.New()
		ta.ShowLineNumbers = false
		ta.Placeholder = "type the assistant's reply"
		ta.SetStyles(areaStyles(c.st))
		ta.SetHeight(4)
		d.reply = ta
	case "elicitation/create":
		var p struct {
			Message         string          `json:"message"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
			URL             string          `json:"url"`
			ElicitationID   string          `json:"elicitationId"`
		}
		_ = json.Unmarshal(req.params, &p)
		d.message = p.Message
		if elicitMode(req.params) == "url" {
			d.kind = dlgElicitURL
			d.rawURL, d.elicitID = p.URL, p.ElicitationID
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
		} else {
			d.kind = dlgElicitForm
			d.form = newElicitForm(c, p.RequestedSchema)
		}
	case "roots/list":
		d.kind = dlgRoots
	}
	return d
}

// focus gives the dialog's input the cursor.
func (d *dialog) focus() tea.Cmd {
	switch d.kind {
	case dlgSampling:
		return d.reply.Focus()
	case dlgElicitForm:
		return d.form.focus()
	}
	return nil
}

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

// handleKey handles a key; out is set when the dialog is answered.
func (d *dialog) handleKey(msg tea.KeyPressMsg, roots []mcpclient.Root) (out *dialogOutcome, cmd tea.Cmd) {
	k := d.c.keys
	switch {
	case key.Matches(msg, k.ScrollUp):
		d.off = max(d.off-max(d.h/2, 1), 0)
		return nil, nil
	case key.Matches(msg, k.ScrollDown):
		d.off += max(d.h/2, 1)
		return nil, nil
	}
	switch d.kind {
	case dlgSampling:
		switch {
		case key.Matches(msg, k.Accept):
			text := d.reply.Value()
			return &dialogOutcome{result: samplingResult(text), what: fmt.Sprintf("sent your reply (%d characters)", len([]rune(text)))}, nil
		case key.Matches(msg, k.Decline), key.Matches(msg, k.Dismiss):
			return &dialogOutcome{err: &mcpclient.RPCError{Code: -1, Message: "User rejected sampling request"}, what: "rejected it"}, nil
		}
		var c tea.Cmd
		d.reply, c = d.reply.Update(msg)
		return nil, c
	case dlgElicitForm:
		if key.Matches(msg, k.Decline) {
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
	case dlgElicitURL:
		switch {
		case key.Matches(msg, k.Accept, k.Confirm):
			return &dialogOutcome{result: elicitResult("accept", nil), what: "accepted (you consent to open the URL yourself)"}, nil
		case key.Matches(msg, k.Decline):
			return &dialogOutcome{result: elicitResult("decline", nil), what: "declined"}, nil
		case key.Matches(msg, k.Dismiss):
			return &dialogOutcome{result: elicitResult("cancel", nil), what: "cancelled"}, nil
		}
	case dlgRoots:
		switch {
		case key.Matches(msg, k.Accept, k.Confirm):
			return &dialogOutcome{result: mcpclient.RootsResult(roots), what: fmt.Sprintf("sent %d root(s)", len(roots))}, nil
		case key.Matches(msg, k.EditRoots), key.Matches(msg, k.Roots):
			return &dialogOutcome{editRoots: true}, nil
		case key.Matches(msg, k.Decline), key.Matches(msg, k.Dismiss):
			return &dialogOutcome{err: &mcpclient.RPCError{Code: -1, Message: "User refused to share roots"}, what: "refused"}, nil
		}
	}
	return nil, nil
}

func (d *dialog) setSize(w, h int) {
	d.w, d.h = w, h
	if d.kind == dlgSampling {
		d.reply.SetWidth(max(w-4, 10))
	}
}

// title names the request and where it came from.
func (d *dialog) title() string {
	s := d.req.method
	switch d.kind {
	case dlgElicitForm:
		s += " (form)"
	case dlgElicitURL:
		s += " (url)"
	}
	if d.req.modern() {
		s += " · modern input request " + d.req.key
	} else if d.req.id != nil {
		s += " · request id " + string(d.req.id)
	}
	return s
}

// requestLines draws what the server asks, for reading before answering.
func (d *dialog) requestLines(roots []mcpclient.Root, w int) []string {
	st := d.c.st
	var out []string
	add := func(l ...string) { out = append(out, l...) }
	if d.during != "" {
		add(wrapStyled(st.Muted, "asked while "+clean(d.during)+" is pending", w)...)
	}
	switch d.kind {
	case dlgSampling:
		add(samplingLines(st, d.req.params, w)...)
	case dlgElicitForm:
		add(st.Title.Render("the server asks"))
		add(wrap(block(d.message), w)...)
	case dlgElicitURL:
		add(st.Title.Render("the server asks you to open a URL"))
		add(wrap(block(d.message), w)...)
		add("", "url:  "+clean(d.rawURL))
		add(st.Warning.Render("host: " + clean(d.host)))
		if d.elicitID != "" {
			add("elicitationId: " + clean(d.elicitID))
		}
		if d.urlProblem != "" {
			add(wrapStyled(st.Warning, "⚠ "+clean(d.urlProblem), w)...)
		}
		add(st.Muted.Render("mcp-inspect never opens it; accepting only tells the server you consent."))
	case dlgRoots:
		add(st.Title.Render("the server asks for the client's roots"))
		if len(roots) == 0 {
			add(st.Muted.Render("  (no roots configured: --root PATH, or e to add some)"))
		}
		for _, r := range roots {
			line := "  " + clean(r.URI)
			if r.Name != "" {
				line += "  " + st.Muted.Render(clean(r.Name))
			}
			add(line)
		}
	}
	return out
}

// samplingLines renders a CreateMessageRequest: messages by role with every content block,
// system prompt, model preferences, limits.
func samplingLines(st *stylesT, params json.RawMessage, w int) []string {
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
		pretty, _ := prettyJSON(sec.raw)
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
func (d *dialog) keyLine() string {
	switch d.kind {
	case dlgSampling:
		return "ctrl+s send the reply · ctrl+d or esc reject · pgup/pgdn scroll the request"
	case dlgElicitForm:
		return "ctrl+s accept (send the form) · ctrl+d decline · esc cancel · pgup/pgdn scroll"
	case dlgElicitURL:
		return "enter/ctrl+s accept · ctrl+d decline · esc cancel"
	case dlgRoots:
		return "enter send these roots · e edit the roots · ctrl+d/esc refuse"
	}
	return ""
}

// view draws the dialog into w×h: title, the request (scrollable), the input, the keys.
// The key line (wrapped) always shows; on a short screen the rules go first, then the
// form shrinks so the question keeps at least two lines.
func (d *dialog) view(roots []mcpclient.Root, waiting int) string {
	st := d.c.st
	w, h := d.w, d.h
	head := st.Title.Render("server request: ") + st.Accent.Render(clean(d.title()))
	if waiting > 0 {
		head += st.Warning.Render(fmt.Sprintf("   +%d more waiting", waiting))
	}
	rule := st.Border.Render(strings.Repeat("─", max(w, 0)))
	keys := wrapStyled(st.Muted, d.keyLine(), max(w, 10))
	lines := []string{fit(head, w), rule}
	foot := append([]string{rule}, keys...)
	if h < 16 {
		lines, foot = lines[:1], keys
	}
	body := d.requestLines(roots, max(w-2, 10))
	avail := max(h-len(lines)-len(foot), 1)
	var input []string
	switch d.kind {
	case dlgSampling:
		input = append(input, st.Title.Render("your reply (as the assistant)"))
		input = append(input, strings.Split(d.reply.View(), "\n")...)
		if len(input) > avail-min(len(body), 2) {
			input = input[:max(avail-min(len(body), 2), 1)]
		}
	case dlgElicitForm:
		// The request gets what it needs up to a third (at least two lines: the question);
		// the form the rest.
		top := min(len(body), max(h/3, 2))
		fh := max(avail-top, min(5, avail-min(len(body), 2)), 1)
		d.form.setSize(max(w, 10), fh)
		input = strings.Split(d.form.view(), "\n")
		if len(input) > fh {
			input = input[:fh]
		}
	}
	room := max(avail-len(input), 0)
	d.off = clampScroll(d.off, len(body), max(room, 1))
	lines = append(lines, window(body, d.off, room, w)...)
	if room >= 2 && d.off+room < len(body) {
		lines[len(lines)-1] = fit(st.Muted.Render(fmt.Sprintf("… %d more lines (pgdn)", len(body)-d.off-room)), w)
	}
	lines = append(lines, input...)
	lines = append(lines, foot...)
	if len(lines) > h { // keys last: cut from above them
		lines = append(lines[:max(h-len(foot), 0)], foot...)
	}
	return strings.Join(window(lines, 0, h, w), "\n")
}
