package schemaform

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNumberInput(t *testing.T) {
	f := mustNew(t, `{"type":"object","properties":{"i":{"type":"integer"},"n":{"type":"number"},"s":{"type":"string"}}}`)
	tests := []struct {
		path, text string
		ok         bool
		sent       string
	}{
		{"i", "-3", true, "-3"},
		{"i", "0", true, "0"},
		{"i", "123456789012345678901234567890", true, "123456789012345678901234567890"},
		{"i", "9007199254740993", true, "9007199254740993"}, // 2^53+1: float64 would give ...992
		{"i", "1.5", false, ""},
		// JSON Schema: a number with a zero fractional part is an integer; it is
		// sent as plain digits, computed exactly (never through float64).
		{"i", "1e3", true, "1000"},
		{"i", "1.0", true, "1"},
		{"i", "2.000", true, "2"},
		{"i", "-25E-1", false, ""},
		{"i", "-250E-1", true, "-25"},
		{"i", "1.5e1", true, "15"},
		{"i", "9007199254740993.0", true, "9007199254740993"},
		{"i", "1e30", true, "1000000000000000000000000000000"},
		{"i", "1e-3", false, ""},
		{"i", "1e99999", false, ""}, // too many digits to write out: refused, not computed
		{"i", "01", false, ""},
		{"i", "+1", false, ""},
		{"i", "abc", false, ""},
		{"n", "1.5", true, "1.5"},
		{"n", "1e3", true, "1e3"},
		{"n", "-0.25E-7", true, "-0.25E-7"},
		{"n", " 42 ", true, "42"},
		{"n", "1.", false, ""},
		{"n", ".5", false, ""},
		{"n", "NaN", false, ""},
		{"n", "Infinity", false, ""},
		{"n", "0x10", false, ""},
		{"s", "02134", true, `"02134"`},
		{"s", "1e3", true, `"1e3"`},
		{"s", "true", true, `"true"`},
		{"s", ` "quoted" <&> `, true, `" \"quoted\" <&> "`},
	}
	for _, tt := range tests {
		f.Reset()
		fl := field(t, f, tt.path)
		err := fl.SetText(tt.text)
		if (err == nil) != tt.ok {
			t.Errorf("%s.SetText(%q): err %v, want ok=%v", tt.path, tt.text, err, tt.ok)
			continue
		}
		if fl.Text() != tt.text {
			t.Errorf("%s text %q, want the typed %q", tt.path, fl.Text(), tt.text)
		}
		got, verr := f.Value()
		if tt.ok {
			want := `{"` + tt.path + `":` + tt.sent + `}`
			if verr != nil || string(got) != want {
				t.Errorf("%s=%q: Value %s %v, want %s", tt.path, tt.text, got, verr, want)
			}
		} else if verr == nil || string(got) != `{}` || fl.Error() == "" {
			t.Errorf("%s=%q: Value %s err %v field error %q; want {} with an error", tt.path, tt.text, got, verr, fl.Error())
		}
	}
	// Empty text unsets; an explicit empty string is sent with Set.
	setText(t, f, "s", "x")
	setText(t, f, "s", "")
	wantValue(t, f, `{}`)
	setJSON(t, f, "s", `""`)
	wantValue(t, f, `{"s":""}`)
	if fl := field(t, f, "s"); fl.State() != Set || fl.Text() != "" {
		t.Errorf("empty string: state %s text %q", fl.State(), fl.Text())
	}
}

func TestSetValueRoundTrip(t *testing.T) {
	tests := []struct{ file, value, want string }{
		{"b15_nullable_enum.json", `{"direction":null,"retries":3,"mode":"fast"}`, ""},
		{"b16_ref_defs.json", `{"query_model":{"team_ids":[1,"a",{"x":null}],"limit":7}}`, ""},
		{"b16_ref_defs.json", `{"query_model":{}}`, ""}, // limit removed by the user stays removed
		{"b16_ref_defs.json", `{}`, ""},
		{"b16_recursive.json", `{"name":"a","children":[{"children":[{"name":"c","children":[]}]}]}`, ""},
		{"b18_type_arrays.json", `{"raw":"r","ids":null,"tls":null,"value":false}`, ""},
		{"b18_type_arrays.json", `{"raw":"r","ids":["x"],"value":"s"}`, ""},
		{"b19_optional_fields.json", `{"query":"q","page":2.50,"page_size":10,"filters":{"since":"2020-01-01T00:00:00Z","extra":1}}`, ""},
		// Values the kinds cannot show are kept as they are.
		{"b19_optional_fields.json", `{"query":5,"page":"1","page_size":1.5,"filters":[1]}`, ""},
		{"zod_draft07.json", `{"shape":{"kind":"circle","radius":1},"role":"user","tags":[]}`, `{"tags":[],"role":"user","shape":{"kind":"circle","radius":1}}`},
		{"zod_draft07.json", `{"shape":{"w":1,"h":2,"kind":"rect"}}`, `{"shape":{"kind":"rect","w":1,"h":2}}`},
		{"zod_draft07.json", `{"shape":{"kind":"hexagon"}}`, ""},
		{"pydantic_v2.json", `{"title":"t","ship_to":{"street":"s","city":"c"},"bill_to":null,"tags":[]}`, ""},
		{"gosdk_elicitation_enums.json", `{"untitledMulti":["option2","option3"],"titledMulti":["value3","value1"]}`, ""},
	}
	for _, tt := range tests {
		f := load(t, tt.file)
		if err := f.SetValue(json.RawMessage(tt.value)); err != nil {
			t.Fatalf("%s: SetValue(%s): %v", tt.file, tt.value, err)
		}
		want := tt.want
		if want == "" {
			want = tt.value
		}
		got, err := f.Value()
		if err != nil || string(got) != want {
			t.Errorf("%s: SetValue(%s) then Value() = %s, %v; want %s", tt.file, tt.value, got, err, want)
		}
	}
	f := load(t, "b19_optional_fields.json")
	if err := f.SetValue(json.RawMessage(`{"query":`)); err == nil {
		t.Error("SetValue accepted broken JSON")
	}
}

func TestClearResetAndItems(t *testing.T) {
	f := mustNew(t, `{"type":"object","properties":{
		"n":{"type":"integer","default":3},
		"list":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"integer","default":1}}}}},
		"required":["n"]}`)
	wantValue(t, f, `{"n":3}`)
	field(t, f, "n").Clear()
	wantValue(t, f, `{}`)
	field(t, f, "n").Reset()
	wantValue(t, f, `{"n":3}`)

	for _, k := range []string{"a", "b", "c"} {
		it := addItem(t, f, "list")
		if err := it.Children()[0].SetText(k); err != nil {
			t.Fatal(err)
		}
	}
	// New object items take their members' defaults.
	wantValue(t, f, `{"n":3,"list":[{"k":"a","v":1},{"k":"b","v":1},{"k":"c","v":1}]}`)
	if err := field(t, f, "list").MoveItem(2, 0); err != nil {
		t.Fatal(err)
	}
	if err := field(t, f, "list").RemoveItem(1); err != nil {
		t.Fatal(err)
	}
	wantValue(t, f, `{"n":3,"list":[{"k":"c","v":1},{"k":"b","v":1}]}`)
	// Paths follow the items.
	if fl := field(t, f, "list.1.k"); fl.Text() != "b" || strings.Join(fl.Path, ".") != "list.1.k" || fl.Parent().Label != "[1]" {
		t.Errorf("after move: %q at %v, parent %q", fl.Text(), fl.Path, fl.Parent().Label)
	}
	_ = field(t, f, "list.1.v").SetText("x1")
	errs := f.Validate()
	if len(errs) != 1 || errs[0].Field != field(t, f, "list.1.v") {
		t.Errorf("errors %q", errorLines(errs))
	}
	f.Reset()
	wantValue(t, f, `{"n":3}`)

	// An empty scalar item is left out and reported.
	g := mustNew(t, `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}}}`)
	addItem(t, g, "tags")
	addItem(t, g, "tags")
	setText(t, g, "tags.1", "x")
	got, err := g.Value()
	if string(got) != `{"tags":["x"]}` || err == nil || !strings.Contains(err.Error(), "empty item") {
		t.Errorf("Value with an empty item: %s, %v", got, err)
	}
}

func TestEnumsOfAnyType(t *testing.T) {
	f := mustNew(t, `{"type":"object","properties":{
		"mixed":{"enum":["1",1,true,null,{"a":1}]},
		"c":{"const":42},
		"rc":{"const":"v1"},
		"titled":{"oneOf":[{"const":1,"title":"One"},{"const":2,"title":"Two"},{"type":"null"}]}},
		"required":["rc"]}`)
	wantOptions(t, f, "mixed", `"1"`, "1", "true", `{"a":1}`, "(null)", "(omit)")
	wantOptions(t, f, "c", "42", "(omit)")
	wantOptions(t, f, "rc", "v1")
	wantOptions(t, f, "titled", "One", "Two", "(null)", "(omit)")
	// A required single const is filled in by the form.
	wantValue(t, f, `{"rc":"v1"}`)
	choose(t, f, "mixed", "1")
	choose(t, f, "c", "42")
	choose(t, f, "titled", "Two")
	wantValue(t, f, `{"mixed":1,"c":42,"rc":"v1","titled":2}`)
	choose(t, f, "mixed", `"1"`)
	choose(t, f, "mixed", `{"a":1}`)
	wantValue(t, f, `{"mixed":{"a":1},"c":42,"rc":"v1","titled":2}`)
	fl := field(t, f, "titled")
	if err := fl.Cycle(1); err != nil || fl.Text() != "(null)" {
		t.Errorf("Cycle: %v %q", err, fl.Text())
	}
	if err := fl.Cycle(1); err != nil || fl.Text() != "" || fl.State() != Unset {
		t.Errorf("Cycle to omit: %v %q %s", err, fl.Text(), fl.State())
	}
	if err := fl.Cycle(1); err != nil || fl.Text() != "One" {
		t.Errorf("Cycle wraps: %v %q", err, fl.Text())
	}
	wantErrors(t, f)
}

func TestAllOfAndDefinitions(t *testing.T) {
	f := mustNew(t, `{
		"definitions":{"Base":{"type":"object","title":"Base","properties":{"id":{"type":"string","description":"the id"}},"required":["id"]}},
		"allOf":[{"$ref":"#/definitions/Base"},{"properties":{"extra":{"type":"integer","minimum":1}},"required":["extra"]}]}`)
	wantFields(t, f, "id string req @0", "extra integer req @0")
	if d := field(t, f, "id").Description; d != "the id" {
		t.Errorf("description %q", d)
	}
	if h := field(t, f, "extra").Hints; len(h) != 1 || h[0] != "≥ 1" {
		t.Errorf("hints %q", h)
	}
	setText(t, f, "id", "x")
	setText(t, f, "extra", "0")
	wantValue(t, f, `{"id":"x","extra":0}`)
	wantErrors(t, f, "extra: must be at least 1")
}

func TestRootUnion(t *testing.T) {
	f := mustNew(t, `{"type":"object","oneOf":[
		{"title":"By id","properties":{"id":{"type":"integer"}},"required":["id"],"additionalProperties":false},
		{"title":"By name","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}]}`)
	wantFields(t, f, " union req @0", "id integer req @1")
	wantOptions(t, f, "", "By id", "By name")
	setText(t, f, "id", "5")
	wantValue(t, f, `{"id":5}`)
	wantErrors(t, f)
	choose(t, f, "", "By name")
	wantFields(t, f, " union req @0", "name string req @1")
	wantValue(t, f, `{}`)
	wantErrors(t, f, "name: is required")
	if err := f.SetValue([]byte(`{"id":9}`)); err != nil {
		t.Fatal(err)
	}
	if r := f.Root(); r.Text() != "By id" || field(t, f, "id").Text() != "9" {
		t.Errorf("after load: %q %q", r.Text(), field(t, f, "id").Text())
	}
}

func TestOddSchemas(t *testing.T) {
	for _, s := range []string{``, `null`, `{}`, `true`, `{"type":"object"}`} {
		f, err := New(json.RawMessage(s))
		if err != nil {
			t.Fatalf("New(%q): %v", s, err)
		}
		if len(f.Fields()) != 0 {
			t.Errorf("New(%q): fields %q", s, fieldLines(f))
		}
		wantValue(t, f, `{}`)
		wantErrors(t, f)
	}

	f, err := New(json.RawMessage(`{"type":"object",`))
	if err == nil || f == nil || f.Root().Kind != KindRaw {
		t.Fatalf("broken schema: %v %v", err, f)
	}
	setText(t, f, "", `{"a":1}`)
	wantValue(t, f, `{"a":1}`)

	// A non-object root is one field.
	g := mustNew(t, `{"type":"string","maxLength":3}`)
	wantFields(t, g, " string req @0")
	if _, err := g.Value(); err == nil {
		t.Error("unset string root gave no error")
	}
	setText(t, g, "", "abcd")
	wantValue(t, g, `"abcd"`)
	wantErrors(t, g, ": must be at most 3 characters")

	// Empty property schemas, missing types, tuples, unknown types.
	h := mustNew(t, `{"type":"object","properties":{
		"any":{},"t":true,"desc":{"description":"no type"},
		"tuple":{"type":"array","prefixItems":[{"type":"string"}]},
		"weird":{"type":"decimal"},"never":false,
		"obj":{"type":"object"}}}`)
	wantFields(t, h, "any raw null @0", "t raw null @0", "desc raw null @0", "tuple raw @0", "weird raw @0", "never raw null @0", "obj raw @0")
	if n := field(t, h, "weird").Note; !strings.Contains(n, "decimal") {
		t.Errorf("weird note %q", n)
	}
	setText(t, h, "any", `[1, "two"]`)
	setText(t, h, "desc", "null")
	setText(t, h, "obj", `{"k":"v"}`)
	wantValue(t, h, `{"any":[1,"two"],"desc":null,"obj":{"k":"v"}}`)
	if err := field(t, h, "obj").SetText(`"str"`); err == nil || field(t, h, "obj").Error() != "must be an object" {
		t.Errorf("obj accepted a string: %v", err)
	}
	if err := field(t, h, "any").SetText(`{"a":`); err == nil || !strings.HasPrefix(field(t, h, "any").Error(), "not valid JSON") {
		t.Errorf("any accepted broken JSON: %v", err)
	}
}

func TestUntrustedSchemas(t *testing.T) {
	// External refs are never loaded, not even from the local disk; the
	// rest of the schema is still checked.
	f := mustNew(t, `{"type":"object","properties":{
		"a":{"$ref":"file:///etc/passwd"},
		"b":{"$ref":"http://127.0.0.1:1/x.json"},
		"n":{"type":"integer"}}}`)
	if k := field(t, f, "a").Kind; k != KindRaw {
		t.Errorf("a kind %s", k)
	}
	notes := strings.Join(f.Notes(), "\n")
	if !strings.Contains(notes, "file:///etc/passwd") || !strings.Contains(notes, "not followed") {
		t.Errorf("notes %q", notes)
	}
	setText(t, f, "n", "1")
	setText(t, f, "a", `"x"`)
	errs := f.Validate()
	if len(errs) != 2 || errs[0].Field != nil || errs[1].Field != nil {
		t.Errorf("validate: %q", errorLines(errs))
	}
	if err := f.SetValue([]byte(`{"n":"x"}`)); err != nil {
		t.Fatal(err)
	}
	lines := errorLines(f.Validate())
	if lines[len(lines)-1] != "n: must be an integer, not a string" {
		t.Errorf("validate: %q", lines)
	}

	// An unknown dialect is checked as 2020-12, with a note.
	g := mustNew(t, `{"$schema":"https://example.com/my-dialect","type":"object","properties":{"s":{"type":"string"}}}`)
	if err := g.SetValue([]byte(`{"s":1}`)); err != nil {
		t.Fatal(err)
	}
	wantErrors(t, g, `: dialect "https://example.com/my-dialect" is not supported: checked as JSON Schema 2020-12`, "s: must be a string, not a number")

	// A pattern Go cannot run is reported and skipped.
	h := mustNew(t, `{"type":"object","properties":{"u":{"type":"string","pattern":"^(?!admin).*$","maxLength":5}}}`)
	setText(t, h, "u", "administrator")
	wantErrors(t, h, `: pattern "^(?!admin).*$" is not checked: Go's regexp engine cannot run it`, "u: must be at most 5 characters")

	// A $ref loop does not hang.
	k := mustNew(t, `{"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`)
	if fl := field(t, k, "x"); fl.Kind != KindRaw || !strings.Contains(fl.Note, "itself") {
		t.Errorf("ref loop: %s %q", fl.Kind, fl.Note)
	}
}

func TestDraftSelection(t *testing.T) {
	// draft-04 exclusiveMinimum is a boolean; 2020-12 (the default) a number.
	d4 := `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true}}}`
	f := mustNew(t, d4)
	setText(t, f, "n", "0")
	wantErrors(t, f, "n: must be greater than 0")
	setText(t, f, "n", "0.001")
	wantErrors(t, f)

	// Without $schema, 2020-12: prefixItems is understood.
	g := mustNew(t, `{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"integer"}]}}}`)
	setText(t, g, "p", `["x"]`)
	wantErrors(t, g, "p: 0: must be an integer, not a string")
}

func TestValidateValue(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"temp":{"type":"number"},"unit":{"enum":["C","F"]},"when":{"type":"string","format":"date-time"}},"required":["temp"]}`)
	if errs := ValidateValue(schema, json.RawMessage(`{"temp":21.5,"unit":"C","when":"not a date"}`)); errs != nil {
		t.Errorf("valid value: %q", errorLines(errs)) // 2020-12 only annotates format
	}
	got := errorLines(ValidateValue(schema, json.RawMessage(`{"temp":"hot","unit":"K"}`)))
	want := []string{"temp: must be a number, not a string", `unit: must be "C" or "F"`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q want %q", got, want)
	}
	got = errorLines(ValidateValue(schema, json.RawMessage(`{}`)))
	if len(got) != 1 || got[0] != `: missing required property "temp"` {
		t.Errorf("required: %q", got)
	}
	errs := ValidateValue(schema, json.RawMessage(`{"temp":`))
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "not valid JSON") {
		t.Errorf("bad JSON: %q", errorLines(errs))
	}
	errs = ValidateValue(json.RawMessage(`{"$ref":"#/nowhere"}`), json.RawMessage(`1`))
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "does not compile") {
		t.Errorf("bad schema: %q", errorLines(errs))
	}
}

func TestCompositionBounds(t *testing.T) {
	// allOf bomb: d_i = allOf [d_{i-1}, d_{i-1}], 2^40 evaluations naively.
	var defs []string
	defs = append(defs, `"d0":{"type":"string"}`)
	for i := 1; i <= 40; i++ {
		defs = append(defs, fmt.Sprintf(`"d%d":{"allOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}`, i, i-1, i-1))
	}
	bomb := `{"type":"object","properties":{"x":{"$ref":"#/$defs/d40"}},"$defs":{` + strings.Join(defs, ",") + `}}`
	// Breadth bomb: 8 required properties per level, 8 levels deep.
	defs = defs[:0]
	for i := 0; i < 8; i++ {
		var props []string
		for j := 0; j < 8; j++ {
			props = append(props, fmt.Sprintf(`"p%d":{"$ref":"#/$defs/l%d"}`, j, i+1))
		}
		defs = append(defs, fmt.Sprintf(`"l%d":{"type":"object","properties":{%s},"required":["p0","p1","p2","p3","p4","p5","p6","p7"]}`, i, strings.Join(props, ",")))
	}
	defs = append(defs, `"l8":{"type":"integer"}`)
	wide := `{"$ref":"#/$defs/l0","$defs":{` + strings.Join(defs, ",") + `}}`

	for name, schema := range map[string]string{"allOf bomb": bomb, "breadth bomb": wide} {
		done := make(chan string, 1)
		go func() {
			f, err := New(json.RawMessage(schema))
			if err != nil {
				done <- err.Error()
				return
			}
			n := len(f.Fields())
			_, _ = f.Value()
			errs := f.Validate()
			done <- fmt.Sprintf("%d fields, %d errors: %q", n, len(errs), errorLines(errs)[:min(len(errs), 1)])
		}()
		select {
		case r := <-done:
			t.Logf("%s: %s", name, r)
			if refused := strings.Contains(r, "too complex"); refused != (name == "allOf bomb") {
				t.Errorf("%s: validation refused=%v: %s", name, refused, r)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: still running after 20s", name)
		}
	}
}

func TestSelfReferenceThroughAnyOf(t *testing.T) {
	start := time.Now()
	f := mustNew(t, `{"type":"object","properties":{"x":{"anyOf":[{"type":"null"},{"$ref":"#/properties/x"}]}}}`)
	if fl := field(t, f, "x"); fl.Kind != KindRaw || !strings.Contains(fl.Note, "refers") {
		t.Errorf("x: %s %q", fl.Kind, fl.Note)
	}
	if d := time.Since(start); d > 10*time.Second { // generous: it catches endless expansion, not speed
		t.Errorf("took %v", d)
	}
	// A recursive Optional[Node] (pydantic) stays a lazy object.
	g := mustNew(t, `{"$defs":{"Node":{"type":"object","properties":{"v":{"type":"integer"},"child":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}],"default":null}}}},"$ref":"#/$defs/Node"}`)
	wantFields(t, g, "v integer @0", "child object null @0")
	field(t, g, "child").SetCollapsed(false)
	wantFields(t, g, "v integer @0", "child object null @0", "child.v integer @1", "child.child object null @1")
	if !field(t, g, "child.child").Collapsed() {
		t.Error("child.child should be collapsed")
	}
	setText(t, g, "child.v", "1")
	if err := field(t, g, "child.child").SetNull(); err != nil {
		t.Fatal(err)
	}
	wantValue(t, g, `{"child":{"v":1,"child":null}}`)
}

func TestFieldResetKeepsMemberDefaults(t *testing.T) {
	f := load(t, "b16_ref_defs.json")
	limit := field(t, f, "query_model.limit")
	setText(t, f, "query_model.limit", "3")
	limit.Reset()
	if limit.Text() != "20" || limit.Touched() {
		t.Errorf("after Reset: %q touched=%v", limit.Text(), limit.Touched())
	}
	wantValue(t, f, `{"query_model":{"limit":20}}`)

	// A default on a multi-type union is a placeholder, and picking a
	// type whose values cannot hold it starts empty.
	g := mustNew(t, `{"type":"object","properties":{"v":{"type":["string","integer"],"default":"auto"}}}`)
	if ph := field(t, g, "v").Placeholder(); ph != `"auto"` {
		t.Errorf("placeholder %q", ph)
	}
	choose(t, g, "v", "integer")
	if b := field(t, g, "v").Body(); b.Text() != "" || b.Foreign() {
		t.Errorf("integer body: %q foreign=%v", b.Text(), b.Foreign())
	}
	wantValue(t, g, `{}`)
	if err := field(t, g, "v").AcceptDefault(); err != nil {
		t.Fatal(err)
	}
	wantValue(t, g, `{"v":"auto"}`)
	if got := field(t, g, "v").Text(); got != "string" {
		t.Errorf("variant after accepting the default: %q", got)
	}
}

// An allOf of two enums keeps the values on both sides, and each kept value
// keeps its own enumNames label even when a value before it is dropped.
func TestAllOfEnumIntersectionKeepsLabels(t *testing.T) {
	f := mustNew(t, `{"type":"object","properties":{"size":{"allOf":[
		{"enum":["s","m","l"],"enumNames":["Small","Medium","Large"]},
		{"enum":["m","l"],"enumNames":["M","L"]}]}},"required":["size"]}`)
	fl := field(t, f, "size")
	var got []string
	for _, o := range fl.Options {
		got = append(got, fmt.Sprintf("%s=%s", o.Label, o.Value))
	}
	if want := []string{"Medium=\"m\"", "Large=\"l\""}; !slices.Equal(got, want) {
		t.Errorf("options %q, want %q", got, want)
	}
	choose(t, f, "size", "Large")
	wantValue(t, f, `{"size":"l"}`)
}
