package ui

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/schemaform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// elicitForm is the thin adapter that lets an elicitation/create form-mode request use the
// tool-arguments form (formPane, built by internal/schemaform from requestedSchema): same fields,
// validation and raw-JSON editor. The dialog draws its own header in place of the form's
// title line and maps the form's send and close to accept and cancel.
type elicitForm struct {
	pane *formPane
}

// newElicitForm builds the form from the request's requestedSchema.
func newElicitForm(c *common, schema json.RawMessage) *elicitForm {
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	p := newFormPane(c, mcpclient.Tool{Name: "elicitation/create", InputSchema: schema})
	// MCP 2025-11-25 client/elicitation (SEP-1034): clients SHOULD pre-populate the form's
	// fields with the schema's defaults, so they are sent unless the user changes them
	// (tool forms leave defaults to the server instead). Typing on such a field replaces it.
	p.prefilled = map[*schemaform.Field]bool{}
	for _, f := range p.fields {
		if f.Default != nil && f.State() == schemaform.Unset && f.AcceptDefault() == nil {
			p.prefilled[f] = true
		}
	}
	p.fields = p.form.Fields()
	p.validate()
	return &elicitForm{pane: p}
}

func (f *elicitForm) setSize(w, h int) { f.pane.setSize(w, h+1) }

// focus puts the cursor on the first field.
func (f *elicitForm) focus() tea.Cmd { return f.pane.focus(0) }

// handleKey forwards a key to the form: accept is the content to send when the user
// submitted, cancel is set when they closed the form (esc).
func (f *elicitForm) handleKey(msg tea.KeyPressMsg) (accept json.RawMessage, cancel bool, cmd tea.Cmd) {
	sub, closed, cmd := f.pane.handleKey(msg)
	if sub != nil {
		return sub.args, false, cmd
	}
	return nil, closed, cmd
}

// view is the form without its title line (the dialog has its own header).
func (f *elicitForm) view() string {
	v := f.pane.view()
	if _, rest, ok := strings.Cut(v, "\n"); ok {
		return rest
	}
	return v
}

// update passes other messages (cursor blinks) to the form's inputs.
func (f *elicitForm) update(msg tea.Msg) tea.Cmd {
	var c1, c2 tea.Cmd
	f.pane.input, c1 = f.pane.input.Update(msg)
	f.pane.raw, c2 = f.pane.raw.Update(msg)
	return tea.Batch(c1, c2)
}
