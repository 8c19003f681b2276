package ui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Regression tests for what a fresh-eyes tester found in the forms: typed text lost on a
// round trip to raw mode, send anyway dropping it, a problem count above what is shown,
// keys dropped on a list's row, integers written 1e3, a package name in an error, a
// non-object inputSchema not flagged, and (B15) the raw editor never rewriting text.

// demoAdd is the demo server's add tool: two required numbers.
const demoAdd = `{"type":"object","properties":{
	"a":{"type":"number","description":"First addend"},
	"b":{"type":"number","description":"Second addend"}},
	"required":["a","b"],"additionalProperties":false}`

// demoCreateIssue is the demo server's create_issue tool: a list of labels among others.
const demoCreateIssue = `{"type":"object","properties":{
	"title":{"type":"string","minLength":1,"description":"One-line summary"},
	"labels":{"type":"array","items":{"type":"string"},"description":"Labels, e.g. bug, ui"},
	"priority":{"type":"string","enum":["low","medium","high","urgent"],"default":"medium"},
	"assignee":{"type":"object","description":"Who should work on it","properties":{
		"name":{"type":"string"},"email":{"type":"string","format":"email"}},
		"required":["name"],"additionalProperties":false}},
	"required":["title"],"additionalProperties":false}`

// Text that does not parse survives a round trip to the raw editor and back.
func TestFormRawRoundTripKeepsUnparsedText(t *testing.T) {
	m, _ := formModel(t, 120, 40, "", inlineTool("add", demoAdd))
	p := m.call.form
	do(t, m, "'abc", "ctrl+e")
	if !p.rawMode || !strings.Contains(p.raw.Value(), `"a": "abc"`) {
		t.Fatalf("the editor does not show the typed text: %q", p.raw.Value())
	}
	if out := view(m); !strings.Contains(out, "note: a: must be a number, like 42, -1.5 or 1e3 — shown here as typed, as send anyway sends it") {
		t.Fatalf("no note about the text shown as typed:\n%s", out)
	}
	do(t, m, "ctrl+e")
	if p.rawMode {
		t.Fatalf("still in raw mode: %v", p.errs)
	}
	if got := p.form.Field("a").Text(); got != "abc" {
		t.Fatalf("a after the round trip: %q, want the typed abc", got)
	}
	if got := errorAt(t, m, "a"); got != "must be a number, like 42, -1.5 or 1e3" {
		t.Fatalf("a's problem after the round trip: %q", got)
	}

	// An edit elsewhere in the editor keeps a's text too (its value there is unchanged).
	do(t, m, "ctrl+e")
	p.raw.SetValue(`{"a": "abc", "b": 2}`)
	do(t, m, "ctrl+e")
	if a, b := p.form.Field("a").Text(), p.form.Field("b").Text(); a != "abc" || b != "2" || p.form.Field("a").Foreign() {
		t.Fatalf("after an edit of b: a %q (foreign %v), b %q", a, p.form.Field("a").Foreign(), b)
	}
	// A value the user changed in the editor is what the field holds: nothing is lost.
	do(t, m, "ctrl+e")
	p.raw.SetValue(`{"a": "xyz", "b": 2}`)
	do(t, m, "ctrl+e")
	if got := p.form.Field("a").Text(); got != `"xyz"` || !p.form.Field("a").Foreign() {
		t.Fatalf("a after an edit in the editor: %q", got)
	}
}

// Send anyway sends what the user typed: text that does not parse goes as typed.
func TestFormSendAnywaySendsTypedText(t *testing.T) {
	m, s := formModel(t, 120, 40, "", inlineTool("add", demoAdd))
	do(t, m, "'abc", "ctrl+s")
	if callCount(s) != 0 {
		t.Fatal("the first ctrl+s sent")
	}
	if out := view(m); !strings.Contains(strings.Join(m.call.form.errs, "\n"), "(text that does not parse is sent as typed)") || !strings.Contains(out, `arguments: {"a":"abc"}`) {
		t.Fatalf("the question does not say what is sent:\n%s", out)
	}
	keys(t, m, "ctrl+s")
	if got := lastCall(t, m, s); got != `{"a":"abc"}` {
		t.Fatalf("send anyway sent %s, want {\"a\":\"abc\"}", got)
	}
	if out := view(m); !strings.Contains(out, "⚠ sent despite validation errors (2):") {
		t.Fatalf("the call is not marked:\n%s", out)
	}
	// The question was about that send: the form opened again asks again.
	reopen(t, m)
	keys(t, m, "ctrl+s")
	if callCount(s) != 1 || !strings.Contains(view(m), "problem(s), shown at the fields") {
		t.Fatalf("the reopened form sent anyway without asking:\n%s", view(m))
	}
	// An integer field with a fraction sends the number the user typed.
	m, s = formModel(t, 120, 40, "", inlineTool("t", `{"type":"object","properties":{"n":{"type":"integer"}}}`))
	do(t, m, "'1.5", "ctrl+s", "ctrl+s")
	if got := lastCall(t, m, s); got != `{"n":1.5}` {
		t.Fatalf("send anyway sent %s", got)
	}
}

// problemsShown counts the problems the form draws: under rows ("↳ …") and in the header
// ("✗ …", the question itself left out).
func problemsShown(out string) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "↳ ") || (strings.HasPrefix(l, "✗ ") && !strings.Contains(l, "problem(s)")) {
			n++
		}
	}
	return n
}

var problemCount = regexp.MustCompile(`✗ (\d+) problem\(s\), shown at the fields`)

// The number of problems the question names is the number shown.
func TestFormProblemCountMatchesShown(t *testing.T) {
	cases := []struct {
		name, schema string
		steps        []string
		want         string
	}{
		{"unparsed and missing", demoAdd, []string{"'abc"}, "2"},
		// A problem inside a closed group: the group opens to show it.
		{"closed group", `{"type":"object","properties":{
			"o":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"string"}},"required":["x"]}},"required":["o"]}`,
			[]string{"tab", "'abc", "up", "space"}, "1"},
		// A rule of the whole value is shown in the header.
		{"whole value", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"anyOf":[{"required":["a"]},{"required":["b"]}]}`,
			nil, "1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, s := formModel(t, 120, 40, "", inlineTool("t", c.schema))
			do(t, m, c.steps...)
			keys(t, m, "ctrl+s")
			if callCount(s) != 0 {
				t.Fatal("sent with problems")
			}
			out := view(m)
			got := problemCount.FindStringSubmatch(out)
			if got == nil {
				t.Fatalf("no question:\n%s", out)
			}
			if n, _ := strconv.Atoi(got[1]); got[1] != c.want || problemsShown(out) != n {
				t.Fatalf("the question counts %s problem(s), %d are shown, want %s:\n%s", got[1], problemsShown(out), c.want, out)
			}
		})
	}
}

// On a list's row, + (like ctrl+n) adds an item and focuses its input; typing on the row
// starts a new item with what was typed. Nothing typed is dropped.
func TestFormListRowTakesTyping(t *testing.T) {
	m, s := formModel(t, 140, 40, "", inlineTool("create_issue", demoCreateIssue))
	do(t, m, "'x")
	focusOn(t, m, "labels")
	do(t, m, "+", "'bug")
	if f := m.call.form.focused(); f == nil || f.Key != "0" || f.Text() != "bug" {
		t.Fatalf("after + and typing, focus on %v:\n%s", f, view(m))
	}
	focusOn(t, m, "labels")
	do(t, m, "'ui")
	wantSent(t, m, s, `{"title":"x","labels":["bug","ui"]}`)
	// The help on the list's row names both keys.
	reopen(t, m)
	focusOn(t, m, "labels")
	if out := view(m); !strings.Contains(out, "ctrl+n/+ add item/entry") {
		t.Fatalf("the row's help lacks +:\n%s", out)
	}
	// In a text field, + is text.
	focusOn(t, m, "title")
	do(t, m, "'+1")
	if got := m.call.form.form.Field("title").Text(); got != "x+1" {
		t.Fatalf("title %q", got)
	}
	// On a map's row, typing starts the new entry's key.
	m, s = formModel(t, 140, 40, "", inlineTool("t", `{"type":"object","properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}}}`))
	do(t, m, "'K", "enter", "'v")
	wantSent(t, m, s, `{"env":{"K":"v"}}`)
}

// Integers: a number with a zero fractional part is an integer (JSON Schema), sent as
// exact digits; a fraction is refused.
func TestFormIntegerSpellings(t *testing.T) {
	m, s := formModel(t, 120, 40, "", inlineTool("t", `{"type":"object","properties":{"n":{"type":"integer"}}}`))
	for _, c := range []struct{ typed, sent string }{
		{"1e3", `{"n":1000}`},
		{"2.0", `{"n":2}`},
		{"-1.5E1", `{"n":-15}`},
		{"123456789012345678901234567890.000", `{"n":123456789012345678901234567890}`},
		{"9007199254740993", `{"n":9007199254740993}`},
	} {
		do(t, m, "ctrl+a", "ctrl+k", "'"+c.typed)
		if e := errorAt(t, m, "n"); e != "" {
			t.Fatalf("%s refused: %s", c.typed, e)
		}
		wantSent(t, m, s, c.sent)
		reopen(t, m)
		focusOn(t, m, "n")
	}
	do(t, m, "ctrl+a", "ctrl+k", "'1.5")
	if e := errorAt(t, m, "n"); e != "must be an integer (no fractional part)" {
		t.Fatalf("1.5: %q", e)
	}
}

// User-facing errors carry no package name; a JSON error says where the text breaks.
func TestFormRawErrorWording(t *testing.T) {
	m, _ := formModel(t, 120, 40, "", inlineTool("add", demoAdd))
	do(t, m, "ctrl+e")
	m.call.form.raw.SetValue("{\n  \"a\": 1,\n  \"b\": x\n}")
	do(t, m, "ctrl+e")
	out := view(m)
	if strings.Contains(out, "schemaform") {
		t.Fatalf("a package name reaches the user:\n%s", out)
	}
	want := "✗ not valid JSON: invalid character 'x' looking for beginning of value (line 3, column 8); fix it to go back to the form"
	if !strings.Contains(strings.Join(m.call.form.errs, "\n"), strings.TrimPrefix(want, "✗ ")) || !strings.Contains(out, "✗ not valid JSON: invalid character 'x'") {
		t.Fatalf("want %q in\n%s", want, out)
	}
}

// A tool whose inputSchema is not "type": "object" is flagged, naming the rule, and
// still sends what the user enters.
func TestFormFlagsNonObjectInputSchema(t *testing.T) {
	m, s := formModel(t, 120, 40, "", inlineTool("t", `{"type":"string"}`))
	want := `⚠ inputSchema has "type": "string"; MCP requires "type": "object" (schema.ts Tool.inputSchema`
	if out := view(m); !strings.Contains(out, want) {
		t.Fatalf("no warning %q:\n%s", want, out)
	}
	do(t, m, "'hello")
	wantSent(t, m, s, `"hello"`)

	for schema, want := range map[string]string{
		`{"properties":{"a":{"type":"string"}}}`: `⚠ inputSchema has no "type"; MCP requires "type": "object"`,
		`{"type":["object","null"]}`:             `⚠ inputSchema has "type": ["object","null"]; MCP requires`,
		`[1,2]`:                                  `⚠ inputSchema is [1,2], not a JSON Schema object; MCP requires`,
		`{"type":"object"}`:                      "",
	} {
		m, _ := formModel(t, 120, 40, "", inlineTool("t", schema))
		out := view(m)
		if want == "" && strings.Contains(out, "⚠ inputSchema") || want != "" && !strings.Contains(out, want) {
			t.Errorf("%s: want %q in\n%s", schema, want, out)
		}
	}
}

// B15: the raw editor never rewrites what the user types, key by key, while the text is
// invalid JSON and once it becomes valid; the verdict follows the text.
func TestFormRawEditorNeverRewritesB15(t *testing.T) {
	m, s := formModel(t, 120, 40, "", schemaTool(t, "b15_nullable_enum"))
	p := m.call.form
	do(t, m, "ctrl+e")
	p.raw.SetValue("")
	typed := ""
	strokes := []string{}
	for _, r := range `{"direction": null,` {
		strokes = append(strokes, string(r))
	}
	strokes = append(strokes, "enter")
	for _, r := range ` "retries": 2}` {
		strokes = append(strokes, string(r))
	}
	for i, k := range strokes {
		if k == "enter" {
			keys(t, m, "enter")
			typed += "\n"
		} else {
			typeIn(t, m, k)
			typed += k
		}
		if got := p.raw.Value(); got != typed {
			t.Fatalf("after key %d the editor holds %q, want %q", i, got, typed)
		}
		out := view(m)
		valid := i == len(strokes)-1
		if valid != strings.Contains(out, "✓ valid JSON, matches the schema") || valid == strings.Contains(out, "✗ not valid JSON") {
			t.Fatalf("after %q the verdict is wrong:\n%s", typed, out)
		}
	}
	wantSent(t, m, s, `{"direction":null,"retries":2}`)
}
