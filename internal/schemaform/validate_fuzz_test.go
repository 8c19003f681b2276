package schemaform

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzValidateValue checks any value against any schema: no panic, the same findings every
// time (sorted by path), no Field on them; the schemas true and {} accept every JSON value,
// and false accepts none.
func FuzzValidateValue(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data, []byte(`{"a":1,"b":[true,null,"x"]}`))
		}
	}
	f.Add([]byte(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}`), []byte(`{"n":0}`))
	f.Add([]byte(`{"$ref":"#/$defs/x","$defs":{"x":{"anyOf":[{"$ref":"#"},{"type":"string","format":"email"}]}}}`), []byte(`"a@b"`))
	f.Fuzz(func(t *testing.T, schema, value []byte) {
		a := ValidateValue(schema, value)
		b := ValidateValue(schema, value)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("two checks differ:\n%v\n%v", a, b)
		}
		for _, fe := range a {
			if fe.Field != nil {
				t.Fatalf("a finding with a Field: %+v", fe)
			}
		}
		if !json.Valid(value) {
			return
		}
		for _, s := range []string{`true`, `{}`} {
			if errs := ValidateValue(json.RawMessage(s), value); len(errs) != 0 {
				t.Fatalf("schema %s refused %s: %v", s, value, errs)
			}
		}
		if errs := ValidateValue(json.RawMessage(`false`), value); len(errs) == 0 {
			t.Fatalf("schema false accepted %s", value)
		}
	})
}
