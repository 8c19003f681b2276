package ui

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The form view over the schemas real servers send: keys typed → the exact JSON sent;
// a bad value → the message shown at its field. Schemas come from
// internal/schemaform/testdata (cases B15, B16, B18, B19 of shared/cases.md; zod, pydantic,
// jsonschema-go; the go-sdk everything-server's json_schema_2020_12_tool and
// elicitation schemas) and from ui/testdata/tools (tools/list of
// @modelcontextprotocol/server-everything 2026.8.31 and the go-sdk v1.8.0
// conformance everything-server, captured from the running servers).

type sendCase struct {
	name  string
	tool  func(testing.TB) mcpclient.Tool
	steps []string
	want  string
}

func fromSchema(name string) func(testing.TB) mcpclient.Tool {
	return func(t testing.TB) mcpclient.Tool { return schemaTool(t, name) }
}

func fromServer(file, name string) func(testing.TB) mcpclient.Tool {
	return func(t testing.TB) mcpclient.Tool { return realTool(t, file, name) }
}

const (
	serverEverything = "server_everything"
	goEverything     = "go_everything_server"
)

func TestFormSendsExactJSON(t *testing.T) {
	cases := []sendCase{
		// B15: select with the enum's values, (null) and (omit); 2 is sent as a number;
		// mode's type lists null but its enum does not, so only fast and omit.
		{"b15 values", fromSchema("b15_nullable_enum"),
			[]string{"right", "tab", "right", "right", "tab", "right"},
			`{"direction":"send","retries":2,"mode":"fast"}`},
		{"b15 null", fromSchema("b15_nullable_enum"),
			[]string{"alt+n", "tab", "left"},
			`{"direction":null,"retries":null}`},
		{"b15 letters pick options", fromSchema("b15_nullable_enum"),
			[]string{"'r", "tab", "'3"},
			`{"direction":"receive","retries":3}`},
		{"b15 untouched", fromSchema("b15_nullable_enum"), nil, `{}`},
		// B16: the required object is sent with its default; null defaults are unset; an
		// array without items takes raw JSON items.
		{"b16 default only", fromSchema("b16_ref_defs"), nil, `{"query_model":{"limit":20}}`},
		{"b16 filled", fromSchema("b16_ref_defs"),
			[]string{"tab", "'x", "tab", "ctrl+n", `'"t1"`, "ctrl+n", "'7"},
			`{"query_model":{"query":"x","team_ids":["t1",7],"limit":20}}`},
		{"b16 recursive", fromSchema("b16_recursive"),
			[]string{"'root", "tab", "ctrl+n", "'leaf"},
			`{"name":"root","children":[{"name":"leaf"}]}`},
		// B18: list with unset/null/list states, tri-state boolean, a type picker.
		{"b18 case", fromSchema("b18_type_arrays"),
			[]string{"'GET / HTTP/1.1", "tab", "ctrl+n", "'1", "ctrl+n", "'2", "tab", "right"},
			`{"raw":"GET / HTTP/1.1","ids":["1","2"],"tls":true}`},
		{"b18 nulls and a number", fromSchema("b18_type_arrays"),
			[]string{"'r", "tab", "alt+n", "tab", "alt+n", "tab", "right", "right", "tab", "'42"},
			`{"raw":"r","ids":null,"tls":null,"value":42}`},
		{"b18 boolean variant", fromSchema("b18_type_arrays"),
			[]string{"'r", "tab", "tab", "right", "right", "tab", "left", "tab", "right", "right"},
			`{"raw":"r","tls":false,"value":false}`},
		// B19: untouched optional fields are omitted; digits in a string stay a string;
		// page takes 1.5; the default is sent only when accepted; filters is an object.
		{"b19 heart", fromSchema("b19_optional_fields"), []string{"'heart"}, `{"query":"heart"}`},
		{"b19 typed", fromSchema("b19_optional_fields"),
			[]string{"'heart", "tab", "'1.5", "tab", "ctrl+y", "tab", "'02134", "tab", "tab", "'2025-01-31T09:30:00Z"},
			`{"query":"heart","page":1.5,"page_size":50,"zip":"02134","filters":{"since":"2025-01-31T09:30:00Z"}}`},
		{"b19 example of the format", fromSchema("b19_optional_fields"),
			[]string{"'q", "tab", "tab", "tab", "tab", "tab", "ctrl+t"},
			`{"query":"q","filters":{"since":"2025-01-31T09:30:00Z"}}`},
		// go-sdk everything-server json_schema_2020_12_tool: $ref into $defs, an enum,
		// anyOf of required, if/then/else.
		{"2020-12 tool", fromServer(goEverything, "json_schema_2020_12_tool"),
			[]string{"'Ann", "tab", "tab", "'1 Main St", "tab", "'Oslo", "tab", "right", "tab", "'555-0100"},
			`{"name":"Ann","address":{"street":"1 Main St","city":"Oslo"},"contactMethod":"phone","phone":"555-0100"}`},
		{"2020-12 tool by email", fromServer(goEverything, "json_schema_2020_12_tool"),
			[]string{"tab", "tab", "tab", "tab", "'e", "tab", "tab", "'a@b.c"},
			`{"contactMethod":"email","email":"a@b.c"}`},
		// go-sdk elicitation schemas: plain, titled (oneOf const) and legacy (enumNames)
		// enums send the value, not the label; multi-selects send arrays.
		{"elicitation enums", fromSchema("gosdk_elicitation_enums"),
			[]string{"right", "tab", "'s", "tab", "'option t", "tab", "space", "right", "right", "space", "tab", "right", "space"},
			`{"untitledSingle":"option1","titledSingle":"value2","legacyEnum":"opt2","untitledMulti":["option1","option3"],"titledMulti":["value2"]}`},
		{"elicitation defaults accepted", fromSchema("gosdk_elicitation_defaults"),
			[]string{"ctrl+y", "tab", "ctrl+y", "tab", "ctrl+y", "tab", "ctrl+y", "tab", "ctrl+y"},
			`{"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}`},
		// Generators.
		{"zod union variant", fromSchema("zod_draft07"),
			[]string{"'Zed", "tab", "'40", "tab", "tab", "tab", "tab", "tab", "tab", "tab", "tab", "tab", "tab", "tab", "right", "tab", "tab", "'2.5"},
			`{"name":"Zed","age":40,"shape":{"kind":"circle","radius":2.5}}`},
		{"pydantic", fromSchema("pydantic_v2"),
			[]string{"'T", "tab", "'3", "tab", "tab", "tab", "tab", "tab", "'Rue 1", "tab", "'Paris", "tab", "tab", "tab", "tab", "tab", "tab", "ctrl+n", "'a"},
			`{"title":"T","count":3,"ship_to":{"street":"Rue 1","city":"Paris","country":"FR"},"tags":["a"]}`},
		{"jsonschema-go map", fromSchema("go_jsonschema"),
			[]string{"'raw", "tab", "tab", "tab", "tab", "tab", "tab", "'1", "tab", "ctrl+n", "'X-A", "enter", "'1"},
			`{"raw":"raw","count":1,"headers":{"X-A":"1"}}`},
		// server-everything, as its tools/list says.
		{"everything get-sum", fromServer(serverEverything, "get-sum"), []string{"'2", "tab", "'40"}, `{"a":2,"b":40}`},
		{"everything echo", fromServer(serverEverything, "echo"), []string{"'q is text"}, `{"message":"q is text"}`},
		{"everything annotated", fromServer(serverEverything, "get-annotated-message"),
			[]string{"'d", "tab", "ctrl+y"}, `{"messageType":"debug","includeImage":false}`},
		{"everything gzip defaults", fromServer(serverEverything, "gzip-file-as-resource"),
			[]string{"ctrl+y", "tab", "ctrl+y", "tab", "left"},
			`{"name":"README.md.gz","data":"https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md","outputType":"resource"}`},
		{"everything empty schema", fromServer(serverEverything, "get-env"), nil, `{}`},
		{"go everything header tool", fromServer(goEverything, "test_x_mcp_header"),
			[]string{"'eu", "tab", "'-3"}, `{"region":"eu","level":-3}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, s := formModel(t, 120, 60, "", c.tool(t))
			do(t, m, c.steps...)
			wantSent(t, m, s, c.want)
		})
	}
}

type errCase struct {
	name  string
	tool  func(testing.TB) mcpclient.Tool
	steps []string
	label string // the row the message is drawn under
	want  string
}

func TestFormShowsProblemAtField(t *testing.T) {
	cases := []errCase{
		// Shown as the user types (the field is touched).
		{"b19 integer", fromSchema("b19_optional_fields"), []string{"'q", "tab", "tab", "'1.5"},
			"page_size", "must be an integer (no fractional part)"},
		{"b19 date-time", fromSchema("b19_optional_fields"), []string{"'q", "tab", "tab", "tab", "tab", "tab", "'yesterday"},
			"since", "must be a valid date-time, like 2025-01-31T09:30:00Z"},
		{"b19 minLength", fromSchema("b19_optional_fields"), []string{"alt+e"},
			"query", "must be at least 1 character"},
		{"b16 integer", fromSchema("b16_ref_defs"), []string{"tab", "tab", "tab", "ctrl+a", "ctrl+k", "'abc"},
			"limit", "must be an integer, like 42 or -3"},
		{"raw item JSON", fromSchema("b16_ref_defs"), []string{"tab", "tab", "ctrl+n", "'{nope"},
			"[0]", "not valid JSON: invalid character 'n' looking for beginning of object key string (line 1, column 2)"},
		{"b18 item of the list", fromSchema("b18_type_arrays"), []string{"tab", "ctrl+n", "alt+e", "tab", "tab", "right", "right", "tab", "'x"},
			"↳", "must be a number, like 42, -1.5 or 1e3"},
		{"zod email", fromSchema("zod_draft07"), []string{"tab", "tab", "'not-an-email"},
			"email", "must be a valid email, like name@example.com"},
		{"zod pattern", fromSchema("zod_draft07"), []string{"tab", "tab", "tab", "tab", "tab", "tab", "tab", "'x", "tab", "'123"},
			"zip", "must match the pattern ^\\d{5}$"},
		{"everything maximum", fromServer(serverEverything, "get-resource-links"), []string{"'11"},
			"count", "must be at most 10"},
		{"everything uri", fromServer(serverEverything, "gzip-file-as-resource"), []string{"tab", "'not a uri"},
			"data", "must be a valid uri, like https://example.com/path"},
		{"map entry type", fromSchema("go_jsonschema"), []string{"tab", "tab", "tab", "tab", "tab", "tab", "tab", "ctrl+n", "'X-A", "enter", "alt+o"},
			`"X-A"`, "empty entry: fill it in or remove it"},
		// Shown after a send attempt (untouched required fields, rules of the whole value).
		{"required after send", fromServer(serverEverything, "get-sum"), []string{"'1", "ctrl+s"},
			"b", "is required"},
		{"2020-12 then/else", fromServer(goEverything, "json_schema_2020_12_tool"), []string{"tab", "tab", "tab", "tab", "right", "ctrl+s"},
			"phone", "is required"},
		{"elicitation minItems", fromSchema("gosdk_elicitation_enums"), []string{"tab", "tab", "tab", "space", "space"},
			"untitledMulti", "must have at least 1 item"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, s := formModel(t, 120, 60, "", c.tool(t))
			do(t, m, c.steps...)
			if got := errorAt(t, m, c.label); got != c.want {
				t.Fatalf("under %s: got %q, want %q\n%s", c.label, got, c.want, view(m))
			}
			if callCount(s) != 0 {
				t.Fatalf("a value with a problem was sent: %s", lastCall(t, m, s))
			}
		})
	}
}

// A problem is hidden on fields the user has not touched, until a send attempt.
func TestFormProblemsWaitForTouchOrSend(t *testing.T) {
	m, s := formModel(t, 120, 40, "", realTool(t, serverEverything, "get-sum"))
	if got := errorAt(t, m, "a"); got != "" {
		t.Fatalf("untouched a shows %q", got)
	}
	do(t, m, "tab", "ctrl+s")
	if callCount(s) != 0 {
		t.Fatal("sent with both required fields empty")
	}
	if errorAt(t, m, "a") != "is required" || errorAt(t, m, "b") != "is required" {
		t.Fatalf("problems not shown after send:\n%s", view(m))
	}
	if !strings.Contains(view(m), "2 problem(s), shown at the fields") || !strings.Contains(view(m), "[ send anyway ]") {
		t.Fatalf("no send-anyway question:\n%s", view(m))
	}
	// The cursor went to the first field with a problem: typing fixes it.
	do(t, m, "'1", "tab", "'2")
	if errorAt(t, m, "a") != "" {
		t.Fatalf("fixed a still shows a problem:\n%s", view(m))
	}
	wantSent(t, m, s, `{"a":1,"b":2}`)
}

// Formats are checked as the user types, at the field, with the shape shown before.
func TestFormFormatsCheckedLive(t *testing.T) {
	cases := []struct{ format, hint, bad, msg, good string }{
		{"date", "YYYY-MM-DD", "2025-13-01", "must be a valid date, like 2025-01-31", "2025-01-31"},
		{"date-time", "YYYY-MM-DDThh:mm:ssZ", "2025-01-31 09:30", "must be a valid date-time, like 2025-01-31T09:30:00Z", "2025-01-31T09:30:00+01:00"},
		{"time", "hh:mm:ssZ", "25:00:00Z", "must be a valid time, like 09:30:00Z", "09:30:00Z"},
		{"email", "name@example.com", "ann.example.com", "must be a valid email, like name@example.com", "ann@example.com"},
		{"uri", "https://example.com/path", "no scheme", "must be a valid uri, like https://example.com/path", "urn:isbn:0451450523"},
		{"uuid", "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", "123e4567", "must be a valid uuid, like 123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"},
	}
	for _, c := range cases {
		t.Run(c.format, func(t *testing.T) {
			m, s := formModel(t, 120, 20, "", inlineTool("t", `{"type":"object","properties":{"v":{"type":"string","format":"`+c.format+`"}}}`))
			do(t, m, "tab") // unfocused: the shape of the value
			if !strings.Contains(view(m), "— "+c.hint) {
				t.Fatalf("no hint %q:\n%s", c.hint, view(m))
			}
			do(t, m, "tab", "'"+c.bad)
			if got := errorAt(t, m, "v"); got != c.msg {
				t.Fatalf("%s: got %q, want %q", c.bad, got, c.msg)
			}
			do(t, m, "ctrl+a", "ctrl+k", "'"+c.good)
			if got := errorAt(t, m, "v"); got != "" {
				t.Fatalf("%s: %q", c.good, got)
			}
			wantSent(t, m, s, `{"v":"`+c.good+`"}`)
		})
	}
}
