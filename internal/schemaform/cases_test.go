package schemaform

import (
	"strings"
	"testing"
)

// Cases B15, B16, B18, B19 of shared/cases.md: the fields built, the exact
// JSON sent, and the words of a validation error.

func TestB15NullableEnum(t *testing.T) {
	f := load(t, "b15_nullable_enum.json")
	wantFields(t, f,
		"direction enum null @0",
		"retries enum null @0",
		"mode enum @0", // type lists null but the enum does not: not nullable
	)
	wantOptions(t, f, "direction", "send", "receive", "(null)", "(omit)")
	wantOptions(t, f, "retries", "1", "2", "3", "(null)", "(omit)")
	wantOptions(t, f, "mode", "fast", "(omit)")
	wantValue(t, f, `{}`)

	steps := []struct {
		path, label, want string
	}{
		{"direction", "send", `{"direction":"send"}`},
		{"direction", "(null)", `{"direction":null}`},
		{"direction", "(omit)", `{}`},
		{"retries", "2", `{"retries":2}`}, // the number, never "2"
		{"retries", "(null)", `{"retries":null}`},
		{"mode", "fast", `{"retries":null,"mode":"fast"}`},
		{"retries", "(omit)", `{"mode":"fast"}`},
	}
	for _, s := range steps {
		choose(t, f, s.path, s.label)
		wantValue(t, f, s.want)
	}
	if got := field(t, f, "direction").Selected(); field(t, f, "direction").Options[got].Label != "(omit)" {
		t.Errorf("direction selected %d, want (omit)", got)
	}
	if err := field(t, f, "mode").SetNull(); err == nil {
		t.Error("mode accepted SetNull although its enum excludes null")
	}
	wantErrors(t, f)

	// Values loaded from the raw editor that the schema rejects are kept
	// and explained.
	if err := f.SetValue([]byte(`{"direction":"sideways","retries":"2","mode":null}`)); err != nil {
		t.Fatal(err)
	}
	wantValue(t, f, `{"direction":"sideways","retries":"2","mode":null}`)
	wantErrors(t, f,
		`direction: must be "send", "receive" or null`,
		`retries: must be an integer or null, not a string`,
		`mode: must be "fast"`,
	)
	if !field(t, f, "direction").Foreign() || field(t, f, "direction").Text() != `"sideways"` {
		t.Errorf("direction: foreign=%v text=%q", field(t, f, "direction").Foreign(), field(t, f, "direction").Text())
	}
}

func TestB16RefIntoDefs(t *testing.T) {
	f := load(t, "b16_ref_defs.json")
	wantFields(t, f,
		"query_model object req @0",
		"query_model.query string @1",
		"query_model.team_ids array @1",
		"query_model.limit integer @1",
	)
	limit := field(t, f, "query_model.limit")
	if limit.Text() != "20" || !limit.FromDefault() || limit.Touched() {
		t.Errorf("limit: text %q fromDefault %v touched %v; want 20 pre-filled by the form", limit.Text(), limit.FromDefault(), limit.Touched())
	}
	// A null default means unset.
	if q := field(t, f, "query_model.query"); q.Default != nil || q.State() != Unset {
		t.Errorf("query: default %s state %s; want none, unset", q.Default, q.State())
	}
	// Submitting with only the default.
	wantValue(t, f, `{"query_model":{"limit":20}}`)
	wantErrors(t, f)

	// team_ids has no `items`: a free-form list of JSON values.
	it := addItem(t, f, "query_model.team_ids")
	if it.Kind != KindRaw || it.Label != "[0]" {
		t.Fatalf("team_ids item: kind %s label %q, want raw [0]", it.Kind, it.Label)
	}
	setText(t, f, "query_model.team_ids.0", `"T1"`)
	setText(t, f, "query_model.query", "primary")
	setText(t, f, "query_model.limit", "5")
	wantValue(t, f, `{"query_model":{"query":"primary","team_ids":["T1"],"limit":5}}`)

	// Bad input: a fraction in the integer field is refused and left out.
	if err := field(t, f, "query_model.limit").SetText("2.5"); err == nil {
		t.Fatal("limit accepted 2.5")
	}
	got, err := f.Value()
	if err == nil || string(got) != `{"query_model":{"query":"primary","team_ids":["T1"]}}` {
		t.Fatalf("Value with bad limit: %s, %v", got, err)
	}
	wantErrors(t, f, "query_model.limit: must be an integer (no fractional part)")

	// Clearing the required object omits it; the schema then complains.
	field(t, f, "query_model").Clear()
	wantValue(t, f, `{}`)
	wantErrors(t, f, "query_model: is required")
	f.Reset()
	wantValue(t, f, `{"query_model":{"limit":20}}`)
}

func TestB16UnresolvableRef(t *testing.T) {
	f := mustNew(t, `{"type":"object","properties":{
		"remote":{"$ref":"https://example.com/schemas/thing.json"},
		"missing":{"$ref":"#/$defs/Nope"},
		"ok":{"$ref":"#/definitions/Legacy"}},
		"definitions":{"Legacy":{"type":"integer"}}}`)
	wantFields(t, f, "remote raw null @0", "missing raw null @0", "ok integer @0")
	if n := field(t, f, "remote").Note; !strings.Contains(n, "https://example.com/schemas/thing.json") {
		t.Errorf("remote note %q does not name the ref", n)
	}
	if n := field(t, f, "missing").Note; !strings.Contains(n, "#/$defs/Nope") {
		t.Errorf("missing note %q does not name the ref", n)
	}
	setText(t, f, "remote", `{"a":[1,2]}`)
	setText(t, f, "ok", "7")
	wantValue(t, f, `{"remote":{"a":[1,2]},"ok":7}`)
	// The bad local ref makes the schema uncompilable: one form-level note.
	errs := f.Validate()
	if len(errs) != 1 || errs[0].Field != nil || !strings.Contains(errs[0].Message, "does not compile") {
		t.Fatalf("Validate: %q", errorLines(errs))
	}
}

func TestB16Recursive(t *testing.T) {
	f := load(t, "b16_recursive.json")
	wantFields(t, f, "name string @0", "children array @0")
	setText(t, f, "name", "root")
	kid := addItem(t, f, "children")
	if kid.Kind != KindObject {
		t.Fatalf("children item kind %s", kid.Kind)
	}
	setText(t, f, "children.0.name", "kid")
	addItem(t, f, "children.0.children")
	setText(t, f, "children.0.children.0.name", "grandkid")
	wantFields(t, f,
		"name string @0",
		"children array @0",
		"children.0 object req @1",
		"children.0.name string @2",
		"children.0.children array @2",
		"children.0.children.0 object req @3",
		"children.0.children.0.name string @4",
		"children.0.children.0.children array @4",
	)
	wantValue(t, f, `{"name":"root","children":[{"name":"kid","children":[{"name":"grandkid"}]}]}`)
	wantErrors(t, f)

	if err := f.SetValue([]byte(`{"name":"root","children":[{"name":5}]}`)); err != nil {
		t.Fatal(err)
	}
	wantErrors(t, f, "children.0.name: must be a string, not a number")
}

func TestRecursiveObjectIsLazy(t *testing.T) {
	f := mustNew(t, `{"$defs":{"n":{"type":"object","properties":{"v":{"type":"integer"},"next":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`)
	wantFields(t, f, "v integer @0", "next object @0")
	next := field(t, f, "next")
	if !next.Collapsed() {
		t.Fatal("recursive optional object should start collapsed")
	}
	next.SetCollapsed(false)
	wantFields(t, f, "v integer @0", "next object @0", "next.v integer @1", "next.next object @1")
	setText(t, f, "next.v", "2")
	wantValue(t, f, `{"next":{"v":2}}`)

	// A required self-reference cannot be satisfied; building stops at the depth limit.
	g := mustNew(t, `{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}},"required":["next"]}},"$ref":"#/$defs/n"}`)
	fields := g.Fields()
	last := fields[len(fields)-1]
	if last.Kind != KindRaw || !strings.Contains(last.Note, "deeper") || len(fields) > maxDepth+3 {
		t.Fatalf("deepest field: kind %s note %q, %d fields", last.Kind, last.Note, len(fields))
	}
}

func TestB18TypeArrays(t *testing.T) {
	f := load(t, "b18_type_arrays.json")
	wantFields(t, f,
		"raw string req @0",
		"ids array null @0",
		"tls boolean null @0",
		"value union @0",
	)
	wantOptions(t, f, "tls", "true", "false", "(null)", "(omit)")
	wantOptions(t, f, "value", "string", "number", "boolean", "(omit)")
	if got := field(t, f, "tls").Selected(); got != 3 {
		t.Errorf("tls starts at option %d, want 3 (omit)", got)
	}

	setText(t, f, "raw", "GET / HTTP/1.1")
	choose(t, f, "tls", "true")
	addItem(t, f, "ids")
	addItem(t, f, "ids")
	setText(t, f, "ids.0", "1")
	setText(t, f, "ids.1", "2")
	wantValue(t, f, `{"raw":"GET / HTTP/1.1","ids":["1","2"],"tls":true}`)

	// ids: unset / null / list.
	if err := field(t, f, "ids").SetNull(); err != nil {
		t.Fatal(err)
	}
	wantValue(t, f, `{"raw":"GET / HTTP/1.1","ids":null,"tls":true}`)
	field(t, f, "ids").Clear()
	choose(t, f, "tls", "(null)")
	wantValue(t, f, `{"raw":"GET / HTTP/1.1","tls":null}`)
	choose(t, f, "tls", "false")

	// value: the chosen type decides the JSON type sent.
	choose(t, f, "value", "number")
	wantFields(t, f,
		"raw string req @0",
		"ids array null @0",
		"tls boolean null @0",
		"value union @0",
		"value number req @1",
	)
	field(t, f, "value").Body().SetText("42")
	wantValue(t, f, `{"raw":"GET / HTTP/1.1","tls":false,"value":42}`)
	choose(t, f, "value", "string")
	field(t, f, "value").Body().SetText("42")
	wantValue(t, f, `{"raw":"GET / HTTP/1.1","tls":false,"value":"42"}`)
	choose(t, f, "value", "boolean")
	if err := field(t, f, "value").Body().Select(0); err != nil {
		t.Fatal(err)
	}
	wantValue(t, f, `{"raw":"GET / HTTP/1.1","tls":false,"value":true}`)
	wantErrors(t, f)

	// Loading picks the variant by the value's JSON type.
	if err := f.SetValue([]byte(`{"raw":"x","value":12.5}`)); err != nil {
		t.Fatal(err)
	}
	if v := field(t, f, "value"); v.Options[v.Selected()].Label != "number" || v.Body().Text() != "12.5" {
		t.Errorf("value after load: %q / %q", v.Text(), v.Body().Text())
	}
	if err := f.SetValue([]byte(`{"raw":"x","value":[1]}`)); err != nil {
		t.Fatal(err)
	}
	wantValue(t, f, `{"raw":"x","value":[1]}`)
	wantErrors(t, f, "value: must be a string, a number or a boolean, not a list")
}

func TestB19UntouchedOptionalFields(t *testing.T) {
	f := load(t, "b19_optional_fields.json")
	wantFields(t, f,
		"query string req @0",
		"page number @0",
		"page_size integer @0",
		"zip string @0",
		"filters object @0",
		"filters.since string @1",
	)
	ps := field(t, f, "page_size")
	if ps.Placeholder() != "50" || ps.State() != Unset {
		t.Errorf("page_size: placeholder %q state %s; want the default shown, not set", ps.Placeholder(), ps.State())
	}
	if ph := field(t, f, "filters.since").Placeholder(); ph != "YYYY-MM-DDThh:mm:ssZ" {
		t.Errorf("since placeholder %q", ph)
	}

	setText(t, f, "query", "heart")
	wantValue(t, f, `{"query":"heart"}`)

	setText(t, f, "zip", "02134")
	wantValue(t, f, `{"query":"heart","zip":"02134"}`)

	if err := field(t, f, "page_size").SetText("1.5"); err == nil {
		t.Error("page_size accepted 1.5")
	}
	setText(t, f, "page_size", "-3")
	setText(t, f, "page", "1.5")
	wantValue(t, f, `{"query":"heart","page":1.5,"page_size":-3,"zip":"02134"}`)
	setText(t, f, "page", "1e3")
	if err := ps.AcceptDefault(); err != nil {
		t.Fatal(err)
	}
	setText(t, f, "filters.since", "2025-01-31T09:30:00Z")
	wantValue(t, f, `{"query":"heart","page":1e3,"page_size":50,"zip":"02134","filters":{"since":"2025-01-31T09:30:00Z"}}`)
	wantErrors(t, f)

	// The date-time is checked before sending; the empty query too.
	setText(t, f, "filters.since", "yesterday")
	setJSON(t, f, "query", `""`)
	wantErrors(t, f,
		"query: must be at least 1 character",
		"filters.since: must be a valid date-time, like 2025-01-31T09:30:00Z",
	)
	if got := field(t, f, "filters.since").Error(); got != "must be a valid date-time, like 2025-01-31T09:30:00Z" {
		t.Errorf("since.Error() = %q", got)
	}

	// filters given as a string (raw editor) is kept and flagged, never re-encoded.
	if err := f.SetValue([]byte(`{"query":"heart","filters":"{\"since\":\"x\"}"}`)); err != nil {
		t.Fatal(err)
	}
	wantErrors(t, f, "filters: must be an object, not a string")
}
