package schemaform

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 24 §3: null where a number belongs is what a NaN or Infinity becomes through
// JSON.stringify; the message says so, for a value and for a schema's own keyword.
func TestNullWhereANumberBelongsHintsAtNaN(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(`{"type":"object","properties":{"x":{"type":"number"},"n":{"type":"integer"},"s":{"type":"string"}}}`)
	got := ValidateValue(schema, json.RawMessage(`{"x":null,"n":null,"s":null}`))
	byPath := map[string]string{}
	for _, fe := range got {
		byPath[strings.Join(fe.Path, ".")] = fe.Message
	}
	for _, p := range []string{"x", "n"} {
		if m := byPath[p]; !strings.Contains(m, "not null (a NaN or Infinity turned into null?") {
			t.Errorf("%s: %q lacks the NaN hint", p, m)
		}
	}
	if m := byPath["s"]; m == "" || strings.Contains(m, "NaN") {
		t.Errorf("s: %q: a string field's null is no NaN", m)
	}

	notes := ValidateValue(json.RawMessage(`{"type":"object","properties":{"x":{"type":"number","maximum":null}}}`), json.RawMessage(`{}`))
	if len(notes) != 1 || !strings.Contains(notes[0].Message, "got null, want number (a NaN or Infinity turned into null?") {
		t.Errorf("schema note: %+v", notes)
	}
	f, err := New(json.RawMessage(`{"type":"object","properties":{"x":{"type":"number"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, fe := range f.ValidateJSON(json.RawMessage(`{"x":null}`)) {
		found = found || strings.Contains(fe.Error(), "NaN or Infinity")
	}
	if !found {
		t.Errorf("the form's check of {\"x\":null} lacks the hint: %+v", f.ValidateJSON(json.RawMessage(`{"x":null}`)))
	}
}
