package schemaform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Set loads a JSON value into the field as if the user had entered it:
// text kinds get its text, select kinds the matching option, objects and
// arrays their members (object keys not in `properties` are kept and sent
// back). A value the field's kind cannot show (say a number for a string
// field) is kept as a foreign value, shown as JSON and sent unchanged;
// Validate then reports it. Invalid JSON is an *InputError and changes nothing.
func (fl *Field) Set(value json.RawMessage) error {
	v, err := decodeJSON(value)
	if err != nil {
		return &InputError{Path: fl.Path, Message: "not valid JSON: " + err.Error()}
	}
	defer fl.form.op()()
	fl.load(v, true)
	return nil
}

// SetValue loads a whole value (from the raw JSON editor or history) into
// the form. Afterwards Value returns the same JSON, up to key order
// (properties in schema order, unknown keys after them) and whitespace:
// keys absent from value are omitted even if they are required or have
// defaults. Invalid JSON is an *InputError worded for the user ("not valid
// JSON: <detail> (line L, column C)") and leaves the form unchanged.
func (f *Form) SetValue(value json.RawMessage) error {
	v, err := decodeJSON(value)
	if err != nil {
		return &InputError{Message: "not valid JSON: " + err.Error()}
	}
	defer f.op()()
	f.root.load(v, true)
	return nil
}

// load sets the field from a decoded value. user tells whether the value is
// the user's (typed, loaded) or the form's (a default). A value the field's
// kind cannot show is kept as a foreign value.
func (fl *Field) load(v any, user bool) {
	fl.userSet = user
	fl.parseErr, fl.valErr = "", ""
	fl.hasForeign, fl.foreign = false, nil
	fl.text = ""
	fl.extras = nil
	if v == nil && fl.Kind != KindRaw {
		if !fl.Nullable {
			fl.loadForeign(v) // shown as "null" and sent; Validate explains
			return
		}
		fl.state = Null
		if fl.Kind == KindUnion {
			fl.children, fl.sel = nil, -1
		}
		return
	}
	fl.state = Set
	if !fl.loadKind(v, user) {
		fl.loadForeign(v)
	}
}

// loadForeign keeps v as the field's value although its kind cannot show it.
func (fl *Field) loadForeign(v any) {
	fl.hasForeign, fl.foreign = true, v
	fl.state = Set
	if fl.Kind == KindUnion {
		fl.children, fl.sel = nil, -1
	}
}

// loadKind loads v by the field's kind (v is not null, except in a raw
// field). It reports false when the kind cannot show v; a loader that says
// so has changed nothing, except that a raw field keeps the text.
func (fl *Field) loadKind(v any, user bool) bool {
	switch fl.Kind {
	case KindString:
		return fl.loadString(v)
	case KindNumber, KindInteger:
		return fl.loadNumber(v)
	case KindRaw:
		return fl.loadRaw(v)
	case KindBoolean, KindEnum:
		return fl.loadOption(v)
	case KindMultiSelect:
		return fl.loadChecked(v)
	case KindObject:
		return fl.loadObject(v, user)
	case KindArray:
		return fl.loadArray(v, user)
	case KindUnion:
		return fl.loadVariant(v, user)
	}
	return true
}

// loadString takes a JSON string as the text.
func (fl *Field) loadString(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	fl.text = s
	return true
}

// loadNumber takes a JSON number as the text, exactly as written; an
// integer field takes only numbers with an integer value.
func (fl *Field) loadNumber(v any) bool {
	num, ok := v.(json.Number)
	if _, problem := integerText(string(num)); !ok || (fl.Kind == KindInteger && problem != "") {
		return false
	}
	fl.text = string(num)
	return true
}

// loadRaw shows any value as JSON text; a value not of the field's Expect
// type is foreign too, its text kept.
func (fl *Field) loadRaw(v any) bool {
	fl.text = string(toRaw(v))
	return fl.checkText(fl.text) == ""
}

// loadOption selects the option whose value equals v.
func (fl *Field) loadOption(v any) bool {
	i := slices.IndexFunc(fl.Options, func(o Option) bool {
		return !o.Null && !o.Omit && jsonEqual(o.val, v)
	})
	if i < 0 {
		return false
	}
	fl.sel = i
	return true
}

// loadChecked checks the options of a multi-select named by the array v.
func (fl *Field) loadChecked(v any) bool {
	arr, ok := v.([]any)
	if !ok {
		return false
	}
	checked := make([]bool, len(fl.Options))
	last := -1
	for _, e := range arr {
		i := slices.IndexFunc(fl.Options, func(o Option) bool { return jsonEqual(o.val, e) })
		if i < 0 || checked[i] || i < last {
			// unknown value, duplicate, or an order the checkboxes cannot keep
			return false
		}
		checked[i] = true
		last = i
	}
	fl.checked = checked
	return true
}

// loadObject loads an object's members into the property fields (those
// absent are cleared, or reset for a default), its other keys into entries
// when the schema allows them, and keeps the rest as extras.
func (fl *Field) loadObject(v any, user bool) bool {
	o, ok := v.(*jobj)
	if !ok {
		return false
	}
	fl.ensureBuilt()
	if len(o.keys) > 0 {
		fl.collapsed = false // show what was loaded
	}
	fl.children = slices.DeleteFunc(fl.children, func(c *Field) bool { return c.entry })
	for _, c := range fl.children {
		if cv, ok := o.get(c.Key); ok {
			c.load(cv, user)
		} else if user {
			c.Clear()
		} else {
			c.Reset()
		}
	}
	for _, k := range o.keys {
		switch {
		case fl.isEntryKey(k):
			e := fl.newEntry(k)
			e.load(o.vals[k], user)
			fl.children = append(fl.children, e)
		case fl.child(k) == nil:
			if fl.extras == nil {
				fl.extras = newObj()
			}
			fl.extras.set(k, o.vals[k])
		}
	}
	return true
}

// loadArray replaces the list's items with one per element of v.
func (fl *Field) loadArray(v any, user bool) bool {
	arr, ok := v.([]any)
	if !ok {
		return false
	}
	fl.children = nil
	for i, e := range arr {
		it := fl.newItem(i)
		it.load(e, user)
		fl.children = append(fl.children, it)
	}
	return true
}

// loadVariant chooses the union variant that fits v best and loads v into it.
func (fl *Field) loadVariant(v any, user bool) bool {
	i := fl.bestVariant(v)
	if i < 0 {
		return false
	}
	fl.sel = i
	fl.buildBody()
	fl.children[0].load(v, user)
	return true
}

// bestVariant picks the union option whose schema fits v best, or -1.
func (fl *Field) bestVariant(v any) int {
	best, bestScore := -1, -1<<30
	for i, o := range fl.Options {
		if o.Variant < 0 {
			continue
		}
		s := fl.form.doc.fit(fl.variants[o.Variant], v)
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	if bestScore <= -1000 {
		return -1
	}
	return best
}

// fit scores how well v fits node n; -1000 or less means it does not.
func (d *schemaDoc) fit(n *node, v any) int {
	got := jsonType(v)
	score := 0
	if n.typeSet {
		ok := false
		for _, t := range n.types {
			if t == got {
				ok = true
				score += 2
			} else if typeAllows(t, got) {
				ok = true
			}
		}
		if !ok {
			return -1000
		}
	} else if n.hasProps && got != "object" {
		return -1000
	}
	if vals, ok := n.scalarChoices(); ok {
		if !slices.ContainsFunc(vals, func(w any) bool { return jsonEqual(v, w) }) {
			return -1000
		}
		score += 5
	}
	if o, ok := v.(*jobj); ok {
		for _, p := range n.props {
			pv, present := o.get(p.name)
			if !present {
				if slices.Contains(n.required, p.name) {
					score -= 5
				}
				continue
			}
			score++
			pn := d.normalize(p.schema, nil)
			if cv, ok := pn.scalarChoices(); ok && (pn.hasConst || len(cv) == 1) {
				if !slices.ContainsFunc(cv, func(w any) bool { return jsonEqual(pv, w) }) {
					return -1000 // a discriminator that does not match
				}
				score += 10
			}
		}
		for _, k := range o.keys {
			if !slices.ContainsFunc(n.props, func(p prop) bool { return p.name == k }) && n.hasAddl && n.addl == false {
				score -= 3
			}
		}
	}
	return score
}

// Present reports whether the field is part of Value: set by the user, or
// holding a default or a required object/list inside a parent that is sent.
func (fl *Field) Present() bool {
	parent := fl.parent == nil || fl.parent.Present()
	return fl.present(parent)
}

func (fl *Field) present(parentEmits bool) bool {
	if fl.hasForeign {
		return fl.userSet || parentEmits
	}
	if fl.state != Unset && (fl.userSet || parentEmits) {
		return true
	}
	switch fl.Kind {
	case KindObject, KindArray, KindUnion:
		return fl.state != Null && fl.hasActive()
	}
	return false
}

// hasActive reports whether a descendant holds a value the user gave.
func (fl *Field) hasActive() bool {
	for _, c := range fl.children {
		if c.userSet && (c.state != Unset || c.hasForeign) {
			return true
		}
		if c.hasActive() {
			return true
		}
	}
	return false
}

type emitter struct {
	index    map[string]*Field // instance JSON Pointer → field that produced it
	problems []FieldError
	// asTyped sends text that does not parse as typed instead of leaving it out.
	asTyped bool
}

func (e *emitter) value(fl *Field, path []string, parentEmits bool) (any, bool) {
	if !fl.present(parentEmits) {
		return nil, false
	}
	if fl.parseErr != "" {
		e.problems = append(e.problems, FieldError{Path: clonePath(path), Field: fl, Message: fl.parseErr})
		if !e.asTyped {
			return nil, false
		}
		e.index[pointer(path)] = fl
		return fl.typed(), true
	}
	e.index[pointer(path)] = fl
	if fl.hasForeign {
		return fl.foreign, true
	}
	if fl.state == Null {
		return nil, true
	}
	switch fl.Kind {
	case KindString:
		return fl.text, true
	case KindNumber:
		return json.Number(strings.TrimSpace(fl.text)), true
	case KindInteger:
		digits, _ := integerText(strings.TrimSpace(fl.text))
		return json.Number(digits), true
	case KindRaw:
		v, err := decodeJSON([]byte(fl.text))
		if err != nil {
			return nil, false
		}
		return v, true
	case KindBoolean, KindEnum:
		if fl.sel < 0 || fl.sel >= len(fl.Options) {
			return nil, false
		}
		return fl.Options[fl.sel].val, true
	case KindMultiSelect:
		arr := []any{}
		for i, c := range fl.checked {
			if c {
				arr = append(arr, fl.Options[i].val)
			}
		}
		return arr, true
	case KindObject:
		o := newObj()
		for _, c := range fl.children {
			if v, ok := e.value(c, append(clonePath(path), c.Key), true); ok {
				o.set(c.Key, v)
			} else if c.entry && c.parseErr == "" {
				e.problems = append(e.problems, FieldError{Path: clonePath(c.Path), Field: c, Message: "empty entry: fill it in or remove it"})
			}
		}
		if fl.extras != nil {
			for _, k := range fl.extras.keys {
				if _, dup := o.get(k); !dup {
					o.set(k, fl.extras.vals[k])
				}
			}
		}
		return o, true
	case KindArray:
		arr := []any{}
		for _, c := range fl.children {
			p := append(clonePath(path), fmt.Sprint(len(arr)))
			if v, ok := e.value(c, p, true); ok {
				arr = append(arr, v)
			} else if c.parseErr == "" {
				e.problems = append(e.problems, FieldError{Path: clonePath(c.Path), Field: c, Message: "empty item: fill it in or remove it"})
			}
		}
		return arr, true
	case KindUnion:
		b := fl.Body()
		if b == nil {
			return nil, false
		}
		return e.value(b, path, true)
	}
	return nil, false
}

// typed is the value of text that does not parse for its field, as the user
// typed it: the JSON value it is when it is one (1.5 in an integer field,
// [1] in an object field), else the text as a JSON string ("abc").
func (fl *Field) typed() any {
	t := strings.TrimSpace(fl.text)
	switch fl.Kind {
	case KindNumber, KindInteger:
		if isJSONNumber(t) {
			return json.Number(t)
		}
	case KindRaw:
		if v, err := decodeJSON([]byte(fl.text)); err == nil {
			return v
		}
	}
	return fl.text
}

func (f *Form) emit() (json.RawMessage, *emitter) {
	return f.emitWith(&emitter{index: map[string]*Field{}})
}

func (f *Form) emitWith(e *emitter) (json.RawMessage, *emitter) {
	v, ok := e.value(f.root, nil, true)
	if !ok {
		return nil, e
	}
	var buf bytes.Buffer
	encodeJSON(&buf, v)
	return buf.Bytes(), e
}

// Value returns the value the form holds as compact JSON: for a tool, the
// `arguments` object of tools/call (MCP 2025-11-25 server/tools). It holds
// exactly the fields the user set, plus required fields that have a default
// (and, inside a required object, its members' defaults: B16); untouched
// optional fields are omitted, never sent as null (B19). Numbers are sent
// as typed, integers never rounded, strings never coerced to numbers,
// objects as objects, enum values with their own JSON type.
//
// Fields whose text does not parse (see Field.Error) and empty list items
// are left out; the error is then a *ValueError listing them, and the JSON
// returned is what would be sent without them. The error is also non-nil
// when the root itself has no value (a non-object schema left unset).
func (f *Form) Value() (json.RawMessage, error) {
	v, e := f.emit()
	if v == nil {
		return nil, &ValueError{Problems: append(e.problems, FieldError{Message: "no value entered"})}
	}
	if len(e.problems) > 0 {
		return v, &ValueError{Problems: e.problems}
	}
	return v, nil
}

// ValueAsTyped is the value to "send anyway": like Value, but text that
// does not parse for its field is sent as typed instead of left out: as the
// JSON value it is when it is one (1.5 in an integer field, [1] in an object
// field), else as a JSON string ("abc" in a number field). A debugger sends
// what the user asks. problems lists those fields, and the empty list items
// and entries, which are still left out. The value is nil when the root has
// no value.
func (f *Form) ValueAsTyped() (json.RawMessage, []FieldError) {
	v, e := f.emitWith(&emitter{index: map[string]*Field{}, asTyped: true})
	return v, e.problems
}

// ValueError lists the fields left out of Value because their input does
// not parse, or list items that are empty.
type ValueError struct {
	Problems []FieldError
}

// Error joins the problems with "; ", worded for the user.
func (e *ValueError) Error() string {
	var parts []string
	for _, p := range e.Problems {
		parts = append(parts, p.Error())
	}
	return strings.Join(parts, "; ")
}
