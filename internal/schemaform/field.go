package schemaform

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Kind is how a field is edited. It is derived from the JSON Schema keywords
// `type`, `enum`, `const`, `anyOf`/`oneOf`, `properties` and `items`.
type Kind int

const (
	// KindRaw is a free JSON value typed as text: an empty schema `{}`, a
	// missing `type`, an object without `properties`, tuple arrays, an
	// unresolvable `$ref`, and anything else the form cannot structure.
	KindRaw Kind = iota
	// KindString is `"type":"string"`; the text is sent as typed, never coerced.
	KindString
	// KindNumber is `"type":"number"`; text must be a JSON number ("1.5", "1e3").
	KindNumber
	// KindInteger is `"type":"integer"`; text must be a JSON number with no
	// fractional part ("42", "1e3", "2.0"), sent as plain digits computed
	// exactly (1000, 2; big integers are never rounded).
	KindInteger
	// KindBoolean is `"type":"boolean"`: options true and false, plus (null)
	// when nullable and (omit) when optional.
	KindBoolean
	// KindEnum is `enum` or `const` (values of any JSON type, sent with their
	// own type), or `anyOf`/`oneOf` made only of `const` branches (titled enum).
	KindEnum
	// KindObject is `"type":"object"` with `properties`: a group of child fields.
	KindObject
	// KindArray is `"type":"array"`: a list of item fields built from `items`,
	// added and removed by the user.
	KindArray
	// KindMultiSelect is an array whose `items` are an enum (or `anyOf` of
	// `const`): a set of checkable options, sent in option order.
	KindMultiSelect
	// KindUnion is a choice of variant: `anyOf`/`oneOf` with several non-null
	// branches, or `type` listing several non-null types. The chosen variant
	// is edited in Body().
	KindUnion
)

// String returns the kind's lower-case name ("raw", "string", …, "union").
func (k Kind) String() string {
	switch k {
	case KindRaw:
		return "raw"
	case KindString:
		return "string"
	case KindNumber:
		return "number"
	case KindInteger:
		return "integer"
	case KindBoolean:
		return "boolean"
	case KindEnum:
		return "enum"
	case KindObject:
		return "object"
	case KindArray:
		return "array"
	case KindMultiSelect:
		return "multiselect"
	case KindUnion:
		return "union"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// State is whether a field holds a value.
type State int

const (
	// Unset means no value: the key is omitted from the arguments.
	Unset State = iota
	// Null means the JSON value null is sent.
	Null
	// Set means a value is present (possibly still unparseable text; see Field.Error).
	Set
)

// String returns "unset", "null" or "set".
func (s State) String() string {
	switch s {
	case Null:
		return "null"
	case Set:
		return "set"
	}
	return "unset"
}

// Option is one choice of a select-like field (KindBoolean, KindEnum,
// KindMultiSelect, KindUnion).
type Option struct {
	// Label is what to show: the branch `title`, a legacy `enumNames`
	// entry, the string itself, or the value as JSON ("2", "true").
	// Pseudo-options are labelled "(null)" and "(omit)".
	Label string
	// Value is the JSON sent when chosen; nil for Omit and for union variants.
	Value json.RawMessage
	// Null marks the "(null)" choice: the value null is sent.
	Null bool
	// Omit marks the "(omit)" choice offered on optional fields: no key is sent.
	Omit bool
	// Variant is the union branch index for KindUnion variants, else -1.
	Variant int
	// Description is the branch `description`, if any.
	Description string

	val    any       // decoded Value
	branch branchRef // union variants from anyOf/oneOf: which branch
}

// branchRef names the anyOf/oneOf branch a union variant came from, so
// that validation errors can follow the variant the user chose.
type branchRef struct {
	kw    string // "anyOf" or "oneOf"; "" for variants from a `type` list
	index int
	count int // branches in the keyword
}

// Field is one node of the form tree. Descriptive fields are filled when the
// form is built and must not be changed by callers; the value is changed
// only through methods.
type Field struct {
	// Path is the instance location from the root value: property names and,
	// inside arrays, decimal indexes. The root field has an empty path.
	Path []string
	// Key is the last element of Path ("" for the root).
	Key string
	// Label is the `title`, else the key, else "[i]" for array items.
	Label string
	// Description is the `description` keyword.
	Description string
	// Kind is how the field is edited.
	Kind Kind
	// Required is true when the key is in the parent's `required` list;
	// array items, union bodies and the root are required too.
	Required bool
	// Nullable is true when null is a valid choice: "null" in `type`, a null
	// branch in `anyOf`/`oneOf`, or null in `enum` (and the type allows it).
	Nullable bool
	// Depth is the nesting level for indentation; top-level properties are 0.
	Depth int
	// Options are the choices of select-like kinds, including the
	// pseudo-options "(null)" and "(omit)" where they apply.
	Options []Option
	// Format is the `format` keyword ("date-time", "email", "uri", …).
	Format string
	// FormatHint shows what the format looks like, e.g. "YYYY-MM-DD".
	FormatHint string
	// Default is the `default` keyword as compact JSON; nil when absent or
	// null (a null default means unset).
	Default json.RawMessage
	// Examples are the `examples` keyword values, offered to the user.
	Examples []json.RawMessage
	// Hints summarise constraints in words: "at least 1 character", "≥ 0".
	Hints []string
	// ReadOnly and Deprecated mirror the `readOnly` and `deprecated` keywords.
	ReadOnly, Deprecated bool
	// Expect names the JSON type a KindRaw field should hold ("object",
	// "array"), or "" for any JSON value.
	Expect string
	// Note says why a field is raw JSON or otherwise limited, e.g. an
	// unresolvable `$ref` naming the ref, or the recursion limit.
	Note string

	form     *Form
	parent   *Field
	node     *node
	stack    []string // $ref targets followed along the path to this field
	children []*Field // object properties, array items, or the union body

	state       State
	userSet     bool // the state comes from the user (or SetValue), not from defaults
	text        string
	sel         int    // selected option (select kinds); -1 none
	checked     []bool // KindMultiSelect
	foreign     any    // a loaded value that does not fit the field's kind; sent as is
	hasForeign  bool
	extras      *jobj // object keys not in `properties`, kept from SetValue
	parseErr    string
	valErr      string
	collapsed   bool
	lazy        bool // object whose children are not built yet (recursive schema)
	variants    []*node
	materialize bool // object: fill optional children's defaults when built (B16)
	collapses   int  // nullable anyOf/oneOf collapses while shaping this field
	entry       bool // an entry of its parent object (additionalProperties), keyed by the user
}

// Children returns the child fields: object properties in schema order,
// array items, or the union body.
func (fl *Field) Children() []*Field {
	defer fl.form.op()()
	fl.ensureBuilt()
	return fl.children
}

// Extra returns the object members loaded by Set or SetValue that are not
// among the schema's `properties`, as a JSON object; nil when none. They
// are sent after the known members.
func (fl *Field) Extra() json.RawMessage {
	if fl.extras == nil || len(fl.extras.keys) == 0 {
		return nil
	}
	return toRaw(fl.extras)
}

// Parent returns the enclosing field, or nil for the root.
func (fl *Field) Parent() *Field { return fl.parent }

// State reports whether the field is unset, null or set.
func (fl *Field) State() State { return fl.state }

// Touched reports whether the current state was set by the user (typing,
// choosing, clearing, or loading a value) rather than by the schema's defaults.
func (fl *Field) Touched() bool { return fl.userSet }

// FromDefault reports whether the field's value was filled in by the form,
// not chosen by the user: a `default`, a required single `const`, or a
// required object or list made present.
func (fl *Field) FromDefault() bool { return !fl.userSet && fl.state == Set }

// Error returns the text of the field's current problem: a parse error from
// SetText, or the message from the last Validate; "" when none.
func (fl *Field) Error() string {
	if fl.parseErr != "" {
		return fl.parseErr
	}
	return fl.valErr
}

// Foreign reports whether the field holds a loaded value that its kind cannot
// show (for example a number loaded into a string field). Text() then shows
// that value as JSON and it is sent unchanged.
func (fl *Field) Foreign() bool { return fl.hasForeign }

// Placeholder is what to show in an empty field: the default (the option's
// label for select kinds, strings bare, other values as JSON), else the
// format hint.
func (fl *Field) Placeholder() string {
	if fl.Default != nil {
		if def, err := decodeJSON(fl.Default); err == nil {
			for _, o := range fl.Options {
				if !o.Omit && o.Variant < 0 && jsonEqual(o.val, def) {
					return o.Label
				}
			}
		}
		if fl.Kind == KindString {
			var s string
			if json.Unmarshal(fl.Default, &s) == nil {
				return s
			}
		}
		return string(fl.Default)
	}
	return fl.FormatHint
}

// Collapsed reports whether the field's children are hidden from Fields.
func (fl *Field) Collapsed() bool { return fl.collapsed }

// SetCollapsed hides or shows the children of an object, array or union in
// Fields. Expanding a lazily built recursive object builds one more level.
func (fl *Field) SetCollapsed(c bool) {
	defer fl.form.op()()
	fl.collapsed = c
	if !c {
		fl.ensureBuilt()
	}
}

// Body returns the field that edits the chosen variant of a KindUnion, or nil
// when no variant is chosen or the field is not a union.
func (fl *Field) Body() *Field {
	if fl.Kind != KindUnion || len(fl.children) == 0 {
		return nil
	}
	return fl.children[0]
}

// Text returns the field's text: what was typed for text kinds, the chosen
// option's label for select kinds, a foreign value as JSON, and "" otherwise.
func (fl *Field) Text() string {
	if fl.hasForeign {
		return string(toRaw(fl.foreign))
	}
	switch fl.Kind {
	case KindRaw, KindString, KindNumber, KindInteger:
		if fl.state == Set {
			return fl.text
		}
		return ""
	case KindBoolean, KindEnum, KindUnion:
		if i := fl.Selected(); i >= 0 && fl.state != Unset {
			return fl.Options[i].Label
		}
		return ""
	case KindMultiSelect:
		if fl.state != Set {
			return ""
		}
		var labels []string
		for i, c := range fl.checked {
			if c {
				labels = append(labels, fl.Options[i].Label)
			}
		}
		return strings.Join(labels, ", ")
	}
	return ""
}

// IsText reports whether the field is edited by typing (SetText).
func (fl *Field) IsText() bool {
	switch fl.Kind {
	case KindRaw, KindString, KindNumber, KindInteger:
		return true
	}
	return false
}

// SetText sets the field from typed text. String fields keep the text exactly
// ("02134" stays the string "02134"); number fields need a JSON number;
// integer fields need an integer literal; raw fields need valid JSON. The text
// is always kept as typed: a parse error is stored on the field (see Error)
// and returned, and the field is then left out of Value. Empty text unsets
// the field (to send an empty string, use Set with `""`).
func (fl *Field) SetText(s string) error {
	if !fl.IsText() {
		return fmt.Errorf("%s field %q is not edited as text", fl.Kind, fl.Label)
	}
	fl.userSet = true
	fl.hasForeign, fl.foreign = false, nil
	fl.valErr = ""
	fl.text = s
	if s == "" {
		fl.state = Unset
		fl.parseErr = ""
		return nil
	}
	fl.state = Set
	fl.parseErr = fl.checkText(s)
	if fl.parseErr != "" {
		return &InputError{Path: fl.Path, Message: fl.parseErr}
	}
	return nil
}

func (fl *Field) checkText(s string) string {
	switch fl.Kind {
	case KindNumber:
		if !isJSONNumber(strings.TrimSpace(s)) {
			return "must be a number, like 42, -1.5 or 1e3"
		}
	case KindInteger:
		if _, problem := integerText(strings.TrimSpace(s)); problem != "" {
			return problem
		}
	case KindRaw:
		v, err := decodeJSON([]byte(s))
		if err != nil {
			return "not valid JSON: " + err.Error()
		}
		if fl.Expect != "" && !typeAllows(fl.Expect, jsonType(v)) && !(v == nil && fl.Nullable) {
			return fmt.Sprintf("must be %s", article(fl.Expect))
		}
	}
	return ""
}

// InputError is returned by SetText and Set when the input does not fit the
// field; the same message is kept on the field (Field.Error).
type InputError struct {
	Path    []string
	Message string
}

// Error renders the field's JSON Pointer and the message.
func (e *InputError) Error() string {
	if len(e.Path) == 0 {
		return e.Message
	}
	return pointer(e.Path) + ": " + e.Message
}

// Selected returns the index in Options of the current choice: the chosen
// value, "(null)" when null, "(omit)" when unset and optional, or -1 when
// nothing is chosen. For KindMultiSelect it returns -1.
func (fl *Field) Selected() int {
	switch fl.Kind {
	case KindBoolean, KindEnum, KindUnion:
	default:
		return -1
	}
	switch fl.state {
	case Null:
		return fl.optionIndex(func(o Option) bool { return o.Null })
	case Unset:
		return fl.optionIndex(func(o Option) bool { return o.Omit })
	}
	return fl.sel
}

func (fl *Field) optionIndex(f func(Option) bool) int {
	for i, o := range fl.Options {
		if f(o) {
			return i
		}
	}
	return -1
}

// Select chooses Options[i] of a boolean, enum or union field: a value,
// "(null)" or "(omit)". For a union, choosing a variant builds a fresh Body
// (or keeps it when the same variant is chosen again).
func (fl *Field) Select(i int) error {
	switch fl.Kind {
	case KindBoolean, KindEnum, KindUnion:
	default:
		return fmt.Errorf("%s field %q has no options to select", fl.Kind, fl.Label)
	}
	if i < 0 || i >= len(fl.Options) {
		return fmt.Errorf("option %d out of range (field %q has %d)", i, fl.Label, len(fl.Options))
	}
	defer fl.form.op()()
	fl.userSet = true
	fl.hasForeign, fl.foreign = false, nil
	fl.parseErr, fl.valErr = "", ""
	o := fl.Options[i]
	switch {
	case o.Omit:
		fl.state = Unset
		if fl.Kind == KindUnion {
			fl.children = nil
			fl.sel = -1
		}
	case o.Null:
		fl.state = Null
		if fl.Kind == KindUnion {
			fl.children = nil
			fl.sel = -1
		}
	default:
		fl.state = Set
		if fl.Kind == KindUnion && (fl.sel != i || len(fl.children) == 0) {
			fl.sel = i
			fl.buildBody()
		}
		fl.sel = i
	}
	return nil
}

// Cycle moves the choice of a select-like field by delta (+1 next, -1
// previous), wrapping around. From no choice, +1 picks the first option.
func (fl *Field) Cycle(delta int) error {
	n := len(fl.Options)
	if n == 0 {
		return fmt.Errorf("%s field %q has no options", fl.Kind, fl.Label)
	}
	cur := fl.Selected()
	var next int
	if cur < 0 {
		if delta >= 0 {
			next = 0
		} else {
			next = n - 1
		}
	} else {
		next = ((cur+delta)%n + n) % n
	}
	return fl.Select(next)
}

// Checked reports whether option i of a KindMultiSelect field is chosen.
func (fl *Field) Checked(i int) bool {
	return fl.Kind == KindMultiSelect && fl.state == Set && i >= 0 && i < len(fl.checked) && fl.checked[i]
}

// Toggle checks or unchecks option i of a KindMultiSelect field. The field
// becomes set (possibly to an empty list) by the first toggle.
func (fl *Field) Toggle(i int) error {
	if fl.Kind != KindMultiSelect {
		return fmt.Errorf("%s field %q is not a multi-select", fl.Kind, fl.Label)
	}
	if i < 0 || i >= len(fl.Options) {
		return fmt.Errorf("option %d out of range (field %q has %d)", i, fl.Label, len(fl.Options))
	}
	if fl.state != Set || fl.hasForeign {
		fl.checked = make([]bool, len(fl.Options))
		fl.hasForeign, fl.foreign = false, nil
	}
	fl.userSet, fl.state, fl.valErr = true, Set, ""
	fl.checked[i] = !fl.checked[i]
	return nil
}

// SetNull sets the field to null. It fails when the schema does not allow
// null (Nullable is false); to send null anyway, use Set with `null`.
func (fl *Field) SetNull() error {
	if !fl.Nullable {
		return fmt.Errorf("field %q does not allow null", fl.Label)
	}
	fl.setNull()
	return nil
}

func (fl *Field) setNull() {
	fl.userSet = true
	fl.state = Null
	fl.hasForeign, fl.foreign = false, nil
	fl.parseErr, fl.valErr = "", ""
	fl.text = ""
	if fl.Kind == KindUnion {
		fl.children, fl.sel = nil, -1
	}
}

// Clear unsets the field: its key is omitted, even when it is required or
// has a default. Children of objects and arrays are reset with it.
func (fl *Field) Clear() {
	defer fl.form.op()()
	fl.resetValue()
	fl.userSet = true
	fl.state = Unset
	if fl.Kind == KindUnion {
		fl.children, fl.sel = nil, -1
	}
}

// Reset returns the field to its state when the form was built: defaults
// of required fields filled in, everything else unset.
func (fl *Field) Reset() {
	defer fl.form.op()()
	fl.resetValue()
	fl.userSet = false
	fl.initial()
}

func (fl *Field) resetValue() {
	fl.text = ""
	fl.hasForeign, fl.foreign = false, nil
	fl.extras = nil
	fl.parseErr, fl.valErr = "", ""
	fl.checked = nil
	switch fl.Kind {
	case KindObject:
		if !fl.lazy {
			fl.children = nil
			fl.buildChildren()
		}
	case KindArray:
		fl.children = nil
	}
}

// AcceptDefault sets the field to its schema `default`, as if the user had
// entered it. It fails when the field has no default.
func (fl *Field) AcceptDefault() error {
	if fl.Default == nil {
		return fmt.Errorf("field %q has no default", fl.Label)
	}
	return fl.Set(fl.Default)
}

// AddItem appends a new item to a KindArray field, built from the `items`
// schema (defaults of required and object-member fields filled in), and returns it.
func (fl *Field) AddItem() (*Field, error) {
	if fl.Kind != KindArray {
		return nil, fmt.Errorf("%s field %q is not a list", fl.Kind, fl.Label)
	}
	defer fl.form.op()()
	if fl.state != Set || fl.hasForeign {
		fl.children = nil
		fl.hasForeign, fl.foreign = false, nil
	}
	fl.userSet, fl.state, fl.valErr = true, Set, ""
	it := fl.newItem(len(fl.children))
	fl.children = append(fl.children, it)
	return it, nil
}

// RemoveItem deletes item i of a KindArray field; later items move up.
func (fl *Field) RemoveItem(i int) error {
	if fl.Kind != KindArray || i < 0 || i >= len(fl.children) {
		return fmt.Errorf("field %q has no item %d", fl.Label, i)
	}
	fl.children = append(fl.children[:i], fl.children[i+1:]...)
	fl.userSet, fl.valErr = true, ""
	fl.renumber()
	return nil
}

// MoveItem moves item from to position to in a KindArray field.
func (fl *Field) MoveItem(from, to int) error {
	n := len(fl.children)
	if fl.Kind != KindArray || from < 0 || from >= n || to < 0 || to >= n {
		return fmt.Errorf("field %q: cannot move item %d to %d", fl.Label, from, to)
	}
	it := fl.children[from]
	fl.children = append(fl.children[:from], fl.children[from+1:]...)
	fl.children = append(fl.children[:to], append([]*Field{it}, fl.children[to:]...)...)
	fl.userSet, fl.valErr = true, ""
	fl.renumber()
	return nil
}

func (fl *Field) renumber() {
	for i, c := range fl.children {
		c.setIndex(i)
	}
}

// setIndex re-paths an array item and its descendants after a move.
func (fl *Field) setIndex(i int) {
	key := fmt.Sprint(i)
	fl.Key = key
	if fl.node == nil || fl.node.title == "" {
		fl.Label = "[" + key + "]"
	}
	fl.repath(append(clonePath(fl.parent.Path), key))
}

func (fl *Field) repath(p []string) {
	fl.Path = p
	for _, c := range fl.children {
		if fl.Kind == KindUnion {
			c.repath(p)
		} else {
			c.repath(append(clonePath(p), c.Key))
		}
	}
}

func clonePath(p []string) []string {
	return append(make([]string, 0, len(p)+1), p...)
}

func article(t string) string {
	switch t {
	case "integer", "object", "array":
		return "an " + t
	case "null":
		return "null"
	case "boolean":
		return "true or false"
	}
	return "a " + t
}
