package schemaform

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Form is the editable model of one JSON Schema: a tree of fields, the value
// they make, and validation against the schema. It is built for a tool's
// `inputSchema` (MCP 2025-11-25 server/tools: "inputSchema": a JSON Schema
// object describing the expected `arguments`), and equally for an
// elicitation `requestedSchema`.
//
// A Form is not safe for concurrent use.
type Form struct {
	schema json.RawMessage
	doc    *schemaDoc
	root   *Field
	notes  []string // form-level notes from building (invalid schema JSON)

	opDepth int // nesting of exported calls; the work budget resets at depth 0

	compiled    bool
	vschema     *jsonschema.Schema
	schemaNotes []string
}

// New builds a form from a JSON Schema. It does not fail on odd schemas:
// anything the form cannot structure becomes a raw JSON field with a Note.
// An empty schema (nil, "", `{}`, `true`) gives an object form with no
// fields, whose Value is `{}`. The error is non-nil only when schema is not
// JSON at all; the returned form is usable even then (one raw JSON field).
func New(schema json.RawMessage) (*Form, error) {
	f := &Form{schema: schema}
	trimmed := strings.TrimSpace(string(schema))
	var root any
	var err error
	switch trimmed {
	case "", "null", "true", "{}":
		root = newObj()
	default:
		root, err = decodeJSON(schema)
		if err != nil {
			err = fmt.Errorf("the schema is not valid JSON: %w", err)
			f.notes = append(f.notes, err.Error())
			root = true
		}
	}
	f.doc = newSchemaDoc(root)
	n := f.doc.normalize(root, nil)
	if err != nil {
		n.note = "the schema is not valid JSON: enter the whole value as JSON"
	}
	depth := 0
	if err == nil && isObjectNode(n) {
		depth = -1 // top-level properties are at depth 0
	}
	f.root = f.fieldFromNode(nil, "", nil, n, true, depth, nil)
	if depth < 0 && f.root.Kind != KindObject {
		// e.g. an object schema whose anyOf made it a variant picker:
		// the root itself is listed, at depth 0.
		f.doc.nodes = 0
		f.root = f.fieldFromNode(nil, "", nil, f.doc.normalize(root, nil), true, 0, nil)
	}
	return f, err
}

// Schema returns the schema the form was built from.
func (f *Form) Schema() json.RawMessage { return f.schema }

// Root returns the root field. For an object schema it is a KindObject
// whose children are the top-level properties.
func (f *Form) Root() *Field { return f.root }

// Reset returns every field to its initial state.
func (f *Form) Reset() {
	defer f.op()()
	f.root.Reset()
}

// Fields returns the visible fields in display order: a depth-first walk of
// the tree (properties in schema order), skipping children of collapsed
// fields. For an object root the root itself is not listed. A union lists
// its variant's fields after it: an object variant's properties directly,
// any other variant as its Body field.
func (f *Form) Fields() []*Field {
	var out []*Field
	var visit func(fl *Field)
	visitChildren := func(fl *Field) {
		if fl.collapsed {
			return
		}
		switch fl.Kind {
		case KindObject, KindArray:
			for _, c := range fl.Children() {
				visit(c)
			}
		case KindUnion:
			if b := fl.Body(); b != nil {
				if b.Kind == KindObject {
					for _, c := range b.Children() {
						visit(c)
					}
				} else {
					visit(b)
				}
			}
		}
	}
	visit = func(fl *Field) {
		out = append(out, fl)
		visitChildren(fl)
	}
	if f.root.Kind == KindObject {
		visitChildren(f.root)
	} else {
		visit(f.root)
	}
	return out
}

// Field returns the field at path (property names and item indexes), or nil.
// Union bodies are looked through: the path of a property of an object
// variant is the union's path plus the property name.
func (f *Form) Field(path ...string) *Field {
	fl := f.root
	for _, p := range path {
		fl = fl.child(p)
		if fl == nil {
			return nil
		}
	}
	return fl
}

func (fl *Field) child(key string) *Field {
	if fl.Kind == KindUnion {
		if b := fl.Body(); b != nil {
			return b.child(key)
		}
		return nil
	}
	for _, c := range fl.Children() {
		if c.Key == key {
			return c
		}
	}
	return nil
}

func isObjectNode(n *node) bool {
	if n.typeSet {
		return len(n.types) == 1 && n.types[0] == "object"
	}
	return n.hasProps || (n.shapeless() && n.note == "" && len(n.groups) == 0)
}

// op starts an operation that may build fields: the first (outermost)
// call resets the work budget. Use as `defer f.op()()`.
func (f *Form) op() func() {
	if f.opDepth == 0 {
		f.doc.nodes = 0
	}
	f.opDepth++
	return func() { f.opDepth-- }
}

func (f *Form) newField(parent *Field, key string, path []string, schema any, required bool, depth int, stack []string) *Field {
	return f.fieldFromNode(parent, key, path, f.doc.normalize(schema, nil), required, depth, stack)
}

func (f *Form) fieldFromNode(parent *Field, key string, path []string, n *node, required bool, depth int, stack []string) *Field {
	f.doc.nodes++
	if f.doc.nodes > maxNodes {
		n = &node{note: "schema too large to show as a form: edit as JSON"}
	}
	fl := &Field{Path: path, Key: key, Required: required, Depth: depth, form: f, parent: parent, sel: -1}
	fl.stack = append(slices.Clip(stack), n.refs...)
	fl.annotate(n)
	fl.shape(n, false)
	fl.initial()
	return fl
}

func (fl *Field) annotate(n *node) {
	fl.Label = n.title
	if fl.Label == "" {
		fl.Label = fl.Key
		if fl.parent != nil && fl.parent.Kind == KindArray {
			fl.Label = "[" + fl.Key + "]"
		}
	}
	fl.Description = n.desc
	fl.Format = n.format
	fl.FormatHint = formatHint(n.format)
	fl.Default = nil
	if n.hasDef && n.def != nil {
		fl.Default = toRaw(n.def)
	}
	fl.Examples = nil
	for _, e := range n.examples {
		fl.Examples = append(fl.Examples, toRaw(e))
	}
	fl.Hints = slices.Clone(n.hints)
	fl.ReadOnly = n.readOnly
	fl.Deprecated = n.deprecated
}

func (fl *Field) isRoot() bool { return fl.parent == nil }

// shape decides the field's kind from the node. nullable carries a null
// branch found while collapsing `anyOf`/`oneOf`. In order: limits and
// notes, a list of choices, the first anyOf/oneOf that has a value shape,
// then the node's own `type`.
func (fl *Field) shape(n *node, nullable bool) {
	fl.node = n
	if fl.Depth > maxDepth {
		fl.raw(n, fmt.Sprintf("nested deeper than %d levels: edit as JSON", maxDepth))
		return
	}
	if n.note != "" {
		fl.raw(n, n.note)
		return
	}
	if vals, ok := n.scalarChoices(); ok {
		fl.enum(n, vals, n.enumNames, nil, nullable)
		return
	}
	for gi := range n.groups {
		if fl.shapeGroup(n, gi, nullable) {
			return
		}
	}
	nullable = nullable || n.nullOK
	if !n.typeSet {
		fl.shapeUntyped(n, nullable)
		return
	}
	fl.shapeTyped(n, nullable)
}

// shapeGroup shapes the field from the anyOf/oneOf group n.groups[gi]: a
// select when every branch is a choice, the other branch when only one has a
// shape (null and assertion-only branches aside), else a variant picker. It
// reports false, shaping nothing, when no branch has a value shape (e.g. an
// anyOf of `required` lists: validation only).
func (fl *Field) shapeGroup(n *node, gi int, nullable bool) bool {
	g := n.groups[gi]
	var branches []*node
	for _, b := range g.branches {
		branches = append(branches, fl.form.doc.normalize(b, nil))
	}
	if !slices.ContainsFunc(branches, func(b *node) bool { return !b.shapeless() }) {
		return false
	}
	rest, restIdx, hasNull := shapedBranches(branches)
	base := n.clone()
	base.groups = slices.Delete(slices.Clone(n.groups), gi, gi+1)
	nullable = nullable || hasNull
	switch {
	case len(rest) == 0:
		fl.enum(base, []any{nil}, nil, nil, true)
	case allScalarChoices(rest):
		vals, labels, descs := branchChoices(rest)
		fl.enum(base, vals, labels, descs, nullable)
	case len(rest) == 1:
		fl.collapse(n, base, rest[0], nullable)
	default:
		fl.union(base, rest, nullable, true)
		for i := range rest {
			fl.Options[i].branch = branchRef{kw: g.kw, index: restIdx[i], count: len(g.branches)}
		}
	}
	return true
}

// shapedBranches sorts a group's branches: those with a value shape (and
// their indexes in the group), and whether one is null only. Assertion-only
// branches beside shaped ones are not value shapes and are left out.
func shapedBranches(branches []*node) (rest []*node, restIdx []int, hasNull bool) {
	for i, b := range branches {
		switch {
		case b.isNullOnly():
			hasNull = true
		case b.shapeless():
		default:
			rest = append(rest, b)
			restIdx = append(restIdx, i)
		}
	}
	return rest, restIdx, hasNull
}

// allScalarChoices reports whether every branch is a list of choices
// (enum or const).
func allScalarChoices(branches []*node) bool {
	for _, b := range branches {
		if _, ok := b.scalarChoices(); !ok {
			return false
		}
	}
	return true
}

// branchChoices joins the choices of branches that all have them into one
// list. A const branch's title labels it; enumNames label enum values.
func branchChoices(branches []*node) (vals []any, labels, descs []string) {
	for _, b := range branches {
		cv, _ := b.scalarChoices()
		for i, v := range cv {
			vals = append(vals, v)
			label := ""
			switch {
			case b.hasConst && b.title != "":
				label = b.title
			case i < len(b.enumNames):
				label = b.enumNames[i]
			}
			labels = append(labels, label)
			descs = append(descs, b.desc)
		}
	}
	return vals, labels, descs
}

// collapse shapes the field from base (n without the group) merged with
// the group's only shaped branch, as if the schema had said it directly.
// A branch that leads back to itself too often becomes raw JSON.
func (fl *Field) collapse(n, base, branch *node, nullable bool) {
	fl.collapses++
	if fl.collapses > maxCollapses {
		fl.raw(n, "anyOf/oneOf refers back to itself: edit as JSON")
		return
	}
	merged := base
	mergeNode(merged, branch, false)
	if len(branch.refs) > 0 {
		fl.stack = append(fl.stack, branch.refs...)
	}
	fl.reannotate(merged)
	fl.shape(merged, nullable)
}

// shapeUntyped shapes a node without `type` from its keywords: properties
// make an object (so does a root that can only be one), items an array,
// anything else is raw JSON.
func (fl *Field) shapeUntyped(n *node, nullable bool) {
	switch {
	case n.hasProps || (fl.isRoot() && isObjectNode(n)):
		fl.object(n, nullable)
	case n.hasItems:
		fl.array(n, nullable)
	default:
		fl.raw(n, "")
		fl.Nullable = true
	}
}

// shapeTyped shapes a node by its `type` ("null" already in nullable):
// none left is null only or no value, several make a variant picker, one
// picks the kind. number beside integer is number.
func (fl *Field) shapeTyped(n *node, nullable bool) {
	types := slices.Clone(n.types)
	if slices.Contains(types, "number") && slices.Contains(types, "integer") {
		types = slices.DeleteFunc(types, func(t string) bool { return t == "integer" })
	}
	switch len(types) {
	case 0:
		if nullable {
			fl.enum(n, []any{nil}, nil, nil, true)
		} else {
			fl.raw(n, "`type` allows no value")
		}
	case 1:
		fl.Nullable = nullable
		fl.shapeType(n, types[0], nullable)
	default:
		fl.typeUnion(n, types, nullable)
	}
}

// typeUnion makes a variant picker with one variant per type. A variant
// carries only the type's keywords: the annotations stay on the field.
func (fl *Field) typeUnion(n *node, types []string, nullable bool) {
	var variants []*node
	for _, t := range types {
		v := n.clone()
		v.types = []string{t}
		v.nullOK = false
		v.title, v.desc, v.hasDef, v.def = "", "", false, nil
		variants = append(variants, v)
	}
	fl.union(n, variants, nullable, false)
}

// shapeType gives the field the kind of the one JSON type t.
func (fl *Field) shapeType(n *node, t string, nullable bool) {
	switch t {
	case "string":
		fl.Kind = KindString
	case "number":
		fl.Kind = KindNumber
	case "integer":
		fl.Kind = KindInteger
	case "boolean":
		fl.enum(n, []any{true, false}, nil, nil, nullable)
		fl.Kind = KindBoolean
	case "object":
		fl.object(n, nullable)
	case "array":
		fl.array(n, nullable)
	default:
		fl.raw(n, fmt.Sprintf("unknown type %q: edit as JSON", t))
	}
}

// reannotate refreshes annotations after a nullable collapse: the merged
// node keeps what the outer schema said and adds the branch's.
func (fl *Field) reannotate(n *node) { fl.annotate(n) }

func (fl *Field) raw(n *node, note string) {
	fl.Kind = KindRaw
	fl.Note = note
	fl.Nullable = true
	if n.typeSet && len(n.types) == 1 {
		fl.Expect = n.types[0]
		fl.Nullable = n.nullOK
	}
	if n.unresolved != "" && !strings.Contains(note, n.unresolved) {
		fl.Note = fmt.Sprintf("cannot resolve $ref %q: edit as JSON", n.unresolved)
	}
}

// enum fills Options from values (any JSON type). Values the node's `type`
// forbids are dropped (B15: `type:["string","null"]` with `enum:["fast"]`
// offers only fast). null becomes the "(null)" option.
func (fl *Field) enum(n *node, vals []any, labels, descs []string, nullable bool) {
	fl.Kind = KindEnum
	fl.Options = nil
	mixed := false
	for _, v := range vals {
		if _, ok := v.(string); !ok && v != nil {
			mixed = true
		}
	}
	hasNull := false
	for i, v := range vals {
		if !n.allows(v) {
			continue
		}
		if v == nil {
			hasNull = true
			continue
		}
		if slices.ContainsFunc(fl.Options, func(o Option) bool { return jsonEqual(o.val, v) }) {
			continue
		}
		label := ""
		if i < len(labels) {
			label = labels[i]
		}
		if label == "" {
			label = display(v)
			if _, isStr := v.(string); isStr && mixed {
				label = string(toRaw(v))
			}
		}
		o := Option{Label: label, Value: toRaw(v), Variant: -1, val: v}
		if i < len(descs) {
			o.Description = descs[i]
		}
		fl.Options = append(fl.Options, o)
	}
	// null is offered when the enum lists it (and `type` allows it), or when
	// an anyOf/oneOf branch is null; a bare "null" in `type` beside an enum
	// without null is not enough (B15 `mode`).
	fl.Nullable = hasNull || nullable
	fl.addPseudoOptions()
}

func (fl *Field) addPseudoOptions() {
	if fl.Nullable {
		fl.Options = append(fl.Options, Option{Label: "(null)", Value: json.RawMessage("null"), Null: true, Variant: -1})
	}
	if !fl.Required {
		fl.Options = append(fl.Options, Option{Label: "(omit)", Omit: true, Variant: -1})
	}
}

// union makes a variant picker. With merge, each variant is the base (the
// schema around the anyOf/oneOf) merged with its branch; without, the
// variants are complete already (one per `type`).
func (fl *Field) union(base *node, variants []*node, nullable, merge bool) {
	fl.Kind = KindUnion
	fl.Nullable = nullable
	fl.Options = nil
	fl.variants = nil
	for i, b := range variants {
		v := b
		if merge {
			v = base.clone()
			v.title, v.desc, v.hasDef, v.def = "", "", false, nil
			mergeNode(v, b, true)
		}
		fl.variants = append(fl.variants, v)
		fl.Options = append(fl.Options, Option{Label: fl.variantLabel(b), Description: b.desc, Variant: i})
	}
	fl.addPseudoOptions()
}

// variantLabel names a union branch: its title, the name of the $ref it
// came from, a const discriminator ("kind: circle"), or its type.
func (fl *Field) variantLabel(b *node) string {
	if b.title != "" {
		return b.title
	}
	if b.typeTitle != "" {
		return b.typeTitle
	}
	if len(b.refs) > 0 {
		r := b.refs[0]
		return r[strings.LastIndexAny(r, "/#")+1:]
	}
	for _, p := range b.props {
		pn := fl.form.doc.normalize(p.schema, nil)
		if pn.hasConst {
			return p.name + ": " + display(pn.cnst)
		}
		if pn.hasEnum && len(pn.enum) == 1 {
			return p.name + ": " + display(pn.enum[0])
		}
	}
	if b.typeSet && len(b.types) == 1 {
		t := b.types[0]
		if t == "object" && len(b.props) > 0 {
			var names []string
			for i, p := range b.props {
				if i == 3 {
					names = append(names, "…")
					break
				}
				names = append(names, p.name)
			}
			return "object {" + strings.Join(names, ", ") + "}"
		}
		if t == "array" {
			return "list"
		}
		return t
	}
	if b.hasProps {
		return "object"
	}
	return "value"
}

func (fl *Field) object(n *node, nullable bool) {
	if !n.hasProps && !fl.isRoot() {
		addlFalse := n.hasAddl && n.addl == false
		if !addlFalse && !n.hasAddl {
			fl.raw(n, "")
			fl.Expect = "object"
			fl.Nullable = nullable
			return
		}
	}
	fl.Kind = KindObject
	fl.Nullable = nullable
	fl.materialize = fl.Required && !fl.isRoot()
	if !fl.Required && fl.recursive() {
		fl.lazy = true
		fl.collapsed = true
		fl.Note = "recursive: expand to fill in"
		return
	}
	fl.buildChildren()
}

// recursive reports whether a $ref repeats along this field's path more
// than maxRecursion times: the schema refers back to itself.
func (fl *Field) recursive() bool {
	count := map[string]int{}
	for _, r := range fl.stack {
		count[r]++
		if count[r] > maxRecursion {
			return true
		}
	}
	return false
}

func (fl *Field) ensureBuilt() {
	if fl.lazy {
		fl.lazy = false
		fl.Note = ""
		fl.buildChildren()
	}
}

func (fl *Field) buildChildren() {
	n := fl.node
	fl.children = nil
	for _, p := range n.props {
		req := slices.Contains(n.required, p.name)
		c := fl.form.newField(fl, p.name, append(clonePath(fl.Path), p.name), p.schema, req, fl.Depth+1, fl.stack)
		fl.children = append(fl.children, c)
	}
}

func (fl *Field) array(n *node, nullable bool) {
	fl.Nullable = nullable
	if n.tuple {
		fl.raw(n, "tuple arrays (prefixItems) are edited as JSON")
		fl.Expect = "array"
		fl.Nullable = nullable
		return
	}
	fl.Kind = KindArray
	if n.items != nil {
		in := fl.form.doc.normalize(n.items, nil)
		if vals, labels, ok := fl.itemChoices(in); ok {
			fl.Kind = KindMultiSelect
			fl.enum(in, vals, labels, nil, false)
			fl.Kind = KindMultiSelect
			fl.Nullable = nullable
			fl.Options = slices.DeleteFunc(fl.Options, func(o Option) bool { return o.Null || o.Omit })
		}
	}
}

// itemChoices reports whether array items are a finite set of scalars:
// `items` with `enum`, or `anyOf`/`oneOf` of `const` (MCP 2025-11-25
// elicitation multi-select enums).
func (fl *Field) itemChoices(in *node) ([]any, []string, bool) {
	if vals, ok := in.scalarChoices(); ok {
		if slices.Contains(vals, nil) {
			return nil, nil, false
		}
		return vals, in.enumNames, true
	}
	if len(in.groups) != 1 {
		return nil, nil, false
	}
	var vals []any
	var labels []string
	for _, b := range in.groups[0].branches {
		bn := fl.form.doc.normalize(b, nil)
		cv, ok := bn.scalarChoices()
		if !ok || !bn.hasConst || bn.cnst == nil {
			return nil, nil, false
		}
		vals = append(vals, cv...)
		labels = append(labels, bn.title)
	}
	return vals, labels, true
}

// newItem builds item i of an array from the `items` schema (any JSON value
// when `items` is absent).
func (fl *Field) newItem(i int) *Field {
	var items any = true
	if fl.node != nil && fl.node.items != nil {
		items = fl.node.items
	}
	key := fmt.Sprint(i)
	return fl.form.newField(fl, key, append(clonePath(fl.Path), key), items, true, fl.Depth+1, fl.stack)
}

// buildBody builds the field for the chosen union variant.
func (fl *Field) buildBody() {
	v := fl.variants[fl.Options[fl.sel].Variant].clone()
	depth := fl.Depth + 1
	if isObjectNode(v) {
		depth = fl.Depth // its properties are listed right under the union
	}
	body := fl.form.fieldFromNode(fl, fl.Key, fl.Path, v, true, depth, fl.stack)
	body.Label = fl.Options[fl.sel].Label
	fl.children = []*Field{body}
}

// initial sets the state a field has before the user touches it: required
// fields take their `default` (or their only `const`), and so do members
// of a required object, list item or chosen variant (B16); required
// objects and arrays are present (B16: a required object is sent even
// when its members are untouched); everything else is unset (B19:
// optional fields are omitted, their defaults only shown).
func (fl *Field) initial() {
	fl.userSet = false
	fl.state = Unset
	fl.sel = -1
	if fl.Kind == KindUnion {
		fl.children = nil
	}
	if fl.Default != nil && (fl.Required || (fl.parent != nil && fl.parent.materialize)) {
		fl.prefill()
		return
	}
	if !fl.Required {
		return
	}
	switch fl.Kind {
	case KindEnum:
		if values := fl.valueOptions(); len(values) == 1 {
			fl.sel = values[0]
			fl.state = Set
		}
	case KindObject, KindArray, KindMultiSelect:
		fl.state = Set
		if fl.Kind == KindMultiSelect {
			fl.checked = make([]bool, len(fl.Options))
		}
	case KindUnion:
		fl.sel = 0
		fl.state = Set
		fl.buildBody()
	}
}

// prefill fills the field with its default, as the form's choice (not the user's).
func (fl *Field) prefill() {
	v, err := decodeJSON(fl.Default)
	if err != nil {
		return
	}
	fl.load(v, false)
}

func (fl *Field) valueOptions() []int {
	var idx []int
	for i, o := range fl.Options {
		if !o.Null && !o.Omit && o.Variant < 0 {
			idx = append(idx, i)
		}
	}
	return idx
}

// FillDefaults accepts every `default` the user has not touched, as if
// the user had entered it, so the defaults are sent. Elicitation forms use
// it: clients SHOULD pre-populate form fields with defaults (MCP 2025-11-25
// client/elicitation, SEP-1034). Tool forms normally do not: untouched
// optional fields there are omitted and the server applies its own defaults.
func (f *Form) FillDefaults() {
	defer f.op()()
	var visit func(fl *Field)
	visit = func(fl *Field) {
		if !fl.userSet && fl.Default != nil {
			_ = fl.AcceptDefault() // a default that does not fit is kept as a foreign value
		}
		for _, c := range fl.children {
			visit(c)
		}
	}
	visit(f.root)
}
