package schemaform

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Limits that keep an untrusted schema from exhausting the inspector
// (MCP 2026-07-28 basic §JSON Schema Usage asks for bounds on composition).
const (
	// maxRefHops bounds one chain of $ref → $ref → … while normalizing a node.
	maxRefHops = 64
	// maxDepth is the deepest nesting of fields built; deeper parts become raw JSON.
	maxDepth = 32
	// maxNodes bounds the schema nodes normalized and fields built by one
	// operation (New, AddItem, Select, SetValue, …); past it, fields are raw JSON.
	maxNodes = 20000
	// maxCost bounds the estimated subschema evaluations per value node
	// (see schemaCost); a costlier schema is not validated.
	maxCost = 200000
	// maxRecursion is how many times one $ref may repeat along a field path
	// before an optional object is built lazily (collapsed until expanded).
	maxRecursion = 1
	// maxCollapses bounds anyOf/oneOf-with-null collapses within one field
	// (a branch that refers back to the same schema would loop).
	maxCollapses = 8
)

// node is a schema after $ref, allOf and keyword merging: what the form
// needs to decide a field's shape. Validation always uses the original schema.
type node struct {
	typeSet bool     // `type` present (after merging)
	types   []string // allowed non-null types, in schema order
	nullOK  bool     // "null" in `type`, or OpenAPI `nullable: true`

	props    []prop
	required []string
	hasProps bool // `properties` keyword present (maybe empty)

	items    any  // `items` schema (2020-12) or single-schema `items` (draft-07)
	hasItems bool // items present
	tuple    bool // `prefixItems`, or `items` given as an array (draft-07 tuple)

	addl    any // additionalProperties schema; false means none allowed
	hasAddl bool

	enum      []any
	hasEnum   bool
	enumNames []string // legacy `enumNames` labels
	cnst      any
	hasConst  bool

	def    any
	hasDef bool

	title, desc, format string
	typeTitle           string // a `title` reached through $ref or allOf: names the type, not the field
	readOnly, writeOnly bool
	deprecated          bool
	examples            []any
	hints               []string

	groups []group // anyOf / oneOf branch lists, in order met

	refs       []string // $ref targets followed to reach this node
	unresolved string   // a $ref that could not be followed
	note       string   // why the node cannot be shown as a structured field
	falseSch   bool     // the schema `false`
}

// group is one anyOf or oneOf keyword: kw names it, branches are its subschemas.
type group struct {
	kw       string
	branches []any
}

type prop struct {
	name   string
	schema any
}

// schemaDoc is the root schema document with what ref resolution needs.
type schemaDoc struct {
	root    any
	id      string // root $id without fragment
	anchors map[string]any
	nodes   int // nodes normalized so far (bounded by maxNodes)
}

func newSchemaDoc(root any) *schemaDoc {
	d := &schemaDoc{root: root}
	if o, ok := root.(*jobj); ok {
		id := o.str("$id")
		if i := strings.IndexByte(id, '#'); i >= 0 {
			id = id[:i]
		}
		d.id = id
	}
	return d
}

// resolve follows a local reference: "#", "#/json/pointer" (RFC 6901 with
// URI percent-encoding, so "#/$defs/X" and the legacy "#/definitions/X"),
// "#anchor" ($anchor, $dynamicAnchor, or a draft-07 "$id":"#anchor"), or
// any of these prefixed by the root's own $id. Anything else is external
// and refused: schemas come from servers and are untrusted.
func (d *schemaDoc) resolve(ref string) (any, string, error) {
	r := ref
	if d.id != "" && strings.HasPrefix(r, d.id+"#") {
		r = r[len(d.id):]
	} else if d.id != "" && r == d.id {
		r = "#"
	}
	if !strings.HasPrefix(r, "#") {
		return nil, "", fmt.Errorf("$ref %q is not local to this schema; external references are never fetched", ref)
	}
	frag := r[1:]
	if frag == "" {
		return d.root, "#", nil
	}
	if !strings.HasPrefix(frag, "/") {
		name, err := url.PathUnescape(frag)
		if err != nil {
			name = frag
		}
		if d.anchors == nil {
			d.anchors = map[string]any{}
			collectAnchors(d.root, d.anchors, 0)
		}
		if v, ok := d.anchors[name]; ok {
			return v, "#" + name, nil
		}
		return nil, "", fmt.Errorf("$ref %q: no $anchor %q in this schema", ref, name)
	}
	cur := d.root
	for _, tok := range strings.Split(frag[1:], "/") {
		if t, err := url.PathUnescape(tok); err == nil {
			tok = t
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case *jobj:
			v, ok := c.get(tok)
			if !ok {
				return nil, "", fmt.Errorf("$ref %q: %q not found", ref, tok)
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(c) || fmt.Sprint(i) != tok {
				return nil, "", fmt.Errorf("$ref %q: bad array index %q", ref, tok)
			}
			cur = c[i]
		default:
			return nil, "", fmt.Errorf("$ref %q: %q is not inside an object", ref, tok)
		}
	}
	return cur, "#" + frag, nil
}

func collectAnchors(v any, into map[string]any, depth int) {
	if depth > 200 {
		return
	}
	switch t := v.(type) {
	case *jobj:
		for _, k := range []string{"$anchor", "$dynamicAnchor"} {
			if a := t.str(k); a != "" {
				if _, dup := into[a]; !dup {
					into[a] = t
				}
			}
		}
		if id := t.str("$id"); strings.HasPrefix(id, "#") && len(id) > 1 {
			if _, dup := into[id[1:]]; !dup {
				into[id[1:]] = t
			}
		}
		for _, k := range t.keys {
			if k == "enum" || k == "const" || k == "default" || k == "examples" {
				continue // data, not subschemas
			}
			collectAnchors(t.vals[k], into, depth+1)
		}
	case []any:
		for _, e := range t {
			collectAnchors(e, into, depth+1)
		}
	}
}

// normalize turns one schema value into a node, following $ref and merging
// allOf. chain holds the refs followed so far in this one normalization (not
// along the field path) to detect ref loops.
func (d *schemaDoc) normalize(s any, chain []string) *node {
	d.nodes++
	if d.nodes > maxNodes {
		return &node{note: "schema too large to show as a form"}
	}
	switch t := s.(type) {
	case bool:
		if !t {
			return &node{falseSch: true, note: "the schema is false: no value is allowed"}
		}
		return &node{}
	case *jobj:
		return d.normalizeObj(t, chain)
	case nil:
		return &node{}
	default:
		return &node{note: fmt.Sprintf("schema is a %s, not an object", jsonType(s))}
	}
}

func (d *schemaDoc) normalizeObj(o *jobj, chain []string) *node {
	n := &node{}
	ref := o.str("$ref")
	if ref == "" {
		if r := o.str("$recursiveRef"); r != "" {
			ref = r
		} else if r := o.str("$dynamicRef"); r != "" {
			ref = r
		}
	}
	if ref != "" {
		target, key, err := d.resolve(ref)
		switch {
		case err != nil:
			n.unresolved = ref
			n.note = err.Error()
		case slices.Contains(chain, key) || len(chain) >= maxRefHops:
			n.unresolved = ref
			n.note = fmt.Sprintf("$ref %q refers to itself without any property in between", ref)
		default:
			t := d.normalize(target, append(slices.Clip(chain), key))
			*n = *t
			n.refs = append([]string{key}, t.refs...)
			// pydantic puts the class name in the $defs title; the
			// property's own title (or its key) labels the field.
			if n.title != "" {
				n.typeTitle = n.title
			}
			n.title = ""
		}
	}
	mergeNode(n, d.own(o), true)
	if all, ok := o.get("allOf"); ok {
		if arr, ok := all.([]any); ok {
			for _, b := range arr {
				bn := d.normalize(b, chain)
				if bn.title != "" && bn.typeTitle == "" {
					bn.typeTitle = bn.title
				}
				bn.title = ""
				mergeNode(n, bn, false)
			}
		}
	}
	return n
}

// own reads the keywords of one schema object, without $ref and allOf.
func (d *schemaDoc) own(o *jobj) *node {
	n := &node{}
	if t, ok := o.get("type"); ok {
		switch tv := t.(type) {
		case string:
			n.typeSet = true
			n.addType(tv)
		case []any:
			n.typeSet = true
			for _, e := range tv {
				if s, ok := e.(string); ok {
					n.addType(s)
				}
			}
		}
	}
	if o.boolean("nullable") { // OpenAPI 3.0, emitted by some generators
		n.nullOK = true
	}
	if p, ok := o.get("properties"); ok {
		n.hasProps = true
		if po, ok := p.(*jobj); ok {
			for _, k := range po.keys {
				n.props = append(n.props, prop{k, po.vals[k]})
			}
		}
	}
	if r, ok := o.get("required"); ok {
		if arr, ok := r.([]any); ok {
			for _, e := range arr {
				if s, ok := e.(string); ok && !slices.Contains(n.required, s) {
					n.required = append(n.required, s)
				}
			}
		}
	}
	if it, ok := o.get("items"); ok {
		n.hasItems = true
		if _, isArr := it.([]any); isArr {
			n.tuple = true
		} else {
			n.items = it
		}
	}
	if _, ok := o.get("prefixItems"); ok {
		n.hasItems = true
		n.tuple = true
	}
	if a, ok := o.get("additionalProperties"); ok {
		n.hasAddl = true
		n.addl = a
	}
	if e, ok := o.get("enum"); ok {
		if arr, ok := e.([]any); ok {
			n.hasEnum = true
			n.enum = arr
		}
	}
	for _, k := range []string{"enumNames", "x-enumNames"} {
		if e, ok := o.get(k); ok {
			if arr, ok := e.([]any); ok {
				for _, s := range arr {
					str, _ := s.(string)
					n.enumNames = append(n.enumNames, str)
				}
				break
			}
		}
	}
	if c, ok := o.get("const"); ok {
		n.hasConst = true
		n.cnst = c
	}
	if v, ok := o.get("default"); ok {
		n.hasDef = true
		n.def = v
	}
	n.title = o.str("title")
	n.desc = o.str("description")
	n.format = o.str("format")
	n.readOnly = o.boolean("readOnly")
	n.writeOnly = o.boolean("writeOnly")
	n.deprecated = o.boolean("deprecated")
	if e, ok := o.get("examples"); ok {
		if arr, ok := e.([]any); ok {
			n.examples = arr
		}
	}
	n.hints = constraintHints(o)
	for _, k := range []string{"anyOf", "oneOf"} {
		if g, ok := o.get(k); ok {
			if arr, ok := g.([]any); ok && len(arr) > 0 {
				n.groups = append(n.groups, group{kw: k, branches: arr})
			}
		}
	}
	return n
}

func (n *node) addType(t string) {
	if t == "null" {
		n.nullOK = true
		return
	}
	if !slices.Contains(n.types, t) {
		n.types = append(n.types, t)
	}
}

// mergeNode merges src into dst as allOf does: types intersect, properties
// and required lists join, enums intersect. For annotations (title,
// description, default, format…) src wins when srcWins, else dst keeps its own.
func mergeNode(dst, src *node, srcWins bool) {
	mergeTypes(dst, src)
	mergeMembers(dst, src)
	mergeChoices(dst, src, srcWins)
	mergeAnnotations(dst, src, srcWins)
	dst.groups = append(dst.groups, src.groups...)
	for _, r := range src.refs {
		dst.refs = appendNew(dst.refs, r)
	}
	if dst.unresolved == "" && src.unresolved != "" {
		dst.unresolved = src.unresolved
	}
	if dst.note == "" {
		dst.note = src.note
	}
	dst.falseSch = dst.falseSch || src.falseSch
}

// mergeTypes intersects the `type`s (integer is the common part of number
// and integer); null stays allowed only if both allow it. A side without
// `type` allows every type.
func mergeTypes(dst, src *node) {
	switch {
	case dst.typeSet && src.typeSet:
		var both []string
		for _, t := range dst.types {
			for _, u := range src.types {
				switch {
				case t == u:
					both = appendNew(both, t)
				case t == "number" && u == "integer", t == "integer" && u == "number":
					both = appendNew(both, "integer")
				}
			}
		}
		dst.types = both
		dst.nullOK = dst.nullOK && src.nullOK
	case src.typeSet:
		dst.typeSet = true
		dst.types = slices.Clone(src.types)
		dst.nullOK = src.nullOK
	default:
		if !dst.typeSet && src.nullOK {
			dst.nullOK = true
		}
	}
}

// mergeMembers joins properties (one named on both sides gets both schemas
// through allOf), required lists, items (tuples stay tuples) and
// additionalProperties (src's when dst has none; false wins).
func mergeMembers(dst, src *node) {
	dst.hasProps = dst.hasProps || src.hasProps
	for _, p := range src.props {
		i := slices.IndexFunc(dst.props, func(q prop) bool { return q.name == p.name })
		if i < 0 {
			dst.props = append(dst.props, p)
			continue
		}
		dst.props[i].schema = allOfPair(dst.props[i].schema, p.schema)
	}
	for _, r := range src.required {
		dst.required = appendNew(dst.required, r)
	}
	if src.hasItems {
		switch {
		case !dst.hasItems:
			dst.hasItems, dst.items, dst.tuple = true, src.items, src.tuple
		case dst.tuple || src.tuple:
			dst.tuple = true
		default:
			dst.items = allOfPair(dst.items, src.items)
		}
	}
	if src.hasAddl {
		if !dst.hasAddl || src.addl == false {
			dst.hasAddl, dst.addl = true, src.addl
		}
	}
}

// mergeChoices intersects the enums, in dst's order, and takes src's const
// when dst has none or srcWins. dst's enumNames follow their values, so a
// dropped value takes its label with it.
func mergeChoices(dst, src *node, srcWins bool) {
	if src.hasEnum {
		if dst.hasEnum {
			var both []any
			var names []string
			for i, v := range dst.enum {
				if !slices.ContainsFunc(src.enum, func(w any) bool { return jsonEqual(v, w) }) {
					continue
				}
				both = append(both, v)
				if i < len(dst.enumNames) {
					names = append(names, dst.enumNames[i])
				}
			}
			dst.enum, dst.enumNames = both, names
		} else {
			dst.hasEnum, dst.enum, dst.enumNames = true, src.enum, src.enumNames
		}
	}
	if src.hasConst && (!dst.hasConst || srcWins) {
		dst.hasConst, dst.cnst = true, src.cnst
	}
}

// mergeAnnotations takes src's default, title, description, format and
// examples where dst has none or srcWins; flags and hints join.
func mergeAnnotations(dst, src *node, srcWins bool) {
	if src.hasDef && (!dst.hasDef || srcWins) {
		dst.hasDef, dst.def = true, src.def
	}
	pick := func(d *string, s string) {
		if s != "" && (*d == "" || srcWins) {
			*d = s
		}
	}
	pick(&dst.title, src.title)
	if dst.typeTitle == "" {
		dst.typeTitle = src.typeTitle
	}
	pick(&dst.desc, src.desc)
	pick(&dst.format, src.format)
	dst.readOnly = dst.readOnly || src.readOnly
	dst.writeOnly = dst.writeOnly || src.writeOnly
	dst.deprecated = dst.deprecated || src.deprecated
	if len(src.examples) > 0 && (len(dst.examples) == 0 || srcWins) {
		dst.examples = src.examples
	}
	for _, h := range src.hints {
		dst.hints = appendNew(dst.hints, h)
	}
}

func appendNew[T comparable](s []T, v T) []T {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// allOfPair builds the synthetic schema {"allOf":[a,b]}.
func allOfPair(a, b any) any {
	o := newObj()
	o.set("allOf", []any{a, b})
	return o
}

// clone copies a node deeply enough that merging into the copy leaves n alone.
func (n *node) clone() *node {
	c := *n
	c.types = slices.Clone(n.types)
	c.props = slices.Clone(n.props)
	c.required = slices.Clone(n.required)
	c.hints = slices.Clone(n.hints)
	c.groups = slices.Clone(n.groups)
	c.refs = slices.Clone(n.refs)
	return &c
}

// isNullOnly reports whether the node admits only null: {"type":"null"},
// {"const":null} or {"enum":[null]}.
func (n *node) isNullOnly() bool {
	if n.hasConst {
		return n.cnst == nil
	}
	if n.hasEnum {
		if len(n.enum) == 0 {
			return false
		}
		for _, v := range n.enum {
			if v != nil {
				return false
			}
		}
		return true
	}
	return n.typeSet && len(n.types) == 0 && n.nullOK
}

// shapeless reports whether a branch only asserts (required, not, min…) and
// says nothing about the value's shape, like {"required":["phone"]}.
func (n *node) shapeless() bool {
	return !n.typeSet && !n.hasProps && !n.hasItems && !n.hasEnum && !n.hasConst &&
		len(n.groups) == 0 && len(n.refs) == 0 && n.unresolved == "" && !n.falseSch
}

// scalarChoices reports whether the node is a finite choice of values
// (`const`, or `enum` of any JSON values) and returns them.
func (n *node) scalarChoices() ([]any, bool) {
	switch {
	case n.hasConst:
		return []any{n.cnst}, true
	case n.hasEnum:
		return n.enum, true
	}
	return nil, false
}

// allows reports whether the node's `type` admits value v.
func (n *node) allows(v any) bool {
	if !n.typeSet {
		return true
	}
	got := jsonType(v)
	if got == "null" {
		return n.nullOK
	}
	for _, t := range n.types {
		if typeAllows(t, got) {
			return true
		}
	}
	return false
}

func constraintHints(o *jobj) []string {
	var h []string
	num := func(k string) (string, bool) {
		v, ok := o.get(k)
		if !ok {
			return "", false
		}
		if n, ok := v.(json.Number); ok {
			return string(n), true
		}
		return "", false
	}
	minL, hasMinL := num("minLength")
	maxL, hasMaxL := num("maxLength")
	switch {
	case hasMinL && hasMaxL:
		h = append(h, fmt.Sprintf("%s–%s characters", minL, maxL))
	case hasMinL:
		h = append(h, fmt.Sprintf("at least %s %s", minL, plural(minL, "character")))
	case hasMaxL:
		h = append(h, fmt.Sprintf("at most %s %s", maxL, plural(maxL, "character")))
	}
	if p := o.str("pattern"); p != "" {
		h = append(h, "pattern "+p)
	}
	if v, ok := num("minimum"); ok {
		h = append(h, "≥ "+v)
	}
	if v, ok := num("exclusiveMinimum"); ok {
		h = append(h, "> "+v)
	}
	if v, ok := num("maximum"); ok {
		h = append(h, "≤ "+v)
	}
	if v, ok := num("exclusiveMaximum"); ok {
		h = append(h, "< "+v)
	}
	if v, ok := num("multipleOf"); ok {
		h = append(h, "multiple of "+v)
	}
	minI, hasMinI := num("minItems")
	maxI, hasMaxI := num("maxItems")
	switch {
	case hasMinI && hasMaxI:
		h = append(h, fmt.Sprintf("%s–%s items", minI, maxI))
	case hasMinI:
		h = append(h, fmt.Sprintf("at least %s %s", minI, plural(minI, "item")))
	case hasMaxI:
		h = append(h, fmt.Sprintf("at most %s %s", maxI, plural(maxI, "item")))
	}
	minP, hasMinP := num("minProperties")
	maxP, hasMaxP := num("maxProperties")
	switch {
	case hasMinP && hasMaxP:
		h = append(h, fmt.Sprintf("%s–%s properties", minP, maxP))
	case hasMinP:
		h = append(h, fmt.Sprintf("at least %s %s", minP, pluralProp(minP)))
	case hasMaxP:
		h = append(h, fmt.Sprintf("at most %s %s", maxP, pluralProp(maxP)))
	}
	if o.boolean("uniqueItems") {
		h = append(h, "no duplicates")
	}
	return h
}

func plural(n, word string) string {
	if n == "1" {
		return word
	}
	return word + "s"
}

func pluralProp(n string) string {
	if n == "1" {
		return "property"
	}
	return "properties"
}
