package schemaform

import (
	"encoding/json"
	"errors"
	"testing"
)

// Send anyway sends what the user typed: text that does not parse for its field goes
// out as the JSON value it is, else as a string; Value still leaves it out.
func TestValueAsTyped(t *testing.T) {
	f := mustNew(t, `{"type":"object","properties":{
		"n":{"type":"number"},"i":{"type":"integer"},"o":{"type":"object"},"any":{},
		"s":{"type":"string"},"l":{"type":"array","items":{"type":"string"}}},"required":["n"]}`)
	_ = field(t, f, "n").SetText("abc")
	_ = field(t, f, "i").SetText("1.5")
	_ = field(t, f, "o").SetText("[1]")
	_ = field(t, f, "any").SetText(`{"a":`)
	setText(t, f, "s", "ok")
	addItem(t, f, "l") // an empty item: left out in both
	if v, err := f.Value(); string(v) != `{"s":"ok","l":[]}` || err == nil {
		t.Errorf("Value %s %v", v, err)
	}
	v, probs := f.ValueAsTyped()
	if want := `{"n":"abc","i":1.5,"o":[1],"any":"{\"a\":","s":"ok","l":[]}`; string(v) != want {
		t.Errorf("ValueAsTyped\n got %s\nwant %s", v, want)
	}
	var paths []string
	for _, p := range probs {
		paths = append(paths, p.Error())
	}
	want := []string{"n: must be a number, like 42, -1.5 or 1e3", "i: must be an integer (no fractional part)",
		"o: must be an object", `any: not valid JSON: unexpected end of JSON input (line 1, column 6)`, "l.0: empty item: fill it in or remove it"}
	if len(paths) != len(want) {
		t.Fatalf("problems %q, want %q", paths, want)
	}
	for i := range want {
		if paths[i] != want[i] {
			t.Errorf("problem %d: %q, want %q", i, paths[i], want[i])
		}
	}
	// The fields keep the text as typed.
	if field(t, f, "n").Text() != "abc" || field(t, f, "i").Text() != "1.5" {
		t.Errorf("texts %q %q", field(t, f, "n").Text(), field(t, f, "i").Text())
	}
}

// Integers written with an exponent or a zero fraction load as text and are sent as
// plain digits; history and the raw editor give them back.
func TestIntegerSpellingsLoad(t *testing.T) {
	f := mustNew(t, `{"type":"object","properties":{"i":{"type":"integer","maximum":1000}}}`)
	if err := f.SetValue(json.RawMessage(`{"i":1e3}`)); err != nil {
		t.Fatal(err)
	}
	fl := field(t, f, "i")
	if fl.Foreign() || fl.Text() != "1e3" {
		t.Errorf("1e3 loaded foreign %v text %q", fl.Foreign(), fl.Text())
	}
	wantValue(t, f, `{"i":1000}`)
	wantErrors(t, f)
	setText(t, f, "i", "1.0e4")
	wantValue(t, f, `{"i":10000}`)
	wantErrors(t, f, "i: must be at most 1000")
	if err := f.SetValue(json.RawMessage(`{"i":2.5}`)); err != nil || !field(t, f, "i").Foreign() {
		t.Errorf("2.5 in an integer field: err %v foreign %v", err, field(t, f, "i").Foreign())
	}
}

// SetValue's error is worded for the user: no package name, where the text breaks.
func TestSetValueSyntaxError(t *testing.T) {
	f := mustNew(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)
	err := f.SetValue(json.RawMessage("{\n  \"a\": x\n}"))
	if err == nil || err.Error() != "not valid JSON: invalid character 'x' looking for beginning of value (line 2, column 8)" {
		t.Fatalf("error %q", err)
	}
	var se *SyntaxError
	if !errors.As(err, new(*InputError)) {
		t.Errorf("not an InputError: %T", err)
	}
	_, derr := decodeJSON([]byte(`{"é":1 2}`))
	if !errors.As(derr, &se) || se.Line != 1 || se.Column != 8 {
		t.Errorf("columns count characters: %v", derr)
	}
	if _, err := New(json.RawMessage(`{"type":`)); err == nil || err.Error() != "the schema is not valid JSON: unexpected end of JSON input (line 1, column 9)" {
		t.Errorf("New: %v", err)
	}
}
