package ui

import (
	"encoding/json"
	"errors"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// shownCopy is what a pane's copy key copies (issue 27): what names it for the status
// line ("the tool add"), text is the server's text as received (JSON indented). err says
// why there is nothing to copy.
type shownCopy struct {
	what string
	text string
	err  error
}

// copyShownKey handles the copy keys of a pane that shows server text (Tools, Resources,
// Prompts, Logs, Server): y copies what src gives with the session's secrets masked, as
// the Wire pane's y does; alt+y copies it as received. false for any other key.
func (c *common) copyShownKey(msg tea.KeyPressMsg, src func() shownCopy) (bool, tea.Cmd) {
	k := c.keys.Detail
	exact := key.Matches(msg, k.CopyExact)
	if !exact && !key.Matches(msg, k.Copy) {
		return false, nil
	}
	s := src()
	if s.err != nil {
		return true, func() tea.Msg { return copiedMsg{err: s.err} }
	}
	return true, c.copyShown(s.what, s.text, exact)
}

// copyShown copies text (server text), named what: masked through the session's redactor
// unless exact. The masking and the file fallback run in the returned Cmd.
func (c *common) copyShown(what, text string, exact bool) tea.Cmd {
	redact, dir, sysClip := c.redact, c.hist.dir, c.sysClip
	return func() tea.Msg {
		note := ""
		switch {
		case redact != nil && exact:
			note = ", exact, secrets included"
		case redact != nil:
			text = string(redact([]byte(text)))
			note = ", secrets masked"
		}
		return keepCopy(fmt.Sprintf("%s (%s%s", what, humanSize(int64(len(text))), note), text, dir, sysClip)
	}
}

// indentedJSON is v as indented JSON text (a raw message indented as written).
func indentedJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	out, ok := jsontext.Indent(b)
	if !ok {
		return "", errors.New("not valid JSON")
	}
	return out, nil
}

// resultJSON is a response's result indented as the server wrote it, or res marshaled
// when the response is not kept.
func resultJSON(resp *mcpclient.Response, res any) (string, error) {
	if resp != nil && resp.Msg != nil && len(resp.Msg.Result) > 0 {
		if out, ok := jsontext.Indent(resp.Msg.Result); ok {
			return out, nil
		}
	}
	return indentedJSON(res)
}

// rawResult is a response's result as the server wrote it, or res marshaled when the
// response is not kept (nil when res does not marshal).
func rawResult(resp *mcpclient.Response, res any) []byte {
	if resp != nil && resp.Msg != nil && len(resp.Msg.Result) > 0 {
		return resp.Msg.Result
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil
	}
	return b
}

// copySource is the selected tool's definition as listed (its schemas included).
func (p *toolsPane) copySource() shownCopy {
	t := p.selected()
	if t == nil {
		return shownCopy{err: errors.New("no tool selected")}
	}
	text, err := indentedJSON(t)
	return shownCopy{what: "the definition of the tool " + clean(t.Name) + ", schemas included", text: text, err: err}
}

// copySource is the selected resource's read result: one text content as its text,
// anything else as the result's JSON.
func (p *resourcesPane) copySource() shownCopy {
	it := p.list.selected()
	if it == nil {
		return shownCopy{err: errors.New("no resource selected")}
	}
	r := p.reads[it.key]
	if r == nil || r.res == nil {
		return shownCopy{err: fmt.Errorf("%s has not been read (%s reads it)", clean(it.label), p.c.keys.List.Open.Help().Key)}
	}
	if cs := r.res.Contents; len(cs) == 1 && cs[0].Blob == "" && cs[0].Text != "" {
		return shownCopy{what: "the text of " + clean(cs[0].URI), text: cs[0].Text}
	}
	text, err := resultJSON(r.resp, r.res)
	return shownCopy{what: "the contents of " + clean(r.uri), text: text, err: err}
}

// copySource is the selected prompt's get result (its messages).
func (p *promptsPane) copySource() shownCopy {
	pr := p.selected()
	if pr == nil {
		return shownCopy{err: errors.New("no prompt selected")}
	}
	g := p.gets[pr.Name]
	if g == nil || g.res == nil {
		return shownCopy{err: fmt.Errorf("the prompt %s has not been got (%s gets it)", clean(pr.Name), p.c.keys.List.OpenPrompt.Help().Key)}
	}
	text, err := resultJSON(g.resp, g.res)
	return shownCopy{what: "the messages of the prompt " + clean(pr.Name), text: text, err: err}
}

// copySource is the selected log entry: its data (JSON indented) or its text.
func (p *logsPane) copySource() shownCopy {
	if p.sel >= len(p.shown) || len(p.shown) == 0 {
		return shownCopy{err: errors.New("no log entry selected")}
	}
	e := &p.entries[p.shown[p.sel]]
	text := e.text
	if e.isJSON {
		if out, ok := jsontext.Indent([]byte(e.text)); ok {
			text = out
		}
	}
	what := "the log entry"
	if e.seq != 0 {
		what = fmt.Sprintf("the log entry of #%d", e.seq)
	}
	return shownCopy{what: what, text: text}
}

// copySource is the server's initialize result (server info, capabilities, instructions).
func (p *serverPane) copySource() shownCopy {
	init := p.c.session.State().Init
	if init == nil {
		return shownCopy{err: errors.New("no initialize result yet")}
	}
	text, err := indentedJSON(init)
	return shownCopy{what: "the initialize result", text: text, err: err}
}
