package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

const greetSchema = `{
  "type": "object",
  "properties": {
    "name":    {"type": "string", "description": "who to greet"},
    "count":   {"type": "integer", "minimum": 1},
    "ratio":   {"type": "number"},
    "loud":    {"type": "boolean"},
    "style":   {"type": "string", "enum": ["plain", "fancy"], "default": "plain"},
    "address": {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "string"}}}
  },
  "required": ["name"]
}`

func greetSession() *fakeSession {
	ro := true
	return &fakeSession{
		init: &mcpclient.InitializeResult{ProtocolVersion: "2025-11-25", ServerInfo: mcpclient.Implementation{Name: "fake", Version: "1.2.3"}},
		tools: []mcpclient.Tool{
			{Name: "add", Description: "adds numbers", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`)},
			{Name: "greet", Title: "Greeter", Description: "Greets someone.\nSecond line of the description, which is long enough to wrap on a narrow terminal and must never be trimmed.", InputSchema: json.RawMessage(greetSchema), Annotations: &mcpclient.ToolAnnotations{ReadOnlyHint: &ro}},
		},
		result: &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{{Type: "text", Text: "hello"}}},
	}
}

// openGreet starts the session and opens the greet form.
func openGreet(t *testing.T, w, h int) (*model, *fakeSession) {
	t.Helper()
	s := greetSession()
	m := newTestModel(t, s, w, h)
	exec(t, m, m.Init(), 0)
	if len(m.tools.tools) != 2 {
		t.Fatalf("tools not listed: %d", len(m.tools.tools))
	}
	keys(t, m, "j", "enter")
	if m.call.form == nil || m.call.form.tool.Name != "greet" {
		t.Fatal("enter did not open the greet form")
	}
	return m, s
}

func TestToolsPaneShowsDetail(t *testing.T) {
	s := greetSession()
	m := newTestModel(t, s, 120, 40)
	exec(t, m, m.Init(), 0)
	keys(t, m, "j")
	out := view(m)
	for _, want := range []string{
		"greet — Greeter",
		"must never be trimmed.",
		"readOnly     true",
		"destructive  — (not meaningful: readOnly is true)",
		"openWorld    true (default)",
		`"minimum": 1`,
		"fake 1.2.3", "protocol 2025-11-25", "connected",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("tools view lacks %q\n%s", want, out)
		}
	}
	// "F" filters fuzzily; q is filter text there, not quit.
	keys(t, m, "F")
	typeIn(t, m, "qgr")
	if m.quitting {
		t.Fatal("q in the filter quit")
	}
	keys(t, m, "backspace", "backspace", "backspace")
	typeIn(t, m, "grt")
	if len(m.tools.list.shown) != 1 || m.tools.selected().Name != "greet" {
		t.Fatalf("filter grt shows %v", m.tools.list.shown)
	}
	keys(t, m, "enter", "esc")
	if len(m.tools.list.shown) != 2 {
		t.Fatal("esc did not clear the filter")
	}
}

func TestFormTypingQDoesNotQuit(t *testing.T) {
	m, s := openGreet(t, 100, 30)
	typeIn(t, m, "qq")
	if m.quitting {
		t.Fatal("typing q in a field quit")
	}
	if got := m.call.form.form.Field("name").Text(); got != "qq" {
		t.Fatalf("name = %q", got)
	}
	keys(t, m, "ctrl+s")
	if len(s.calls) != 1 {
		t.Fatalf("calls = %d", len(s.calls))
	}
	// Optional untouched fields are omitted; the enum's default is not forced in.
	if got := string(s.calls[0]); got != `{"name":"qq"}` {
		t.Fatalf("arguments = %s", got)
	}
	out := view(m)
	for _, want := range []string{"tools/call greet", "took 42ms", "[1] text", "hello"} {
		if !strings.Contains(out, want) {
			t.Errorf("result lacks %q\n%s", want, out)
		}
	}
}

func TestFormFieldsAndTypes(t *testing.T) {
	m, s := openGreet(t, 100, 30)
	typeIn(t, m, "Ann")
	keys(t, m, "tab")
	typeIn(t, m, "3")
	keys(t, m, "tab")
	typeIn(t, m, "0.5")
	keys(t, m, "tab", "right") // loud: first option
	keys(t, m, "tab", "right") // style: next option
	keys(t, m, "tab", "tab")   // address (object) → city
	typeIn(t, m, "Oslo")
	keys(t, m, "ctrl+s")
	if len(s.calls) != 1 {
		t.Fatalf("not sent: %v", m.call.form.errs)
	}
	var got map[string]any
	if err := json.Unmarshal(s.calls[0], &got); err != nil {
		t.Fatal(err)
	}
	if got["name"] != "Ann" || got["count"] != float64(3) || got["ratio"] != 0.5 {
		t.Fatalf("arguments %s", s.calls[0])
	}
	if _, ok := got["loud"].(bool); !ok {
		t.Fatalf("loud not a boolean: %s", s.calls[0])
	}
	if addr, ok := got["address"].(map[string]any); !ok || addr["city"] != "Oslo" {
		t.Fatalf("nested object: %s", s.calls[0])
	}
	if _, ok := got["zip"]; ok {
		t.Fatal("untouched nested field sent")
	}
}

func TestFormValidationErrorAtField(t *testing.T) {
	m, s := openGreet(t, 100, 30)
	typeIn(t, m, "Ann")
	keys(t, m, "tab")
	typeIn(t, m, "abc")
	keys(t, m, "ctrl+s")
	if len(s.calls) != 0 {
		t.Fatal("invalid arguments were sent")
	}
	out := view(m)
	lines := strings.Split(out, "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, "*count") || strings.Contains(l, " count ") {
			at = i
			break
		}
	}
	if at < 0 || at+1 >= len(lines) || !strings.Contains(lines[at+1], "↳ must be an integer") {
		t.Fatalf("error not under the count field:\n%s", out)
	}
	// A missing required field is reported at that field too.
	keys(t, m, "shift+tab")
	for range 3 {
		keys(t, m, "backspace")
	}
	keys(t, m, "tab", "backspace", "backspace", "backspace", "ctrl+s")
	if len(s.calls) != 0 || !strings.Contains(view(m), "↳") {
		t.Fatalf("missing required field not reported:\n%s", view(m))
	}
}

func TestFormRawJSONToggleKeepsValues(t *testing.T) {
	m, s := openGreet(t, 100, 30)
	typeIn(t, m, "Bo")
	keys(t, m, "tab")
	typeIn(t, m, "7")
	keys(t, m, "ctrl+e")
	if !m.call.form.rawMode {
		t.Fatal("ctrl+e did not open the raw editor")
	}
	raw := m.call.form.raw.Value()
	if !strings.Contains(raw, `"name": "Bo"`) || !strings.Contains(raw, `"count": 7`) {
		t.Fatalf("raw editor holds %q", raw)
	}
	typeIn(t, m, "q") // text in the editor, never quit
	if m.quitting {
		t.Fatal("q in the raw editor quit")
	}
	// Replace the value in raw mode, then go back: the form shows it.
	m.call.form.raw.SetValue(`{"name":"Cy","count":9,"loud":true}`)
	keys(t, m, "ctrl+e")
	if m.call.form.rawMode {
		t.Fatalf("did not return to the form: %v", m.call.form.errs)
	}
	f := m.call.form.form
	if f.Field("name").Text() != "Cy" || f.Field("count").Text() != "9" || f.Field("loud").Text() != "true" {
		t.Fatalf("form after raw edit: name=%q count=%q loud=%q", f.Field("name").Text(), f.Field("count").Text(), f.Field("loud").Text())
	}
	// Invalid JSON keeps the editor open with an error.
	keys(t, m, "ctrl+e")
	m.call.form.raw.SetValue(`{"name":`)
	keys(t, m, "ctrl+e")
	if !m.call.form.rawMode || !strings.Contains(view(m), "not valid JSON") {
		t.Fatalf("invalid raw JSON accepted:\n%s", view(m))
	}
	m.call.form.raw.SetValue(`{"name":"Di"}`)
	keys(t, m, "ctrl+s")
	if len(s.calls) != 1 || string(s.calls[0]) != `{"name":"Di"}` {
		t.Fatalf("raw send: %q", s.calls)
	}
}

func TestFormEscKeepsValues(t *testing.T) {
	m, _ := openGreet(t, 100, 30)
	typeIn(t, m, "Eve")
	keys(t, m, "esc")
	if m.call.form != nil || m.focus != paneTools {
		t.Fatal("esc did not close the form")
	}
	keys(t, m, "q")
	if !m.quitting {
		t.Fatal("q in the tools list does not quit")
	}
	m.quitting = false
	keys(t, m, "enter")
	if got := m.call.form.form.Field("name").Text(); got != "Eve" {
		t.Fatalf("reopened form lost its value: %q", got)
	}
}

// Golden files of the rendered form pane (plain theme) for a flat, a nested and a union
// schema, at two widths. Regenerate with: go test ./ui -run TestFormGolden -update
func TestFormGolden(t *testing.T) {
	forms := []struct {
		name  string
		tool  mcpclient.Tool
		steps []string
	}{
		// Every scalar kind, titles, descriptions, defaults, formats, examples, marks; a
		// problem shown at its field after a send attempt; the focus on the enum.
		{"flat", inlineTool("book_flight", flatSchema), []string{"'Oslo", "tab", "'0", "ctrl+s", "tab", "tab", "tab", "right"}},
		// Nested objects, a list of objects (one item), a map with an entry, a collapsed object.
		{"nested", inlineTool("deploy", nestedSchema), []string{"'web", "tab", "tab", "'2", "tab", "ctrl+n", "'8080", "tab", "right", "tab", "ctrl+n", "'LOG", "enter", "'debug", "tab", "space"}},
		// A variant picker at the root of the schema, the second variant chosen.
		{"union", inlineTool("lookup", unionSchema), []string{"right", "tab", "'ann@example", "tab"}},
	}
	for _, fm := range forms {
		for _, w := range []int{60, 120} {
			t.Run(fmt.Sprintf("%s_%d", fm.name, w), func(t *testing.T) {
				m, _ := formModel(t, w, 30, "", fm.tool)
				do(t, m, fm.steps...)
				// The form pane alone: the header and status bar belong to other tests.
				golden.RequireEqual(t, []byte(normalize(m.call.form.view(), m.lay.body.w, m.lay.body.h)))
			})
		}
	}
}

const flatSchema = `{
  "type": "object",
  "properties": {
    "from":     {"type": "string", "title": "From", "description": "IATA code or city", "minLength": 3, "examples": ["OSL", "Oslo"]},
    "seats":    {"type": "integer", "minimum": 1, "maximum": 9, "default": 1},
    "budget":   {"type": "number", "exclusiveMinimum": 0},
    "refund":   {"type": ["boolean", "null"]},
    "cabin":    {"title": "Cabin", "oneOf": [{"const": "Y", "title": "Economy"}, {"const": "J", "title": "Business", "description": "lie-flat seats"}]},
    "depart":   {"type": "string", "format": "date-time"},
    "email":    {"type": "string", "format": "email", "readOnly": true},
    "promo":    {"type": "string", "deprecated": true}
  },
  "required": ["from", "seats"]
}`

const nestedSchema = `{
  "type": "object",
  "properties": {
    "service": {"type": "string"},
    "scale": {"type": "object", "properties": {
      "replicas": {"type": "integer", "minimum": 1},
      "ports": {"type": "array", "minItems": 1, "items": {"type": "object", "properties": {
        "port": {"type": "integer"}, "proto": {"enum": ["tcp", "udp"], "default": "tcp"}}, "required": ["port"]}}},
      "required": ["replicas"]},
    "env": {"type": "object", "additionalProperties": {"type": "string"}},
    "limits": {"type": "object", "properties": {"cpu": {"type": "number"}, "memory": {"type": "string"}}}
  },
  "required": ["service", "scale"]
}`

const unionSchema = `{
  "oneOf": [
    {"title": "by id", "type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
    {"title": "by email", "type": "object", "properties": {"email": {"type": "string", "format": "email"}, "exact": {"type": "boolean", "default": true}}, "required": ["email"]},
    {"title": "everyone", "type": "null"}
  ]
}`

// In a tool form, a row that is not a text input (a select, the send button) leaves ? and
// q to the app: ? opens help, q quits; with values typed since the last send the first q
// only warns and a second q quits. In a text field q stays text.
func TestFormQuitAndHelpOffTextFields(t *testing.T) {
	weather := mcpclient.Tool{Name: "weather", InputSchema: json.RawMessage(`{"type":"object","properties":{"units":{"type":"string","enum":["celsius","fahrenheit"]},"city":{"type":"string"}}}`)}
	m, _ := formModel(t, 100, 30, "", weather)
	if f := m.call.form.focused(); f == nil || f.IsText() {
		t.Fatalf("first row is not the enum: %+v", f)
	}
	keys(t, m, "?")
	if !m.help.shown {
		t.Fatal("? on an enum did not open help")
	}
	keys(t, m, "?")
	if m.help.shown || m.call.form == nil {
		t.Fatal("? did not close help back to the form")
	}
	keys(t, m, "q")
	if !m.quitting {
		t.Fatal("q on an enum of an untouched form did not quit")
	}

	m, _ = formModel(t, 100, 30, "", weather)
	keys(t, m, "tab")
	typeIn(t, m, "q?")
	if m.quitting || m.help.shown || m.call.form.form.Field("city").Text() != "q?" {
		t.Fatalf("q? in a text field: quitting=%v help=%v city=%q", m.quitting, m.help.shown, m.call.form.form.Field("city").Text())
	}
	keys(t, m, "tab") // the send button
	keys(t, m, "q")
	if m.quitting {
		t.Fatal("q quit at once from a form with unsent values")
	}
	if !strings.Contains(view(m), "q again quits") {
		t.Fatalf("no warning after q:\n%s", view(m))
	}
	keys(t, m, "q")
	if !m.quitting {
		t.Fatal("a second q did not quit")
	}
}
