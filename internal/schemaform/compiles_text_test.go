package schemaform

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCompilesSaysWhere: a schema that does not compile is explained in the schema's own
// terms, a JSON pointer into it and what the keyword there should be, never with the
// validator's internals (its in-memory URL, the meta-schema's "'allOf' failed" nesting).
func TestCompilesSaysWhere(t *testing.T) {
	for schema, want := range map[string]string{
		`{"type":"object","properties":{"a":{"type":"text"}}}`:         `at "/properties/a/type": got string, want array, or value must be one of 'array', 'boolean'`,
		`{"type":"object","required":"a"}`:                             `at "/required": got string, want array`,
		`{"type":"object","properties":{"a/b":{"minimum":"3"}}}`:       `at "/properties/a~1b/minimum": got string, want number`,
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/nope"}}}`: `$ref "#/$defs/nope" points to nothing in the schema`,
	} {
		ok, why := Compiles(json.RawMessage(schema))
		if ok || !strings.Contains(why, want) {
			t.Errorf("%s: %v %q, want %q", schema, ok, why, want)
		}
		for _, internal := range []string{schemaURL, "metaschema", "'allOf' failed", "json-pointer", "does not compile, so"} {
			if strings.Contains(why, internal) {
				t.Errorf("%s: %q shows %q", schema, why, internal)
			}
		}
	}
}
