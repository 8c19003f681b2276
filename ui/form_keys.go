package ui

// The keys of the argument form: the router over its rows and the editing of each kind of
// field (select, multi-select, list and map members, entry keys).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/schemaform"
)

// keysFree reports whether the focused row leaves q and ? to the app: a select, a list
// or map row, or the send button (not a text input, the raw editor, the key prompt, or a
// label being typed ahead on a select).
func (p *formPane) keysFree() bool {
	if p.rawMode || p.keyObj != nil || p.typeahead != "" {
		return false
	}
	f := p.focused()
	return f == nil || !f.IsText()
}

// valueNow is the form's value as it would be sent, compact: what quitKey compares with
// the baseline (edits that came back to the same value leave nothing unsent).
func (p *formPane) valueNow() string {
	if p.rawMode {
		text := rawValueText(p.raw.Value())
		var b bytes.Buffer
		if json.Compact(&b, []byte(text)) == nil {
			return b.String()
		}
		return text
	}
	v, _ := p.form.ValueAsTyped()
	return string(v)
}

// quitKey answers q where keysFree: true quits; with values edited since the last send
// the first q only warns (esc closes the form and keeps them), a second q quits.
func (p *formPane) quitKey() bool {
	if !p.unsent || p.quitArmed || p.valueNow() == p.baseline {
		return true
	}
	p.quitArmed = true
	p.flash = "unsent values: q again quits and loses them · esc closes the form and keeps them"
	return false
}

// handleKey handles every key while the form is open. It returns a submit when the user
// sends, and closed when they leave.
func (p *formPane) handleKey(msg tea.KeyPressMsg) (sub *submit, closed bool, cmd tea.Cmd) {
	defer func() {
		if !p.previewKeep {
			p.preview = nil // any key may have changed the value
		}
		p.previewKeep = false
	}()
	k := p.c.keys
	p.flash = ""
	p.quitArmed = false
	ahead := p.typeahead
	p.typeahead = ""
	if p.keyObj != nil {
		return nil, false, p.keyPromptKey(msg)
	}
	switch {
	case key.Matches(msg, k.Form.Submit):
		sub, ok := p.send()
		if ok {
			p.unsent, p.baseline = false, p.valueNow()
			return sub, false, nil
		}
		return nil, false, nil
	case key.Matches(msg, k.Form.RawJSON):
		return nil, false, p.toggleRaw()
	case key.Matches(msg, k.Form.Cancel):
		p.commitInput()
		return nil, true, nil
	case key.Matches(msg, k.Form.History):
		return nil, false, p.recall()
	case key.Matches(msg, k.Form.Describe):
		p.descOpen = !p.descOpen
		return nil, false, nil
	}
	if p.rawMode {
		before := p.raw.Value()
		var c tea.Cmd
		p.raw, c = p.raw.Update(msg)
		if p.raw.Value() != before {
			p.unsent = true
			p.armed = false
			p.errs = nil
			p.checkRaw()
		}
		return nil, false, c
	}
	if cmd, ok := p.completionKey(msg); ok {
		return nil, false, cmd
	}
	f := p.focused()
	switch {
	case f == nil && key.Matches(msg, k.Dialog.Confirm):
		if sub, ok := p.send(); ok {
			p.unsent, p.baseline = false, p.valueNow()
			return sub, false, nil
		}
		return nil, false, nil
	case key.Matches(msg, k.Form.NextField):
		return nil, false, p.focus(p.cur + 1)
	case key.Matches(msg, k.Form.PrevField):
		return nil, false, p.focus(p.cur - 1)
	}
	if f == nil {
		if key.Matches(msg, k.Form.AddItem) && p.form.Root().AllowsEntries() {
			return nil, false, p.startKeyPrompt(p.form.Root(), "")
		}
		return nil, false, nil
	}
	if handled, c := p.fieldAction(msg, f); handled {
		return nil, false, c
	}
	return nil, false, p.editKey(msg, f, ahead)
}

// fieldAction handles the keys that work on any field: default, example, null, omit,
// empty string, list items and map entries.
func (p *formPane) fieldAction(msg tea.KeyPressMsg, f *schemaform.Field) (bool, tea.Cmd) {
	k := p.c.keys
	p.commitInput()
	target := f
	switch {
	case key.Matches(msg, k.Form.AcceptDefault):
		if f.Default == nil {
			p.flash = "this field has no default"
			return true, nil
		}
		_ = f.AcceptDefault()
	case key.Matches(msg, k.Form.Example):
		sugg := f.Suggestions()
		if len(sugg) == 0 {
			p.flash = "this field has no examples"
			return true, nil
		}
		i := p.example[f] % len(sugg)
		p.example[f] = i + 1
		_ = f.Set(sugg[i])
		p.flash = fmt.Sprintf("example %d/%d", i+1, len(sugg))
	case key.Matches(msg, k.Form.SetNull):
		switch {
		case !f.Nullable:
			p.flash = "the schema does not allow null here (raw JSON, ctrl+e, can send it anyway)"
			return true, nil
		case f.State() == schemaform.Null:
			f.Clear()
		default:
			_ = f.SetNull()
		}
	case key.Matches(msg, k.Form.Omit):
		f.Clear()
		p.flash = "omitted: the key is not sent"
	case key.Matches(msg, k.Form.EmptyString):
		if f.Kind != schemaform.KindString {
			p.flash = "only string fields take an empty string"
			return true, nil
		}
		_ = f.Set(json.RawMessage(`""`))
	case key.Matches(msg, k.Form.AddItem), key.Matches(msg, k.Form.AddItemRow) && addsHere(f):
		t, cmd, ok := p.addMember(f)
		if !ok {
			return true, cmd
		}
		target = t
	case key.Matches(msg, k.Form.RemoveItem):
		if m, _ := memberOf(f); m == nil && f.Kind != schemaform.KindArray && f.IsText() {
			return false, nil // outside lists and maps the input keeps ctrl+d (delete forward)
		}
		t, ok := p.removeMember(f)
		if !ok {
			return true, nil
		}
		target = t
	case key.Matches(msg, k.Form.MoveUp), key.Matches(msg, k.Form.MoveDown):
		d := 1
		if key.Matches(msg, k.Form.MoveUp) {
			d = -1
		}
		if !p.moveMember(f, d) {
			return true, nil
		}
	case key.Matches(msg, k.Form.RenameKey):
		m, c := memberOf(f)
		if m == nil || !m.IsEntry() {
			p.flash = "only map entries have keys to rename"
			return true, nil
		}
		return true, p.startKeyPrompt(c, m.Key)
	default:
		return false, nil
	}
	p.edited()
	return true, p.refreshTo(target)
}

// addsHere reports whether f is a list's or map's own row: there, keys that are text
// elsewhere ("+", letters) add an item or entry.
func addsHere(f *schemaform.Field) bool {
	return f.Kind == schemaform.KindArray || (f.Kind == schemaform.KindObject && f.IsMap())
}

// memberOf returns the nearest list item or map entry at or above f, and its list or map.
func memberOf(f *schemaform.Field) (member, container *schemaform.Field) {
	for m := f; m != nil && m.Parent() != nil; m = m.Parent() {
		par := m.Parent()
		if par.Kind == schemaform.KindArray || m.IsEntry() {
			return m, par
		}
	}
	return nil, nil
}

// addMember adds an item to the list at or around f (after the focused item), or asks
// for the key of a new map entry. It returns the field to focus.
func (p *formPane) addMember(f *schemaform.Field) (*schemaform.Field, tea.Cmd, bool) {
	switch {
	case f.Kind == schemaform.KindArray:
		it, err := f.AddItem()
		if err != nil {
			p.flash = clean(err.Error())
			return nil, nil, false
		}
		f.SetCollapsed(false)
		return firstInside(it), nil, true
	case f.AllowsEntries():
		return nil, p.startKeyPrompt(f, ""), false
	}
	m, c := memberOf(f)
	if m == nil {
		if root := p.form.Root(); root.AllowsEntries() {
			return nil, p.startKeyPrompt(root, ""), false
		}
		p.flash = "ctrl+n adds items to lists and entries to maps; this field is neither"
		return nil, nil, false
	}
	if m.IsEntry() {
		return nil, p.startKeyPrompt(c, ""), false
	}
	it, err := c.AddItem()
	if err != nil {
		p.flash = clean(err.Error())
		return nil, nil, false
	}
	if i := slices.Index(c.Children(), m); i >= 0 {
		_ = c.MoveItem(len(c.Children())-1, i+1)
	}
	return firstInside(it), nil, true
}

// firstInside is where typing starts in a new item: an object item's first field.
func firstInside(it *schemaform.Field) *schemaform.Field {
	if it.Kind == schemaform.KindObject && !it.Collapsed() {
		if kids := it.Children(); len(kids) > 0 {
			return kids[0]
		}
	}
	return it
}

// removeMember removes the list item or map entry at or above f (the last item on a
// list's own row) and returns the field to focus.
func (p *formPane) removeMember(f *schemaform.Field) (*schemaform.Field, bool) {
	if f.Kind == schemaform.KindArray {
		n := len(f.Children())
		if n == 0 {
			p.flash = "the list is empty"
			return nil, false
		}
		_ = f.RemoveItem(n - 1)
		return f, true
	}
	m, c := memberOf(f)
	if m == nil {
		p.flash = "ctrl+d removes list items and map entries; this field is neither"
		return nil, false
	}
	kids := c.Children()
	i := slices.Index(kids, m)
	if m.IsEntry() {
		_ = c.RemoveEntry(m.Key)
	} else {
		_ = c.RemoveItem(i)
	}
	kids = c.Children()
	if i >= 0 && i < len(kids) {
		return kids[i], true
	}
	if i > 0 && i-1 < len(kids) {
		return kids[i-1], true
	}
	return c, true
}

// moveMember moves the list item at or above f by d places.
func (p *formPane) moveMember(f *schemaform.Field, d int) bool {
	m, c := memberOf(f)
	if m == nil || c.Kind != schemaform.KindArray {
		p.flash = "only list items move"
		return false
	}
	i := slices.Index(c.Children(), m)
	j := i + d
	if i < 0 || j < 0 || j >= len(c.Children()) {
		return false
	}
	_ = c.MoveItem(i, j)
	return true
}

// startKeyPrompt asks for the key of a new entry of obj, or a new key for entry old.
func (p *formPane) startKeyPrompt(obj *schemaform.Field, old string) tea.Cmd {
	p.commitInput()
	p.input.Blur()
	p.keyObj, p.keyOld, p.keyErr = obj, old, ""
	p.keyIn.SetValue(old)
	p.keyIn.CursorEnd()
	return p.keyIn.Focus()
}

// keyPromptKey edits the entry key: enter adds or renames, esc cancels.
func (p *formPane) keyPromptKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.c.keys
	switch {
	case key.Matches(msg, k.Dialog.Dismiss):
		p.keyObj = nil
		p.keyIn.Blur()
		return p.loadInput()
	case key.Matches(msg, k.Dialog.Confirm):
		obj, name := p.keyObj, p.keyIn.Value()
		var target *schemaform.Field
		var err error
		if p.keyOld == "" {
			target, err = obj.AddEntry(name)
		} else if err = obj.RenameEntry(p.keyOld, name); err == nil {
			target = obj.Entries()[slices.IndexFunc(obj.Entries(), func(e *schemaform.Field) bool { return e.Key == name })]
		}
		if err != nil {
			p.keyErr = err.Error()
			return nil
		}
		p.keyObj = nil
		p.keyIn.Blur()
		obj.SetCollapsed(false)
		p.edited()
		return p.refreshTo(firstInside(target))
	}
	var c tea.Cmd
	p.keyIn, c = p.keyIn.Update(msg)
	p.keyErr = ""
	return c
}

// editKey handles the keys that edit the focused field by kind.
func (p *formPane) editKey(msg tea.KeyPressMsg, f *schemaform.Field, ahead string) tea.Cmd {
	k := p.c.keys.Form
	space := msg.Code == tea.KeySpace && msg.Mod == 0
	toggle := key.Matches(msg, k.Toggle)
	switch f.Kind {
	case schemaform.KindBoolean, schemaform.KindEnum, schemaform.KindUnion:
		typed := msg.Text
		if space && ahead == "" {
			typed = "" // space chooses the next option; inside a label being typed it is a space
		}
		switch {
		case len([]rune(typed)) == 1 && unicode.IsPrint([]rune(typed)[0]):
			// Letters choose the option whose label starts with what was typed.
			if i := optionWithPrefix(f, ahead+typed, -1); i >= 0 {
				p.typeahead = ahead + typed
				_ = f.Select(i)
			} else if i := optionWithPrefix(f, typed, f.Selected()); i >= 0 {
				p.typeahead = typed
				_ = f.Select(i)
			}
		case toggle && key.Matches(msg, k.OptionPrev):
			_ = f.Cycle(-1)
		case toggle:
			_ = f.Cycle(1)
		case key.Matches(msg, k.Clear):
			f.Clear()
		default:
			return nil
		}
		p.edited()
		return p.refreshTo(f)
	case schemaform.KindMultiSelect:
		switch {
		case key.Matches(msg, k.OptionPrev):
			p.opt = max(p.opt-1, 0)
		case key.Matches(msg, k.OptionNext):
			p.opt = min(p.opt+1, max(len(f.Options)-1, 0))
		case key.Matches(msg, k.Check):
			_ = f.Toggle(p.opt)
			p.edited()
		}
		return nil
	case schemaform.KindArray, schemaform.KindObject:
		if r := []rune(msg.Text); len(r) == 1 && unicode.IsPrint(r[0]) && !space && addsHere(f) {
			// Typing on a list's row starts a new item with what was typed (on a map's
			// row, a new entry's key): nothing typed is dropped.
			t, cmd, ok := p.addMember(f)
			if !ok {
				if p.keyObj != nil {
					p.keyIn.SetValue(msg.Text)
					p.keyIn.CursorEnd()
				}
				return cmd
			}
			p.edited()
			cmd = p.refreshTo(t)
			if nf := p.focused(); nf != nil && nf != f {
				return tea.Batch(cmd, p.editKey(msg, nf, ""))
			}
			return cmd
		}
		switch {
		case space:
			f.SetCollapsed(!f.Collapsed())
		case key.Matches(msg, k.OptionNext):
			f.SetCollapsed(false)
		case key.Matches(msg, k.OptionPrev):
			f.SetCollapsed(true)
		default:
			return nil
		}
		return p.refreshTo(f)
	}
	if f.IsText() && p.inputOf == f {
		var c tea.Cmd
		if (f.FromDefault() || p.prefilled[f]) && len(msg.Text) > 0 && p.input.Value() == p.loaded {
			// Typing over a value the form filled in (a default) replaces it.
			p.input.SetValue("")
		}
		delete(p.prefilled, f) // any key on it (a cursor move too) makes it the user's
		before := p.input.Value()
		p.input, c = p.input.Update(msg)
		if v := p.input.Value(); v != before {
			p.commitInput()
			if len(v) > lazyValidateBytes {
				// Checking a long value costs its length: during a paste typed key
				// by key, check once the keys pause, not at each key.
				p.previewKeep = true
				p.clearSuggestions()
				return tea.Batch(c, p.editedLater(), p.scheduleComplete())
			}
			p.edited()
			p.clearSuggestions()
			c = tea.Batch(c, p.scheduleComplete())
		}
		return c
	}
	return nil
}

// completionKey handles the keys of completion on an argument the form completes: ctrl+n
// and ctrl+p choose a suggestion, enter takes the chosen one.
func (p *formPane) completionKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if p.compl == nil {
		return nil, false
	}
	k := p.c.keys
	switch {
	case key.Matches(msg, k.Form.SuggestNext):
		p.suggestionKey(1)
		return nil, true // string arguments have no lists to add to
	case key.Matches(msg, k.Form.SuggestPrev):
		p.suggestionKey(-1)
		return nil, true
	case key.Matches(msg, k.Dialog.Confirm):
		return p.takeSuggestion()
	}
	return nil, false
}

// optionWithPrefix finds the first option after index start (-1: from the top) whose
// label starts with prefix, ignoring case.
func optionWithPrefix(f *schemaform.Field, prefix string, start int) int {
	n := len(f.Options)
	for d := 1; d <= n; d++ {
		i := ((start+d)%n + n) % n
		if strings.HasPrefix(strings.ToLower(f.Options[i].Label), strings.ToLower(prefix)) {
			return i
		}
	}
	return -1
}
