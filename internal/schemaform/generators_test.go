package schemaform

import (
	"encoding/json"
	"strings"
	"testing"
)

// Schemas written the way real generators write them: zod-to-json-schema
// (draft-07, additionalProperties false, #/properties refs), pydantic v2 /
// FastMCP (titles everywhere, anyOf-null for Optional, $defs), google/
// jsonschema-go (type arrays with "null"), and the go-sdk everything-server.

func TestZodDraft07(t *testing.T) {
	f := load(t, "zod_draft07.json")
	wantFields(t, f,
		"name string req @0",
		"age integer req @0",
		"email string @0",
		"tags array @0",
		"role enum @0",
		"nickname string null @0",
		"address object @0",
		"address.city string req @1",
		"address.zip string req @1",
		"billing object @0", // {"$ref":"#/properties/address"}
		"billing.city string req @1",
		"billing.zip string req @1",
		"shape union @0",
		"when string @0",
	)
	wantOptions(t, f, "role", "admin", "user", "(omit)")
	wantOptions(t, f, "shape", "kind: circle", "kind: rect", "(omit)")
	if ph := field(t, f, "role").Placeholder(); ph != "user" {
		t.Errorf("role placeholder %q, want user", ph)
	}

	setText(t, f, "name", "Ada")
	setText(t, f, "age", "36")
	choose(t, f, "role", "admin")
	if err := field(t, f, "nickname").SetNull(); err != nil {
		t.Fatal(err)
	}
	setText(t, f, "billing.city", "Paris")
	setText(t, f, "billing.zip", "75001")
	choose(t, f, "shape", "kind: rect")
	// The discriminator is a required const: filled in by the form.
	if k := field(t, f, "shape.kind"); k.Text() != "rect" || !k.FromDefault() {
		t.Errorf("shape.kind = %q fromDefault %v", k.Text(), k.FromDefault())
	}
	setText(t, f, "shape.w", "2")
	setText(t, f, "shape.h", "3.5")
	wantValue(t, f, `{"name":"Ada","age":36,"role":"admin","nickname":null,"billing":{"city":"Paris","zip":"75001"},"shape":{"kind":"rect","w":2,"h":3.5}}`)
	wantErrors(t, f)

	setText(t, f, "age", "-1")
	setText(t, f, "billing.zip", "7500")
	setText(t, f, "email", "nope")
	setJSON(t, f, "name", `""`)
	wantErrors(t, f,
		"name: must be at least 1 character",
		"age: must be at least 0",
		"email: must be a valid email, like name@example.com", // draft-07 asserts format
		"billing.zip: must match the pattern ^\\d{5}$",
	)

	// A circle missing its radius: the error lands on the variant's field.
	choose(t, f, "shape", "kind: circle")
	wantValue(t, f, `{"name":"","age":-1,"email":"nope","role":"admin","nickname":null,"billing":{"city":"Paris","zip":"7500"},"shape":{"kind":"circle"}}`)
	errs := f.Validate()
	found := false
	for _, e := range errs {
		if e.Field == field(t, f, "shape.radius") && e.Message == "is required" {
			found = true
		}
	}
	if !found {
		t.Errorf("no 'is required' on shape.radius: %q", errorLines(errs))
	}

	// An error on the variant object itself shows on the union row.
	if err := f.SetValue([]byte(`{"name":"Ada","age":1,"shape":{"kind":"circle","radius":1,"zzz":1}}`)); err != nil {
		t.Fatal(err)
	}
	errs = f.Validate()
	if len(errs) != 1 || errs[0].Field != field(t, f, "shape") || errs[0].Message != `property "zzz" is not allowed` {
		t.Errorf("extra key in a variant: %q", errorLines(errs))
	}
	if got := field(t, f, "shape").Error(); got != `property "zzz" is not allowed` {
		t.Errorf("shape.Error() = %q", got)
	}
}

func TestPydanticV2(t *testing.T) {
	f := load(t, "pydantic_v2.json")
	wantFields(t, f,
		"title string req @0",
		"count integer @0",
		"note string null @0",
		"ratio number null @0",
		"priority enum @0",
		"ship_to object req @0",
		"ship_to.street string req @1",
		"ship_to.city string req @1",
		"ship_to.country string @1",
		"bill_to object null @0",
		"bill_to.street string req @1",
		"bill_to.city string req @1",
		"bill_to.country string @1",
		"tags array req @0",
		"due string null @0",
	)
	// Titles label fields; a $defs class title does not replace the key.
	for path, label := range map[string]string{"title": "Title", "note": "Note", "ship_to": "ship_to", "ship_to.street": "Street", "priority": "priority"} {
		if got := field(t, f, path).Label; got != label {
			t.Errorf("label of %s = %q, want %q", path, got, label)
		}
	}
	wantOptions(t, f, "priority", "low", "normal", "high", "(omit)")
	if d := field(t, f, "due"); d.Format != "date" || d.Placeholder() != "YYYY-MM-DD" {
		t.Errorf("due: format %q placeholder %q", d.Format, d.Placeholder())
	}
	// The required nested model takes its members' defaults; the required
	// list is present and empty; Optional[...] = None stays unset.
	wantValue(t, f, `{"ship_to":{"country":"FR"},"tags":[]}`)
	wantErrors(t, f,
		"title: is required",
		"ship_to.street: is required",
		"ship_to.city: is required",
	)

	setText(t, f, "title", "Order 1")
	if err := field(t, f, "note").SetNull(); err != nil {
		t.Fatal(err)
	}
	setText(t, f, "ratio", "0.5")
	choose(t, f, "priority", "high")
	setText(t, f, "ship_to.street", "1 rue X")
	setText(t, f, "ship_to.city", "Lyon")
	addItem(t, f, "tags")
	setText(t, f, "tags.0", "a")
	addItem(t, f, "tags")
	setText(t, f, "tags.1", "b")
	setText(t, f, "due", "2025-02-28")
	wantValue(t, f, `{"title":"Order 1","note":null,"ratio":0.5,"priority":"high","ship_to":{"street":"1 rue X","city":"Lyon","country":"FR"},"tags":["a","b"],"due":"2025-02-28"}`)
	wantErrors(t, f)

	// Starting the optional bill_to sends it without its defaults, and
	// asks for its required members.
	setText(t, f, "bill_to.city", "Nice")
	setText(t, f, "due", "2025-02-30")
	wantErrors(t, f,
		"bill_to.street: is required",
		"due: must be a valid date, like 2025-01-31",
	)
	if err := field(t, f, "count").SetText("1.5"); err == nil {
		t.Error("count accepted 1.5")
	}
	if err := field(t, f, "ratio").SetText("abc"); err == nil {
		t.Error("ratio accepted abc")
	}
	if got := field(t, f, "ratio").Error(); got != "must be a number, like 42, -1.5 or 1e3" {
		t.Errorf("ratio error %q", got)
	}
}

func TestGoJSONSchema(t *testing.T) {
	f := load(t, "go_jsonschema.json")
	wantFields(t, f,
		"raw string req @0",
		"ids array null @0",
		"tls boolean null @0",
		"opts object null @0",
		"opts.timeout integer req @1",
		"opts.verbose boolean @1",
		"count integer req @0",
		"headers object @0", // a map: key/value entries
		"ratio number @0",
	)
	setText(t, f, "raw", "GET / HTTP/1.1")
	// Go's uint64 max + 2: kept exactly, never through float64.
	setText(t, f, "count", "18446744073709551617")
	setText(t, f, "opts.timeout", "30")
	if !field(t, f, "headers").AllowsEntries() {
		t.Fatal("headers takes no entries")
	}
	h, err := field(t, f, "headers").AddEntry("X-A")
	if err != nil {
		t.Fatal(err)
	}
	if h.Kind != KindString || !h.IsEntry() || h.Label != "X-A" || strings.Join(h.Path, ".") != "headers.X-A" {
		t.Fatalf("entry %+v", h)
	}
	setText(t, f, "headers.X-A", "1") // digits stay a string
	choose(t, f, "tls", "false")
	if err := field(t, f, "ids").SetNull(); err != nil {
		t.Fatal(err)
	}
	wantValue(t, f, `{"raw":"GET / HTTP/1.1","ids":null,"tls":false,"opts":{"timeout":30},"count":18446744073709551617,"headers":{"X-A":"1"}}`)
	wantErrors(t, f)

	// A loaded map becomes entries; a value of the wrong type is kept and reported at its entry.
	setJSON(t, f, "headers", `{"X-A":1,"X-B":"b"}`)
	if err := field(t, f, "opts").SetNull(); err != nil {
		t.Fatal(err)
	}
	if n := len(field(t, f, "headers").Entries()); n != 2 {
		t.Fatalf("%d entries loaded", n)
	}
	wantErrors(t, f, "headers.X-A: must be a string, not a number")
	if err := field(t, f, "headers").Set(json.RawMessage(`[1,2]`)); err != nil || !field(t, f, "headers").Foreign() {
		t.Errorf("a list loaded into the map: err %v, foreign %v", err, field(t, f, "headers").Foreign())
	}

	// Unknown keys from the raw editor survive and are reported.
	if err := f.SetValue([]byte(`{"raw":"x","count":1,"bogus":true}`)); err != nil {
		t.Fatal(err)
	}
	wantValue(t, f, `{"raw":"x","count":1,"bogus":true}`)
	wantErrors(t, f, `: property "bogus" is not allowed`)
}

func TestGoSDKJSONSchema202012Tool(t *testing.T) {
	f := load(t, "gosdk_json_schema_2020_12_tool.json")
	wantFields(t, f,
		"name string @0",
		"address object @0",
		"address.street string @1",
		"address.city string @1",
		"contactMethod enum @0",
		"phone string @0",
		"email string @0",
	)
	if notes := f.Notes(); len(notes) != 0 {
		t.Errorf("notes: %q", notes)
	}
	choose(t, f, "contactMethod", "phone")
	setText(t, f, "phone", "555-0100")
	setText(t, f, "address.city", "Oslo")
	wantValue(t, f, `{"address":{"city":"Oslo"},"contactMethod":"phone","phone":"555-0100"}`)
	wantErrors(t, f)

	// if/then: choosing phone requires a phone number.
	field(t, f, "phone").Clear()
	setText(t, f, "email", "a@example.com")
	wantErrors(t, f, "phone: is required")
	// anyOf of required lists, worded.
	field(t, f, "email").Clear()
	wantErrors(t, f, `: needs "phone" or "email"`, "phone: is required")
}

func TestGoSDKElicitationEnums(t *testing.T) {
	f := load(t, "gosdk_elicitation_enums.json")
	wantFields(t, f,
		"untitledSingle enum @0",
		"titledSingle enum @0",
		"legacyEnum enum @0",
		"untitledMulti multiselect @0",
		"titledMulti multiselect @0",
	)
	wantOptions(t, f, "titledSingle", "First Option", "Second Option", "Third Option", "(omit)")
	wantOptions(t, f, "legacyEnum", "Option One", "Option Two", "Option Three", "(omit)")
	wantOptions(t, f, "untitledMulti", "option1", "option2", "option3")
	wantOptions(t, f, "titledMulti", "First Option", "Second Option", "Third Option")

	choose(t, f, "titledSingle", "Second Option")
	choose(t, f, "legacyEnum", "Option Two")
	m := field(t, f, "untitledMulti")
	// Checked in any order, sent in option order.
	if err := m.Toggle(2); err != nil {
		t.Fatal(err)
	}
	if err := m.Toggle(0); err != nil {
		t.Fatal(err)
	}
	if err := field(t, f, "titledMulti").Toggle(2); err != nil {
		t.Fatal(err)
	}
	wantValue(t, f, `{"titledSingle":"value2","legacyEnum":"opt2","untitledMulti":["option1","option3"],"titledMulti":["value3"]}`)
	if got := m.Text(); got != "option1, option3" {
		t.Errorf("multi text %q", got)
	}
	wantErrors(t, f)

	_ = field(t, f, "titledMulti").Toggle(2) // now empty: []
	wantErrors(t, f, "titledMulti: must have at least 1 item")
}

func TestGoSDKElicitationDefaults(t *testing.T) {
	f := load(t, "gosdk_elicitation_defaults.json")
	wantFields(t, f, "name string @0", "age integer @0", "score number @0", "status enum @0", "verified boolean @0")
	wantValue(t, f, `{}`)
	f.FillDefaults()
	wantValue(t, f, `{"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}`)
	if got := field(t, f, "status").Text(); got != "active" {
		t.Errorf("status text %q", got)
	}
	if err := field(t, f, "age").SetText("thirty"); err == nil {
		t.Fatal("age accepted thirty")
	}
	got, err := f.Value()
	if err == nil || string(got) != `{"name":"John Doe","score":95.5,"status":"active","verified":true}` {
		t.Fatalf("Value with bad age: %s %v", got, err)
	}
	wantErrors(t, f, "age: must be an integer, like 42 or -3")
}
