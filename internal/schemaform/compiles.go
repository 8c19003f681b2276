package schemaform

import (
	"encoding/json"
	"strings"
)

// Compiles reports whether schema compiles as a JSON Schema with the validator the forms
// and the outputSchema checks use (santhosh-tekuri/jsonschema, 2020-12 unless $schema says
// otherwise, external references refused and left out). When it does not, why says what
// is wrong where in the schema ("it is not a valid JSON Schema: at "/required": got
// string, want array").
func Compiles(schema json.RawMessage) (ok bool, why string) {
	sch, notes := compile(schema, false)
	if sch == nil {
		for i, n := range notes {
			notes[i] = strings.TrimPrefix(n, notCompiled)
		}
		return false, strings.Join(notes, "; ")
	}
	return true, ""
}
