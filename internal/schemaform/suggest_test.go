package schemaform

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestSuggestions(t *testing.T) {
	f := mustNew(t, `{"type":"object","properties":{
		"when":{"type":"string","format":"date-time"},
		"tag":{"type":"string","examples":["alpha","beta"],"format":"email"},
		"n":{"type":"integer","examples":[3]},
		"plain":{"type":"string"}}}`)
	got := func(path string) []string {
		var out []string
		for _, s := range field(t, f, path).Suggestions() {
			out = append(out, string(s))
		}
		return out
	}
	if g := got("when"); !slices.Equal(g, []string{`"2025-01-31T09:30:00Z"`}) {
		t.Errorf("when: %q", g)
	}
	if g := got("tag"); !slices.Equal(g, []string{`"alpha"`, `"beta"`}) {
		t.Errorf("tag: examples first, got %q", g)
	}
	if g := got("n"); !slices.Equal(g, []string{`3`}) {
		t.Errorf("n: %q", g)
	}
	if g := got("plain"); g != nil {
		t.Errorf("plain: %q", g)
	}
	// A suggestion loads as the user's value, with its JSON type.
	setJSON(t, f, "n", string(field(t, f, "n").Suggestions()[0]))
	setJSON(t, f, "when", string(field(t, f, "when").Suggestions()[0]))
	wantValue(t, f, `{"when":"2025-01-31T09:30:00Z","n":3}`)
	wantErrors(t, f)
}

func TestValidateJSON(t *testing.T) {
	f := load(t, "b19_optional_fields.json")
	check := func(value string, want ...string) {
		t.Helper()
		got := errorLines(f.ValidateJSON(json.RawMessage(value)))
		if !slices.Equal(got, want) {
			t.Errorf("ValidateJSON(%s)\n got %q\nwant %q", value, got, want)
		}
	}
	check(`{"query":"heart"}`)
	check(`{"query":"heart","page_size":1.5}`, "page_size: must be an integer, not a number")
	// Formats are asserted, as in Validate (B19: a date-time is checked before sending).
	check(`{"query":"q","filters":{"since":"yesterday"}}`, "filters.since: must be a valid date-time, like 2025-01-31T09:30:00Z")
	check(`{"query":`, ": not valid JSON: unexpected end of JSON input (line 1, column 10)")
	check(`{}`, `: missing required property "query"`)
	// The form's own value is untouched.
	wantValue(t, f, `{}`)
}
