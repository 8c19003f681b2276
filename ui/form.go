package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
	"github.com/mcp-inspect/mcp-inspect/internal/schemaform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// formPane edits a tool's arguments: fields generated from the input schema by
// internal/schemaform, or the same value as raw JSON (ctrl+e toggles). It owns every key while
// open (only ctrl+c gets past it), so typing "q" into a field never quits.
//
// Problems are checked as the user types (schemaform.Validate on every edit) and shown
// at the fields they touched; after a first send attempt every problem is shown. A send
// with problems asks for confirmation (a second ctrl+s), then goes anyway and is marked
// as such in the call view.
type formPane struct {
	c    *common
	tool mcpclient.Tool
	// title heads the form ("call NAME — TITLE" for a tool); what names the send ("send").
	title, what string
	// histKey is the tool whose history (ctrl+r) the form offers; "" for none.
	histKey string
	// id tells this form's completion ticks and answers from another form's; compl is
	// its completion state, nil for a form that does not complete (argsform.go).
	id    int
	compl *completer
	// expand, when set, makes the URI the arguments give (a resource template): shown
	// under the send line, and a send that does not expand is refused.
	expand func(map[string]string) (string, error)
	form   *schemaform.Form
	// buildErr is set when the schema is not JSON; the form is then one raw field.
	buildErr error

	fields []*schemaform.Field
	cur    int // focused field; len(fields) is the send button
	opt    int // option cursor inside a multi-select

	input lineInput
	// valGen numbers deferred checks (editedLater); validations counts checks of the
	// whole value (tests assert a long value is not checked at each key).
	valGen, validations int
	// valStale: an edit waits for its deferred check; valTick: a tick is in flight.
	valStale, valTick bool
	// preview caches the arguments preview for width previewW; previewKeep keeps it
	// through a key typed into a long value (it is drawn again at the deferred check).
	preview     []string
	previewW    int
	previewKeep bool
	// inputOf is the field the input edits; loaded is the input's text when it was
	// loaded or last committed.
	inputOf *schemaform.Field
	loaded  string

	raw textarea.Model
	// rawMode shows the raw JSON editor instead of the fields.
	rawMode bool
	// rawProbs are the live problems of the editor's text (JSON syntax, then schema).
	rawProbs []schemaform.FieldError
	// rawText is the editor text the user last left raw mode with, and rawVal the value
	// it gave: while the form's value is unchanged, the editor gets the user's text back.
	rawText string
	rawVal  json.RawMessage
	// rawFrom is the form's value (as typed) the editor was opened with, and rawTyped the
	// fields whose text does not parse, shown in the editor as typed: leaving raw mode
	// keeps those fields' texts wherever the editor did not change their values.
	rawFrom  json.RawMessage
	rawTyped []typedText

	// keyIn asks for an entry's key (maps): keyObj is the object, keyOld the entry being
	// renamed ("" adds one), keyErr why the last key was refused.
	keyIn  textinput.Model
	keyObj *schemaform.Field
	keyOld string
	keyErr string

	// errs are form-level messages (invalid raw JSON, problems without a field, the
	// send-anyway question).
	errs []string
	// shapeWarn says which MCP rule the schema's root breaks (not "type": "object");
	// "" when none. The form still follows the schema and sends.
	shapeWarn string
	// flash answers the last key briefly ("no default here"); cleared by the next key.
	flash string
	// origin says where the values came from (history), shown in the header.
	origin string
	// armed is set after a send was refused for schema problems: the next send goes anyway.
	armed bool
	// tried is set by the first send attempt: from then on every problem is shown.
	tried bool
	// rootProbs are the live problems of the whole value that no field owns (anyOf of
	// required, if/then/else): shown muted, as errors after a send attempt.
	rootProbs []string
	// example is the next suggestion index per field (ctrl+t cycles).
	example map[*schemaform.Field]int
	// hist is the history entry the values were loaded from, -1 when none.
	hist int
	// typeahead is what was typed on the focused select so far: letters choose the
	// option whose label starts with them. Any other key or a focus move clears it.
	typeahead string
	// prefilled are the fields an elicitation form filled with their defaults: the first
	// key typed on one replaces the value (like a default the form filled in).
	prefilled map[*schemaform.Field]bool
	// texts are the tool's text for the model (internal/findings), marks how many steering
	// marks the lint put on them; descOpen shows them in full in the header.
	texts    []findings.ModelText
	marks    int
	descOpen bool
	// unsent is set by an edit and cleared by a send: quitting then asks for a second q,
	// if the value differs from baseline (the value at opening, or last sent).
	unsent   bool
	baseline string
	// quitArmed is set by a q that was refused for unsent values; any other key clears it.
	quitArmed bool

	w, h int
	off  int
}

// typedText is a field's text that does not parse, as it was when the raw editor opened.
type typedText struct {
	problem schemaform.FieldError // where (Path) and why
	text    string
}

// submit is what a form hands to the root when the user sends.
type submit struct {
	args json.RawMessage
	// problems are the validation problems the user chose to send anyway; nil when valid.
	problems []string
}

func newFormPane(c *common, tool mcpclient.Tool) *formPane {
	f, err := schemaform.New(tool.InputSchema)
	ti := newLineInput(c)
	ki := textinput.New()
	ki.Prompt = ""
	ki.SetStyles(inputStyles(c.st))
	ki.Placeholder = "key"
	ta := textarea.New()
	ta.ShowLineNumbers = true
	ta.SetStyles(areaStyles(c.st))
	title := "call " + clean(tool.Name)
	if tool.Title != "" {
		title += " — " + clean(tool.Title)
	}
	p := &formPane{c: c, tool: tool, title: title, what: "send", histKey: tool.Name, form: f, buildErr: err,
		input: ti, keyIn: ki, raw: ta, example: map[*schemaform.Field]int{}, hist: -1}
	if err == nil {
		p.shapeWarn = rootShapeWarning(tool)
	}
	p.texts = findings.ToolTexts(tool)
	for _, t := range p.texts {
		p.marks += len(t.Lint)
	}
	p.fields = p.form.Fields()
	p.validate()
	p.baseline = p.valueNow()
	return p
}

// prefill loads the last arguments sent to this tool (history), when there are any, and
// reports whether it did.
func (p *formPane) prefill() bool {
	es := p.history()
	if len(es) == 0 || p.form.SetValue(es[0].Args) != nil {
		return false
	}
	p.hist = 0
	p.origin = historyOrigin(es, 0)
	p.fields = p.form.Fields()
	p.validate()
	p.baseline = p.valueNow()
	return true
}

// history is the arguments sent earlier to the form's tool, newest first; none for a form
// of prompt arguments or template variables.
func (p *formPane) history() []historyEntry {
	if p.histKey == "" {
		return nil
	}
	return p.c.hist.entries(p.histKey)
}

func historyOrigin(es []historyEntry, i int) string {
	return fmt.Sprintf("arguments sent %s (history %d/%d, ctrl+r for earlier ones)", es[i].Time.Local().Format("2006-01-02 15:04"), i+1, len(es))
}

func (p *formPane) setSize(w, h int) {
	p.w, p.h = w, h
	p.input.SetWidth(max(w-p.labelWidth()-kindWidth-6, 8))
	p.keyIn.SetWidth(max(w/3, 10))
	p.raw.SetWidth(max(w, 10))
	p.raw.SetHeight(max(h-9, 3))
}

func (p *formPane) labelWidth() int {
	lw := 8
	for _, f := range p.fields {
		lw = max(lw, 2*f.Depth+2+labelCells(f))
	}
	return min(lw, max(p.w/3, 8))
}

// focused returns the focused field, nil on the send button.
func (p *formPane) focused() *schemaform.Field {
	if p.cur >= 0 && p.cur < len(p.fields) {
		return p.fields[p.cur]
	}
	return nil
}

// focus moves to field i (wrapping past either end) and loads its text into the input.
func (p *formPane) focus(i int) tea.Cmd {
	p.commitInput()
	n := len(p.fields) + 1
	p.cur = ((i % n) + n) % n
	p.opt = 0
	p.clearSuggestions()
	return tea.Batch(p.loadInput(), p.scheduleComplete())
}

// loadInput puts the focused text field's value into the input. It is called when focus
// moves and after actions that change a value from outside the input (default, example,
// null, history, raw JSON), never while the user types.
func (p *formPane) loadInput() tea.Cmd {
	p.input.Blur()
	p.inputOf = nil
	f := p.focused()
	if f == nil || !f.IsText() {
		return nil
	}
	p.inputOf = f
	p.input.SetWidth(max(p.w-p.labelWidth()-kindWidth-6-marksWidth(f), 8))
	// The input shows the sanitized text; the field changes only if the user edits it,
	// so a value with control characters is never silently altered.
	p.input.SetValue(clean(f.Text()))
	p.loaded = p.input.Value()
	p.input.Placeholder = inputPlaceholder(f)
	p.input.CursorEnd()
	return p.input.Focus()
}

// inputPlaceholder is what an empty input shows: null, an empty string, the default, the
// format's shape.
func inputPlaceholder(f *schemaform.Field) string {
	switch {
	case f.State() == schemaform.Null:
		return "null"
	case f.State() == schemaform.Set && f.Text() == "":
		return `"" (empty string)`
	case f.Default != nil:
		return clean(f.Placeholder()) + " (default, not sent)"
	}
	return clean(f.FormatHint)
}

// commitInput writes the input's text into the field it edits.
func (p *formPane) commitInput() {
	if f := p.inputOf; f != nil && f == p.focused() && p.input.Focused() {
		if v := p.input.Value(); v != p.loaded {
			_ = f.SetText(v) // a parse error is kept on the field and shown there
			p.loaded = v
		}
	}
}

// refreshTo re-reads the visible fields (they change when unions switch, items are added,
// objects open) and focuses target, or the same position when target is gone.
func (p *formPane) refreshTo(target *schemaform.Field) tea.Cmd {
	p.fields = p.form.Fields()
	i := -1
	if target != nil {
		i = slices.Index(p.fields, target)
	}
	if i < 0 {
		i = min(p.cur, len(p.fields))
	}
	p.cur = i
	p.opt = min(p.opt, max(optionCount(p.focused())-1, 0))
	return p.loadInput()
}

func optionCount(f *schemaform.Field) int {
	if f == nil {
		return 0
	}
	return len(f.Options)
}

// edited runs after every change of a value: problems are checked again, and a pending
// "send anyway" is withdrawn (the value it was about is gone).
func (p *formPane) edited() {
	p.unsent = true
	p.armed = false
	p.errs = nil
	p.validate()
}

// lazyValidateBytes is the text length from which a typed key no longer checks the
// whole value at once (see editedLater); validateDelay is the pause that checks it.
const (
	lazyValidateBytes = 1024
	validateDelay     = 150 * time.Millisecond
)

// formValidateMsg asks pane to check its value, unless a later edit asked again (gen).
type formValidateMsg struct {
	pane *formPane
	gen  int
}

// editedLater is edited with the check deferred to a pause of validateDelay. One tick
// at a time is in flight (a paste is 200,000 keys: not as many timers); a tick that
// finds newer edits waits again (validateTick).
func (p *formPane) editedLater() tea.Cmd {
	p.unsent = true
	p.armed = false
	p.errs = nil
	p.valGen++
	p.valStale = true
	if p.valTick {
		return nil
	}
	p.valTick = true
	return p.validateAfter(p.valGen)
}

func (p *formPane) validateAfter(gen int) tea.Cmd {
	return p.c.tick(validateDelay, func(time.Time) tea.Msg { return formValidateMsg{pane: p, gen: gen} })
}

// validateTick handles the deferred check's tick: it checks when no key came since the
// tick was set, else it waits validateDelay again.
func (p *formPane) validateTick(gen int) tea.Cmd {
	p.valTick = false
	switch {
	case !p.valStale:
		return nil
	case gen == p.valGen:
		p.validate()
		return nil
	}
	p.valTick = true
	return p.validateAfter(p.valGen)
}

// validate checks the value (each field keeps its problem) and keeps the problems of
// the whole value.
func (p *formPane) validate() {
	p.valStale = false // a pending deferred check is now done
	p.preview = nil
	p.validations++
	notes := p.schemaNotes()
	p.rootProbs = nil
	for _, e := range p.form.Validate() {
		if e.Field == nil && !notes[e.Message] {
			p.rootProbs = append(p.rootProbs, e.Error())
		}
	}
}

// shownError is the field's problem if it is shown now: parse errors and problems of
// fields the user touched at once, every problem after a send attempt.
func (p *formPane) shownError(f *schemaform.Field) string {
	if e := f.Error(); e != "" && (p.tried || f.Touched()) {
		return e
	}
	return ""
}

// schemaNotes are the form-level notes about the schema: they never block a send.
func (p *formPane) schemaNotes() map[string]bool {
	notes := map[string]bool{}
	for _, n := range p.form.Notes() {
		notes[n] = true
	}
	return notes
}

// send checks the value and returns it, or asks for confirmation first when it has
// problems (a second send goes anyway).
func (p *formPane) send() (*submit, bool) {
	p.errs = nil
	p.tried = true
	sendKey := p.c.keys.Form.Submit.Help().Key
	if p.rawMode {
		text := rawValueText(p.raw.Value())
		p.checkRaw()
		if !json.Valid([]byte(text)) {
			p.errs = []string{"not valid JSON: the arguments must be one JSON value; fix the text first"}
			p.armed = false
			return nil, false
		}
		var problems []string
		for _, e := range p.rawProbs {
			problems = append(problems, e.Error())
		}
		if len(problems) > 0 && !p.armed {
			p.errs = []string{fmt.Sprintf("%d problem(s) listed below: fix them, or %s again to send anyway", len(problems), sendKey)}
			p.armed = true
			return nil, false
		}
		var b bytes.Buffer
		_ = json.Compact(&b, []byte(text))
		p.armed = false
		return &submit{args: b.Bytes(), problems: problems}, true
	}
	p.commitInput()
	problems := p.shownProblems(p.form.Validate())
	// Send anyway sends what the user typed: text that does not parse goes as typed.
	val, unparsed := p.form.ValueAsTyped()
	if len(problems) > 0 && !p.armed {
		msg := fmt.Sprintf("%d problem(s), shown at the fields: fix them, or %s again to send anyway", len(problems), sendKey)
		if s := sentAnywayNote(unparsed); s != "" {
			msg += " (" + s + ")"
		}
		p.errs = append(p.errs, msg)
		p.armed = true
		for i, f := range p.fields {
			if f.Error() != "" {
				p.focus(i)
				break
			}
		}
		return nil, false
	}
	if val == nil {
		val = json.RawMessage("{}")
	}
	if p.expand != nil {
		if _, err := p.expand(stringArgs(val)); err != nil {
			p.errs = append(p.errs, "the template does not expand: "+clean(err.Error()))
			return nil, false
		}
	}
	p.armed = false // the question was about this send; the next one asks again
	return &submit{args: val, problems: problems}, true
}

// shownProblems words the value's problems as the form shows them after a send attempt:
// one per field (the first, the one drawn under it) and those of the whole value (kept
// in rootProbs, drawn in the header). Closed groups holding a problem are opened, so the
// count the user is told matches what they see.
func (p *formPane) shownProblems(probs []schemaform.FieldError) []string {
	notes := p.schemaNotes()
	cur := p.focused()
	seen := map[*schemaform.Field]bool{}
	var atFields []schemaform.FieldError
	p.rootProbs = nil
	for _, e := range probs {
		switch {
		case e.Field == nil:
			if !notes[e.Message] {
				p.rootProbs = append(p.rootProbs, e.Error())
			}
		case !seen[e.Field]:
			seen[e.Field] = true
			atFields = append(atFields, e)
			for a := e.Field.Parent(); a != nil; a = a.Parent() {
				if a.Collapsed() {
					a.SetCollapsed(false)
				}
			}
		}
	}
	p.fields = p.form.Fields()
	if i := slices.Index(p.fields, cur); cur != nil && i >= 0 {
		p.cur = i
	} else {
		p.cur = min(p.cur, len(p.fields))
	}
	var out []string
	for _, e := range atFields {
		if !slices.Contains(p.fields, e.Field) {
			p.rootProbs = append(p.rootProbs, e.Error()) // not drawn as a row: shown with the form's
			continue
		}
		out = append(out, e.Error())
	}
	return append(out, p.rootProbs...)
}

// sentAnywayNote says what send anyway does with values that are not plain: text that
// does not parse is sent as typed, empty items are left out; "" when there are none.
func sentAnywayNote(unparsed []schemaform.FieldError) string {
	typed, empty := false, false
	for _, e := range unparsed {
		if e.Field != nil && e.Field.IsText() && e.Field.State() == schemaform.Set {
			typed = true
		} else {
			empty = true
		}
	}
	var parts []string
	if typed {
		parts = append(parts, "text that does not parse is sent as typed")
	}
	if empty {
		parts = append(parts, "empty items are left out")
	}
	return strings.Join(parts, "; ")
}

// rawValueText is the editor's text as a value: empty means {}.
func rawValueText(s string) string {
	if t := strings.TrimSpace(s); t != "" {
		return t
	}
	return "{}"
}

// checkRaw validates the editor's text as it is (the text is never rewritten).
func (p *formPane) checkRaw() {
	notes := p.schemaNotes()
	p.rawProbs = nil
	for _, e := range p.form.ValidateJSON(json.RawMessage(rawValueText(p.raw.Value()))) {
		if len(e.Path) == 0 && notes[e.Message] {
			continue
		}
		p.rawProbs = append(p.rawProbs, e)
	}
}

// toggleRaw switches between the fields and the raw JSON editor, carrying the value.
// Nothing typed is lost on the way: text that does not parse for its field is shown in
// the editor as typed (as send anyway sends it, with a note), and when the editor leaves
// that value as it was, the field gets its text back.
func (p *formPane) toggleRaw() tea.Cmd {
	p.errs = nil
	p.armed = false
	if !p.rawMode {
		p.commitInput()
		p.input.Blur()
		val, unparsed := p.form.ValueAsTyped()
		p.rawFrom, p.rawTyped = val, nil
		for _, e := range unparsed {
			if e.Field != nil && e.Field.IsText() && e.Field.State() == schemaform.Set {
				p.rawTyped = append(p.rawTyped, typedText{problem: e, text: e.Field.Text()})
			}
		}
		text := "{}"
		switch {
		case p.rawText != "" && val != nil && sameJSON(val, p.rawVal):
			text = p.rawText // the user's own text, as they wrote it
		case val != nil:
			if pretty, ok := jsontext.Indent(val); ok {
				text = escapeJSONText(pretty)
			}
		}
		p.raw.SetValue(text)
		p.rawMode = true
		p.checkRaw()
		return p.raw.Focus()
	}
	edited := json.RawMessage(rawValueText(p.raw.Value()))
	if !json.Valid(edited) {
		// SetValue words the problem (what, line and column) and changes nothing.
		if err := p.form.SetValue(edited); err != nil {
			p.errs = []string{clean(err.Error()) + "; fix it to go back to the form (esc closes; the text is kept)"}
			return nil
		}
	}
	if p.rawFrom == nil || !sameJSON(edited, p.rawFrom) {
		if err := p.form.SetValue(edited); err != nil {
			p.errs = []string{clean(err.Error()) + "; fix it to go back to the form (esc closes; the text is kept)"}
			return nil
		}
		p.keepTyped(edited)
	} // else the value is the one the editor opened with: the fields stay as they were
	p.rawText = p.raw.Value()
	p.rawVal, _ = p.form.ValueAsTyped()
	p.rawFrom, p.rawTyped = nil, nil
	p.raw.Blur()
	p.rawMode = false
	p.edited()
	return p.refreshTo(p.focused())
}

// keepTyped gives the fields whose text did not parse their text back after the editor's
// value was loaded, where the editor left their value as it showed it (the text as a
// string, or the JSON value it was).
func (p *formPane) keepTyped(edited json.RawMessage) {
	for _, t := range p.rawTyped {
		path := t.problem.Path
		was, ok1 := jsonAt(p.rawFrom, path)
		now, ok2 := jsonAt(edited, path)
		if !ok1 || !ok2 || !sameJSON(was, now) {
			continue
		}
		if f := p.form.Field(path...); f != nil && f.IsText() {
			_ = f.SetText(t.text) // the parse error comes back with it
		}
	}
}

// jsonAt returns the member of a JSON value at path (object keys, array indexes).
func jsonAt(v json.RawMessage, path []string) (json.RawMessage, bool) {
	for _, k := range path {
		var obj map[string]json.RawMessage
		if json.Unmarshal(v, &obj) == nil {
			m, ok := obj[k]
			if !ok {
				return nil, false
			}
			v = m
			continue
		}
		var arr []json.RawMessage
		i, err := strconv.Atoi(k)
		if json.Unmarshal(v, &arr) != nil || err != nil || i < 0 || i >= len(arr) {
			return nil, false
		}
		v = arr[i]
	}
	return v, true
}

// recall loads the next earlier arguments from history (ctrl+r), in the form or the editor.
func (p *formPane) recall() tea.Cmd {
	es := p.history()
	if len(es) == 0 {
		p.flash = "no earlier arguments for this tool"
		return nil
	}
	next := (p.hist + 1) % len(es)
	p.hist = next
	p.origin = historyOrigin(es, next)
	p.errs = nil
	if p.rawMode {
		text := string(es[next].Args)
		if pretty, ok := jsontext.Indent(es[next].Args); ok {
			text = escapeJSONText(pretty)
		}
		p.raw.SetValue(text)
		p.armed = false
		p.checkRaw()
		return nil
	}
	p.commitInput()
	if err := p.form.SetValue(es[next].Args); err != nil {
		p.flash = clean(err.Error())
		return nil
	}
	p.edited()
	return p.refreshTo(p.focused())
}

// escapeJSONText rewrites control, bidi and invisible characters in JSON text as \uXXXX
// escapes: the same JSON value, but safe to show in the editor.
func escapeJSONText(s string) string {
	if !sanitize.Contains(s, sanitize.Text) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == '\n' || r == '\t' || (r >= 0x20 && r < 0x7f) || (r >= 0xa0 && !sanitize.Dangerous(r)) {
			b.WriteRune(r)
			continue
		}
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// rootShapeWarning says which MCP rule a tool's inputSchema (or an elicitation's
// requestedSchema) breaks when its root is not `"type": "object"`: schema.ts types
// Tool.inputSchema as {type: "object", …} in every revision (2024-11-05 to 2026-07-28),
// and tools/call sends arguments as an object. "" when the root is an object schema, or
// when there is no schema (reported with the tool list). A debugger still sends.
func rootShapeWarning(tool mcpclient.Tool) string {
	name, rule := "inputSchema", findings.InputRule
	if tool.Name == "elicitation/create" { // the elicitation dialog's form (elicit.go)
		name, rule = "requestedSchema", "schema.ts ElicitRequest: the content sent back is an object"
	}
	w := findings.SchemaShape(name, rule, tool.InputSchema)
	if w == "" {
		return ""
	}
	return clean(w) + ". The form follows the schema as given."
}
