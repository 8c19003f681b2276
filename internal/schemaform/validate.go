package schemaform

// Checking values against the compiled schema (compile.go) and wording the
// problems, each on the field that made the failing part of the value.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// FieldError is one validation problem, in words.
type FieldError struct {
	// Path is the instance location (property names and item indexes);
	// empty for the whole value or a note about the schema itself.
	Path []string
	// Field is the field the problem belongs to; nil for form-level notes
	// and for errors from ValidateValue.
	Field *Field
	// Message says what is wrong: "must be at least 1 character", "is required".
	Message string
	// Keyword is the JSON Schema keyword that failed ("type", "minLength",
	// "required", …); "" for input that does not parse and for schema notes.
	Keyword string
}

// Error renders "a.b: message", or only the message at the root.
func (e FieldError) Error() string {
	if len(e.Path) == 0 {
		return e.Message
	}
	return strings.Join(e.Path, ".") + ": " + e.Message
}

// Validate checks the form's value against the schema and returns the
// problems in display order, each on its field: input that does not parse,
// then schema violations in words. It also stores each field's first
// message (Field.Error). Notes about the schema (see Notes) come first,
// with no field. An empty result means the value is valid.
func (f *Form) Validate() []FieldError {
	f.walk(func(fl *Field) { fl.valErr = "" })
	val, e := f.emit()
	var out []FieldError
	sch, notes := f.validator()
	for _, n := range append(slices.Clone(f.notes), notes...) {
		out = append(out, FieldError{Message: n})
	}
	out = append(out, e.problems...)
	if val == nil {
		out = append(out, FieldError{Field: f.root, Message: "no value entered"})
	} else if sch != nil {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(val))
		if err == nil {
			if err := sch.Validate(inst); err != nil {
				var ve *jsonschema.ValidationError
				if errors.As(err, &ve) {
					out = append(out, f.mapErrors(collect(ve, preferChosen(e.index)), e.index)...)
				} else {
					out = append(out, FieldError{Message: err.Error()})
				}
			}
		}
	}
	order := map[*Field]int{}
	i := 0
	f.walk(func(fl *Field) { order[fl] = i; i++ })
	slices.SortStableFunc(out, func(a, b FieldError) int {
		oa, ob := -1, -1
		if a.Field != nil {
			oa = order[a.Field]
		}
		if b.Field != nil {
			ob = order[b.Field]
		}
		return oa - ob
	})
	out = slices.CompactFunc(out, func(a, b FieldError) bool {
		return a.Field == b.Field && a.Message == b.Message && slices.Equal(a.Path, b.Path)
	})
	for _, fe := range out {
		if fe.Field != nil && fe.Field.valErr == "" && fe.Field.parseErr == "" {
			fe.Field.valErr = fe.Message
		}
	}
	return out
}

// walk visits every built field depth-first, collapsed ones included.
func (f *Form) walk(fn func(*Field)) {
	var visit func(fl *Field)
	visit = func(fl *Field) {
		fn(fl)
		for _, c := range fl.children {
			visit(c)
		}
	}
	visit(f.root)
}

// ValidateValue checks value against schema and returns the problems in
// words, by instance path, with no Field. It is meant for a tool result's
// `structuredContent` against the tool's `outputSchema` (MCP 2025-11-25
// server/tools: servers MUST provide structured results that conform to it);
// a mismatch is advisory. Formats are checked only where the schema's
// dialect asserts them. nil means valid.
func ValidateValue(schema, value json.RawMessage) []FieldError {
	sch, notes := compile(schema, false)
	var out []FieldError
	for _, n := range notes {
		out = append(out, FieldError{Message: n})
	}
	probs := check(sch, value)
	// The validator reports an object's properties in map order; sort by instance path so the
	// advisory reads the same every time.
	sort.SliceStable(probs, func(i, j int) bool {
		return strings.Join(probs[i].Path, "/") < strings.Join(probs[j].Path, "/")
	})
	return append(out, probs...)
}

// check validates value with sch (nil: not checked) and words the problems.
func check(sch *jsonschema.Schema, value json.RawMessage) []FieldError {
	if _, err := decodeJSON(value); err != nil {
		return []FieldError{{Message: "not valid JSON: " + err.Error()}}
	}
	if sch == nil {
		return nil
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return []FieldError{{Message: "not valid JSON: " + err.Error()}}
	}
	var out []FieldError
	if err := sch.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			for _, l := range collect(ve, nil) {
				for _, m := range l.messages() {
					out = append(out, FieldError{Path: l.loc, Message: m, Keyword: l.keyword})
				}
			}
		} else {
			out = append(out, FieldError{Message: err.Error()})
		}
	}
	return out
}

// preferChosen finds, for an anyOf/oneOf failing at loc, the branch of the
// variant chosen in the union field there.
func preferChosen(index map[string]*Field) func([]string, string, int) int {
	return func(loc []string, kw string, count int) int {
		fl := index[pointer(loc)]
		if fl != nil && fl.Kind != KindUnion && fl.parent != nil && fl.parent.Kind == KindUnion && slices.Equal(fl.parent.Path, fl.Path) {
			fl = fl.parent
		}
		if fl == nil || fl.Kind != KindUnion || fl.sel < 0 || fl.sel >= len(fl.Options) {
			return -1
		}
		b := fl.Options[fl.sel].branch
		if b.kw != kw || b.count != count {
			return -1
		}
		return b.index
	}
}

// leaf is one innermost validation failure.
type leaf struct {
	loc     []string
	keyword string
	msg     string
	wants   []string // type/enum/const: the allowed alternatives, worded
	got     string   // type: what the value is, worded
	missing []string // for `required`: the missing property names
}

// text is the leaf's message; alternatives are joined with "or".
func (l leaf) text() string {
	if len(l.wants) > 0 {
		wants := l.wants
		if len(wants) > 1 {
			wants = slices.Clone(wants)
			for i, w := range wants {
				if w == "true or false" {
					wants[i] = "a boolean"
				}
			}
		}
		s := "must be " + orList(wants)
		if l.got != "" {
			s += ", not " + l.got
		}
		if l.got == "null" && (slices.Contains(wants, "a number") || slices.Contains(wants, "an integer")) {
			s += nullNumberHint
		}
		return s
	}
	return l.msg
}

func (l leaf) messages() []string {
	if l.keyword == "required" {
		var out []string
		for _, m := range l.missing {
			out = append(out, fmt.Sprintf("missing required property %q", m))
		}
		return out
	}
	return []string{l.text()}
}

// collect flattens a validation error tree into leaves worded for people.
// anyOf/oneOf failures are merged into one message when every branch failed
// at the same place ("must be a string or null"); when one branch got
// further into the value, its errors are reported instead.
//
// prefer, when not nil, returns the branch the user chose for the anyOf/
// oneOf at an instance location (from the union field there), or -1.
func collect(e *jsonschema.ValidationError, prefer func(loc []string, kw string, count int) int) []leaf {
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		var out []leaf
		for _, c := range e.Causes {
			out = append(out, collect(c, prefer)...)
		}
		if len(out) == 0 {
			out = append(out, leaf{loc: e.InstanceLocation, msg: "is not valid"})
		}
		return out
	case *kind.AnyOf:
		return collectBranches(e, prefer)
	case *kind.OneOf:
		if len(k.Subschemas) >= 2 {
			return []leaf{{loc: e.InstanceLocation, keyword: "oneOf",
				msg: fmt.Sprintf("matches more than one of the allowed forms (%d and %d); it must match exactly one", k.Subschemas[0]+1, k.Subschemas[1]+1)}}
		}
		return collectBranches(e, prefer)
	}
	return []leaf{phrase(e)}
}

func collectBranches(e *jsonschema.ValidationError, prefer func([]string, string, int) int) []leaf {
	kw := "anyOf"
	if _, ok := e.ErrorKind.(*kind.OneOf); ok {
		kw = "oneOf"
	}
	// When every branch fails the library keeps one cause per branch, in order.
	if prefer != nil {
		if i := prefer(e.InstanceLocation, kw, len(e.Causes)); i >= 0 && i < len(e.Causes) {
			return collect(e.Causes[i], prefer)
		}
	}
	var branches [][]leaf
	for _, c := range e.Causes {
		branches = append(branches, collect(c, prefer))
	}
	depth := len(e.InstanceLocation)
	// anyOf of `required` lists: "needs phone or email".
	var needs []string
	onlyRequired := true
	for _, b := range branches {
		for _, l := range b {
			if l.keyword != "required" || len(l.loc) > depth {
				onlyRequired = false
			}
		}
		var names []string
		for _, l := range b {
			names = append(names, quoteAll(l.missing))
		}
		needs = appendNew(needs, strings.Join(names, " and "))
	}
	if onlyRequired && len(branches) > 0 {
		return []leaf{{loc: e.InstanceLocation, keyword: kw, msg: "needs " + orList(needs)}}
	}
	// A branch that fits the value's shape (no type/enum/const failure on
	// the value itself or on a discriminator property) failed for a reason
	// inside it: its errors are the useful ones.
	var best []leaf
	for _, b := range branches {
		fits := len(b) > 0
		for _, l := range b {
			shapeKw := l.keyword == "type" || l.keyword == "enum" || l.keyword == "const"
			if shapeKw && (len(l.loc) == depth || (len(l.loc) == depth+1 && l.keyword != "type")) {
				fits = false
			}
			if l.keyword == "anyOf" || l.keyword == "oneOf" {
				if len(l.loc) == depth && len(l.wants) > 0 {
					fits = false
				}
			}
		}
		if fits && (best == nil || len(b) < len(best)) {
			best = b
		}
	}
	if best != nil {
		return best
	}
	var wants []string
	simple := true
	var msgs []string
	for _, b := range branches {
		for _, l := range b {
			if len(l.loc) > depth {
				continue
			}
			if len(l.wants) > 0 {
				for _, w := range l.wants {
					wants = appendNew(wants, w)
				}
			} else {
				simple = false
			}
			msgs = appendNew(msgs, l.text())
		}
	}
	if simple && len(wants) > 0 {
		return []leaf{{loc: e.InstanceLocation, keyword: kw, wants: wants}}
	}
	if len(msgs) == 0 {
		msgs = []string{"does not match"}
	}
	return []leaf{{loc: e.InstanceLocation, keyword: kw, msg: "must match one of the allowed forms: " + strings.Join(msgs, "; or ")}}
}

func orList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	case 2:
		return items[0] + " or " + items[1]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// typeRank orders type names in messages: scalars first, null last.
func typeRank(t string) int {
	switch t {
	case "string":
		return 0
	case "number":
		return 1
	case "integer":
		return 2
	case "boolean":
		return 3
	case "object":
		return 4
	case "array":
		return 5
	}
	return 6
}

func typeWord(t string) string {
	switch t {
	case "array":
		return "a list"
	case "boolean":
		return "true or false"
	case "null":
		return "null"
	}
	return article(t)
}

// phrase words one leaf error. Messages read after the field's name:
// "must be an integer", "is required".
func phrase(e *jsonschema.ValidationError) leaf {
	l := leaf{loc: e.InstanceLocation}
	if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
		l.keyword = kp[0]
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		want := slices.Clone(k.Want)
		slices.SortStableFunc(want, func(a, b string) int { return typeRank(a) - typeRank(b) })
		for _, w := range want {
			l.wants = append(l.wants, typeWord(w))
		}
		l.got = typeWord(k.Got)
		if k.Got == "boolean" {
			l.got = "a boolean"
		}
	case *kind.Enum:
		for _, w := range k.Want {
			l.wants = append(l.wants, string(toRaw(fromLib(w))))
		}
	case *kind.Const:
		l.wants = []string{string(toRaw(fromLib(k.Want)))}
	case *kind.Required:
		l.missing = k.Missing
		l.msg = "needs " + quoteAll(k.Missing)
	case *kind.MinLength:
		l.msg = fmt.Sprintf("must be at least %d %s", k.Want, plural(fmt.Sprint(k.Want), "character"))
	case *kind.MaxLength:
		l.msg = fmt.Sprintf("must be at most %d %s", k.Want, plural(fmt.Sprint(k.Want), "character"))
	case *kind.Pattern:
		l.msg = fmt.Sprintf("must match the pattern %s", k.Want)
	case *kind.Format:
		l.msg = fmt.Sprintf("must be a valid %s", k.Want)
		if ex := formatExample(k.Want); ex != "" {
			l.msg += ", like " + ex
		}
	case *kind.Minimum:
		l.msg = "must be at least " + ratText(k.Want)
	case *kind.Maximum:
		l.msg = "must be at most " + ratText(k.Want)
	case *kind.ExclusiveMinimum:
		l.msg = "must be greater than " + ratText(k.Want)
	case *kind.ExclusiveMaximum:
		l.msg = "must be less than " + ratText(k.Want)
	case *kind.MultipleOf:
		l.msg = "must be a multiple of " + ratText(k.Want)
	case *kind.MinItems:
		l.msg = fmt.Sprintf("must have at least %d %s", k.Want, plural(fmt.Sprint(k.Want), "item"))
	case *kind.MaxItems:
		l.msg = fmt.Sprintf("must have at most %d %s", k.Want, plural(fmt.Sprint(k.Want), "item"))
	case *kind.UniqueItems:
		l.msg = fmt.Sprintf("must not repeat items (items %d and %d are equal)", k.Duplicates[0]+1, k.Duplicates[1]+1)
	case *kind.MinProperties:
		l.msg = fmt.Sprintf("must have at least %d %s", k.Want, pluralProp(fmt.Sprint(k.Want)))
	case *kind.MaxProperties:
		l.msg = fmt.Sprintf("must have at most %d %s", k.Want, pluralProp(fmt.Sprint(k.Want)))
	case *kind.AdditionalProperties:
		if len(k.Properties) == 1 {
			l.msg = fmt.Sprintf("property %q is not allowed", k.Properties[0])
		} else {
			// Sorted: the validator lists them in map order, and the same check must read
			// the same every time (FuzzValidateValue).
			l.msg = "properties " + quoteAll(slices.Sorted(slices.Values(k.Properties))) + " are not allowed"
		}
	case *kind.AdditionalItems:
		l.msg = fmt.Sprintf("has %d more %s than allowed", k.Count, plural(fmt.Sprint(k.Count), "item"))
	case *kind.DependentRequired:
		l.msg = fmt.Sprintf("needs %s when %q is present", quoteAll(k.Missing), k.Prop)
	case *kind.Dependency:
		l.msg = fmt.Sprintf("needs %s when %q is present", quoteAll(k.Missing), k.Prop)
	case *kind.PropertyNames:
		l.msg = fmt.Sprintf("property name %q is not allowed", k.Property)
	case *kind.Contains:
		l.msg = "must contain an item matching the `contains` schema"
	case *kind.MinContains:
		l.msg = fmt.Sprintf("must contain at least %d matching items", k.Want)
	case *kind.MaxContains:
		l.msg = fmt.Sprintf("must contain at most %d matching items", k.Want)
	case *kind.FalseSchema:
		l.msg = "is not allowed here"
	case *kind.Not:
		l.msg = "matches a schema it must not match (`not`)"
	case *kind.ContentEncoding:
		l.msg = fmt.Sprintf("must be %s-encoded", k.Want)
	case *kind.ContentMediaType:
		l.msg = "must be of media type " + k.Want
	default:
		l.msg = "fails `" + strings.Join(e.ErrorKind.KeywordPath(), "/") + "`"
	}
	return l
}

func quoteAll(ss []string) string {
	var q []string
	for _, s := range ss {
		q = append(q, fmt.Sprintf("%q", s))
	}
	return strings.Join(q, ", ")
}

// fromLib converts a value decoded by jsonschema.UnmarshalJSON (maps) into
// the package's ordered model for printing.
func fromLib(v any) any {
	switch t := v.(type) {
	case map[string]any:
		o := newObj()
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			o.set(k, fromLib(t[k]))
		}
		return o
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = fromLib(e)
		}
		return out
	}
	return v
}

// mapErrors attaches leaves to fields. index maps instance pointers of the
// emitted value to the fields that produced them.
func (f *Form) mapErrors(leaves []leaf, index map[string]*Field) []FieldError {
	var out []FieldError
	for _, l := range leaves {
		owner, rest := f.owner(l.loc, index)
		if l.keyword == "required" {
			for _, m := range l.missing {
				var target *Field
				if owner != nil && len(rest) == 0 {
					target = owner.child(m)
				}
				if target != nil && target != f.root {
					out = append(out, FieldError{Path: clonePath(target.Path), Field: target, Message: "is required", Keyword: "required"})
					continue
				}
				out = append(out, f.located(owner, l.loc, rest, fmt.Sprintf("needs %q", m), "required"))
			}
			continue
		}
		out = append(out, f.located(owner, l.loc, rest, l.text(), l.keyword))
	}
	return out
}

// located builds an error for owner. The message is worded relative to
// the field ("X-A: must be a string" on a raw object field) and Path is
// the field's path. Errors on an object root are form-level: no Field,
// Path is the instance location.
func (f *Form) located(owner *Field, loc, rest []string, msg, kw string) FieldError {
	if owner != nil && owner.Kind == KindObject && owner.parent != nil && owner.parent.Kind == KindUnion {
		owner = owner.parent // an object variant is not listed by Fields; its union is
	}
	if owner == nil || (owner == f.root && f.root.Kind == KindObject) {
		return FieldError{Path: clonePath(loc), Message: msg, Keyword: kw}
	}
	if len(rest) > 0 {
		msg = strings.Join(rest, ".") + ": " + msg
	}
	return FieldError{Path: clonePath(owner.Path), Field: owner, Message: msg, Keyword: kw}
}

// owner finds the deepest emitted field at or above loc, and the part of
// loc below it.
func (f *Form) owner(loc []string, index map[string]*Field) (*Field, []string) {
	for i := len(loc); i >= 0; i-- {
		if fl, ok := index[pointer(loc[:i])]; ok {
			return fl, loc[i:]
		}
	}
	return f.root, loc
}

// ValidateJSON checks a whole value (the raw JSON editor's text) against
// the form's schema, with the same validator as Validate (formats
// asserted), and returns the problems by instance path, with no Field.
// Notes about the schema come first. Text that is not JSON is one problem.
// The form's own value and fields are not touched.
func (f *Form) ValidateJSON(value json.RawMessage) []FieldError {
	sch, notes := f.validator()
	var out []FieldError
	for _, n := range append(slices.Clone(f.notes), notes...) {
		out = append(out, FieldError{Message: n})
	}
	return append(out, check(sch, value)...)
}
