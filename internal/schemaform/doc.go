// Package schemaform turns a JSON Schema into an editable form model: a
// tree of fields, the JSON value they make, and validation of that value.
// It has no UI imports; a bubbletea view drives it through Form and Field.
//
// It serves tool arguments (MCP 2025-11-25 server/tools `inputSchema`) and
// elicitation (`requestedSchema`, MCP 2025-11-25 client/elicitation), and
// checks a tool result's `structuredContent` against its `outputSchema`
// (ValidateValue). Prompt arguments and resource template variables are
// plain strings with no schema and do not go through it.
//
// # Using it
//
//	f, _ := schemaform.New(tool.InputSchema)
//	for _, fl := range f.Fields() {        // visible rows, Depth for indentation
//		// show fl.Label, fl.Required, fl.Placeholder(), fl.Text() or
//		// fl.Options[fl.Selected()], fl.Error(), fl.Note, fl.Hints …
//	}
//	fl.SetText("42")                        // text kinds
//	fl.Select(i); fl.Cycle(+1)              // boolean, enum, union
//	fl.Toggle(i)                            // multi-select
//	fl.AddItem(); fl.RemoveItem(i)          // lists
//	fl.AddEntry("k"); fl.RemoveEntry("k")   // maps (additionalProperties)
//	fl.SetNull(); fl.Clear(); fl.Reset()
//	args, err := f.Value()                  // exactly what is sent
//	args, probs := f.ValueAsTyped()         // "send anyway": unparseable text sent as typed
//	problems := f.Validate()                // worded, mapped to fields
//	f.SetValue(raw)                         // from a raw JSON editor or history
//	f.ValidateJSON(raw)                     // live check of the raw editor's text
//
// # What is sent
//
// Value holds exactly the fields the user set, plus required fields that
// have a default. Inside a required object (and in each new list item and
// chosen object variant) the members' defaults are filled in too: the
// object is sent, so it is sent as the server's defaults describe it (case
// B16). Untouched optional fields are omitted, never sent as null; their
// defaults are only shown as placeholders (B19). Numbers are sent as
// typed; integers exactly (never through float64), and 1e3 or 2.0 typed
// into an integer field are sent as 1000 and 2; digits typed into a
// string field stay a string, enum values keep their JSON type (2, not
// "2"), objects are objects.
//
// # Keywords
//
// JSON Schema 2020-12 keyword names; drafts 4 to 2019-09 are read the same
// way for building the form, and validated by their own rules.
//
//	type: string/number/integer/boolean   text field (number/integer parsed exactly) or true/false select
//	type: object + properties             group of child fields, in schema order
//	type: object without properties       raw JSON field expecting an object (unless additionalProperties)
//	additionalProperties: schema or true  entries: keys named by the user (AddEntry, RemoveEntry,
//	                                      RenameEntry), values built from that schema (true: raw JSON)
//	additionalProperties: false / absent  no entries; loaded unknown keys kept (Extra) and reported
//	type: array + items                   list of item fields (add, remove, move); items of any kind
//	type: array, items absent             list of raw JSON items
//	items with enum / anyOf of const      multi-select
//	prefixItems, items as an array        raw JSON field expecting an array
//	type: [T, "null"]                     field of type T with a (null) choice
//	type: [T1, T2, …]                     variant picker, one variant per type
//	type: "null"                          select with only (null)
//	enum, const (any JSON values)         select; null becomes (null); values the `type` forbids dropped
//	enumNames, x-enumNames                option labels
//	anyOf/oneOf of const (+title)         select with the titles as labels
//	anyOf/oneOf with a null branch        the other branch, with a (null) choice
//	anyOf/oneOf of several shapes         variant picker (title, $defs name, const discriminator or type as label)
//	anyOf/oneOf of assertions only        not shown (e.g. anyOf of `required`); validated
//	allOf                                 merged: properties and required joined, types and enums intersected
//	$ref "#", "#/…", "#anchor"            followed ($defs, definitions, any JSON Pointer, $anchor,
//	                                      $dynamicAnchor, $recursiveRef/$dynamicRef treated alike)
//	$ref external or broken               raw JSON field, Note naming the ref; never fetched
//	recursive $ref                        lists: item by item; optional objects: collapsed until expanded;
//	                                      nesting beyond 32 levels: raw JSON
//	required                              Required marker; required defaults filled in
//	default (null means none)             Default, shown by Placeholder; sent only when required or accepted
//	title, description                    Label (a $defs title labels a variant, not the field), Description
//	format                                Format and FormatHint ("YYYY-MM-DD"); checked by Validate
//	examples                              Examples; Suggestions (examples, else a value of the format)
//	readOnly, deprecated                  flags on the field
//	min/maxLength, pattern, minimum, maximum, exclusive*, multipleOf, min/maxItems, uniqueItems,
//	min/maxProperties                     Hints in words; checked by Validate
//	patternProperties, propertyNames, if/then/else, not, dependent*, contains, …
//	                                      not shown; checked by Validate; unknown loaded keys kept (Extra)
//	{}, true, missing type                 raw JSON field (any value)
//	false                                 raw JSON field with a Note: no value is allowed
//
// # Validation
//
// Validation uses github.com/santhosh-tekuri/jsonschema/v6 on the schema as
// received: dialect from `$schema`, JSON Schema 2020-12 when absent (MCP
// 2025-11-25 basic §JSON Schema Usage). No external resource is ever
// loaded: not files, not the network. A schema that does not compile
// leaves the form usable; validation then reports one form-level note.
package schemaform
