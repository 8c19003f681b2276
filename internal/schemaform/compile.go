package schemaform

// Compiling a schema from a server into a validator: nothing external is
// loaded, composition is bounded, and what cannot be checked becomes a note.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is where the in-memory schema is registered for the compiler.
// Relative references resolve against it and then reach refuseLoader.
const schemaURL = "https://mcp-inspect.invalid/schema.json"

// refuseLoader refuses every external resource: schemas come from servers
// and are untrusted (MCP 2026-07-28 basic §JSON Schema Usage: implementations
// MUST NOT automatically dereference network $ref). Meta-schemas of the
// known drafts are built into the validator and never reach a loader.
type refuseLoader struct{}

// Load always fails, naming the URL.
func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external reference %s is not fetched (schemas from servers are untrusted)", url)
}

// matchAll stands in for a `pattern` Go's RE2 engine cannot compile
// (lookahead, backreferences): it is reported and not checked.
type matchAll string

func (m matchAll) MatchString(string) bool { return true }
func (m matchAll) String() string          { return string(m) }

// compile builds a validator for schema with the santhosh-tekuri/jsonschema
// compiler: JSON Schema 2020-12 unless `$schema` names another draft (4, 6,
// 7, 2019-09), every external reference refused. A schema that does not
// compile as given is retried without its external `$ref`s, then without an
// unknown `$schema`; the notes say what was left out. When nothing
// compiles the validator is nil and the notes say why.
func compile(schema json.RawMessage, assertFormat bool) (*jsonschema.Schema, []string) {
	trimmed := strings.TrimSpace(string(schema))
	if trimmed == "" || trimmed == "null" {
		schema = json.RawMessage("true")
	}
	attempt := func(doc any) (*jsonschema.Schema, []string, error) {
		var notes []string
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.UseLoader(refuseLoader{})
		if assertFormat {
			c.AssertFormat()
		}
		c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
			re, err := regexp.Compile(s)
			if err != nil {
				notes = appendNew(notes, fmt.Sprintf("pattern %q is not checked: Go's regexp engine cannot run it", s))
				return matchAll(s), nil
			}
			return re, nil
		})
		if err := c.AddResource(schemaURL, doc); err != nil {
			return nil, nil, err
		}
		sch, err := c.Compile(schemaURL)
		return sch, notes, err
	}
	if d, err := decodeJSON(schema); err == nil {
		if c := schemaCost(newSchemaDoc(d)); c > maxCost {
			return nil, []string{"the schema is too complex to check (composition nested too deeply): values are not checked"}
		}
	}
	decode := func() (any, error) {
		return jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	}
	doc, err := decode()
	if err != nil {
		return nil, []string{"the schema is not valid JSON: " + err.Error()}
	}
	sch, notes, err := attempt(doc)
	if err == nil {
		return sch, notes
	}
	firstErr := err

	doc, _ = decode()
	var dropped []string
	stripExternalRefs(doc, &dropped, 0)
	if len(dropped) > 0 {
		if sch, notes, err := attempt(doc); err == nil {
			for _, r := range dropped {
				notes = append(notes, fmt.Sprintf("$ref %q is external and not followed: that part is not checked", r))
			}
			return sch, notes
		}
	}
	if o, ok := doc.(map[string]any); ok {
		if d, ok := o["$schema"].(string); ok {
			delete(o, "$schema")
			if sch, notes, err := attempt(doc); err == nil {
				for _, r := range dropped {
					notes = append(notes, fmt.Sprintf("$ref %q is external and not followed: that part is not checked", r))
				}
				notes = append(notes, fmt.Sprintf("dialect %q is not supported: checked as JSON Schema 2020-12", d))
				return sch, notes
			}
		}
	}
	note := notCompiled + compileErrText(firstErr)
	if strings.Contains(note, "got null, want number") || strings.Contains(note, "got null, want integer") {
		note += nullNumberHint
	}
	return nil, []string{note}
}

// nullNumberHint follows a message about null where a number belongs: JSON has no NaN or
// Infinity, and JavaScript's JSON.stringify (and other encoders) write them as null, so a
// computed bound or value that came out non-finite arrives as null (issue 24).
const nullNumberHint = " (a NaN or Infinity turned into null? JSON has no such numbers, and JavaScript's JSON.stringify writes them as null)"

// notCompiled starts the note of a schema that does not compile.
const notCompiled = "the schema does not compile, so values are not checked: "

// schemaCost estimates the most subschemas one value node may be checked
// against. Applicators on the same value (allOf, anyOf, oneOf, not,
// if/then/else, dependentSchemas, $ref) add up; subschemas for members and
// items apply to other value nodes, so only the costliest counts. A local
// $ref counts as its target (memoized; a ref back into a target being
// measured counts 1, as recursion only goes as deep as the value). Nested
// allOf/anyOf of the same refs grow exponentially here and are refused
// before the validator runs (MCP 2026-07-28 basic §JSON Schema Usage: bound
// composition). The result saturates just above maxCost.
func schemaCost(d *schemaDoc) int {
	memo := map[string]int{}
	measuring := map[string]bool{}
	add := func(a, b int) int {
		if a+b > maxCost {
			return maxCost + 1
		}
		return a + b
	}
	var cost func(v any, depth int) int
	// all applies cost to each subschema held by a keyword's value (a
	// schema, an array of schemas, or an object of schemas) and sums or maxes.
	all := func(v any, depth int, sum bool, named bool) int {
		c := 0
		each := func(e any) {
			x := cost(e, depth+1)
			if sum {
				c = add(c, x)
			} else {
				c = max(c, x)
			}
		}
		switch t := v.(type) {
		case []any:
			for _, e := range t {
				each(e)
			}
		case *jobj:
			if named {
				for _, k := range t.keys {
					each(t.vals[k])
				}
			} else {
				each(t)
			}
		case bool:
		}
		return c
	}
	cost = func(v any, depth int) int {
		if depth > 500 {
			return maxCost + 1
		}
		t, ok := v.(*jobj)
		if !ok {
			return 1
		}
		same, child := 1, 0
		for _, k := range t.keys {
			val := t.vals[k]
			switch k {
			case "allOf", "anyOf", "oneOf", "not", "if", "then", "else":
				same = add(same, all(val, depth, true, false))
			case "dependentSchemas":
				same = add(same, all(val, depth, true, true))
			case "properties", "patternProperties":
				child = max(child, all(val, depth, false, true))
			case "additionalProperties", "items", "prefixItems", "contains", "propertyNames",
				"unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema":
				child = max(child, all(val, depth, false, false))
			}
		}
		for _, rk := range []string{"$ref", "$dynamicRef", "$recursiveRef"} {
			ref := t.str(rk)
			if ref == "" {
				continue
			}
			target, key, err := d.resolve(ref)
			if err != nil {
				continue
			}
			m, ok := memo[key]
			switch {
			case ok:
			case measuring[key]:
				m = 1
			default:
				measuring[key] = true
				m = cost(target, depth+1)
				measuring[key] = false
				memo[key] = m
			}
			same = add(same, m)
		}
		return max(same, child)
	}
	return cost(d.root, 0)
}

// compileErrText says why a schema does not compile in the schema's own terms: where
// (a JSON pointer into the schema) and what the keyword there should be, without the
// validator's internal URLs and nesting ("'allOf' failed").
func compileErrText(err error) string {
	var le *jsonschema.LoadURLError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	var pe *jsonschema.JSONPointerNotFoundError
	if errors.As(err, &pe) {
		return fmt.Sprintf("$ref %q points to nothing in the schema", localRef(pe.URL))
	}
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		if ve, ok := sve.Err.(*jsonschema.ValidationError); ok {
			sortCauses(ve, 0)
			if t := leafText(ve); t != "" {
				return "it is not a valid JSON Schema: " + t
			}
		}
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		sortCauses(ve, 0)
	}
	return strings.ReplaceAll(err.Error(), schemaURL, "")
}

// localRef is a URL of the in-memory schema as the schema wrote it ("#/$defs/x").
func localRef(u string) string {
	if r, ok := strings.CutPrefix(u, schemaURL); ok {
		return r
	}
	return u
}

// leafText lists the innermost errors of a meta-schema validation, the alternatives at one
// place joined with "or": `at "/properties/a/type": got string, want array, or value must
// be one of …`.
func leafText(ve *jsonschema.ValidationError) string {
	var order []string
	at := map[string][]string{}
	var walk func(e *jsonschema.ValidationError, depth int)
	walk = func(e *jsonschema.ValidationError, depth int) {
		if depth > 100 {
			return
		}
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c, depth+1)
			}
			return
		}
		toks := make([]string, len(e.InstanceLocation))
		for i, t := range e.InstanceLocation {
			toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1") // RFC 6901
		}
		loc := "/" + strings.Join(toks, "/")
		msg := e.Error()
		if i := strings.Index(msg, "': "); strings.HasPrefix(msg, "at '") && i >= 0 {
			msg = msg[i+3:]
		}
		if at[loc] == nil {
			order = append(order, loc)
		}
		if !slices.Contains(at[loc], msg) {
			at[loc] = append(at[loc], msg)
		}
	}
	walk(ve, 0)
	var parts []string
	for _, loc := range order {
		where := strconv.Quote(loc)
		if loc == "/" {
			where = "the root"
		}
		parts = append(parts, "at "+where+": "+strings.Join(at[loc], ", or "))
	}
	return strings.Join(parts, "; ")
}

// sortCauses orders a validation error's causes, at every level, by their text: the
// library lists them in map order, so the same schema would read differently each time.
func sortCauses(ve *jsonschema.ValidationError, depth int) {
	if ve == nil || depth > 100 {
		return
	}
	for _, c := range ve.Causes {
		sortCauses(c, depth+1)
	}
	slices.SortStableFunc(ve.Causes, func(a, b *jsonschema.ValidationError) int {
		return strings.Compare(a.Error(), b.Error())
	})
}

// stripExternalRefs deletes `$ref`s that do not start with "#" from a
// schema decoded by jsonschema.UnmarshalJSON (maps, not *jobj).
func stripExternalRefs(v any, dropped *[]string, depth int) {
	if depth > 200 {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		for _, k := range []string{"$ref", "$dynamicRef", "$recursiveRef"} {
			if r, ok := t[k].(string); ok && !strings.HasPrefix(r, "#") {
				*dropped = appendNew(*dropped, r)
				delete(t, k)
			}
		}
		for k, e := range t {
			if k == "enum" || k == "const" || k == "default" || k == "examples" {
				continue
			}
			stripExternalRefs(e, dropped, depth+1)
		}
	case []any:
		for _, e := range t {
			stripExternalRefs(e, dropped, depth+1)
		}
	}
}

func (f *Form) validator() (*jsonschema.Schema, []string) {
	if !f.compiled {
		f.compiled = true
		// Formats are asserted in forms: a date-time field is checked
		// before sending (B19), even though 2020-12 only annotates `format`.
		f.vschema, f.schemaNotes = compile(f.schema, true)
	}
	return f.vschema, f.schemaNotes
}

// Notes returns form-level notes about the schema: what could not be
// compiled or is not checked (external $ref, unknown dialect, unsupported
// regular expressions). Field-level notes are on Field.Note.
func (f *Form) Notes() []string {
	_, notes := f.validator()
	return append(slices.Clone(f.notes), notes...)
}
