package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// How the form view edits values: lists, maps, collapsing, null and omit, defaults and
// examples, raw mode, send anyway.

func TestFormListItemsAddRemoveReorder(t *testing.T) {
	m, s := formModel(t, 100, 40, "", inlineTool("t", `{"type":"object","properties":{
		"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3}}}`))
	if !strings.Contains(view(m), "— not sent · ctrl+n adds an item · 1–3 items") {
		t.Fatalf("empty list row:\n%s", view(m))
	}
	do(t, m, "ctrl+n", "'a", "ctrl+n", "'b", "ctrl+n", "'c")
	if got := m.call.form.form.Root().Children()[0].Children(); len(got) != 3 {
		t.Fatalf("%d items", len(got))
	}
	// The cursor is on c: move it to the top, then remove b.
	do(t, m, "alt+up", "alt+up")
	if f := m.call.form.focused(); f.Text() != "c" || f.Key != "0" {
		t.Fatalf("after moving up, focus on %q at %s", f.Text(), f.Key)
	}
	do(t, m, "down", "down", "ctrl+d")
	// ctrl+n on an item inserts after it.
	do(t, m, "up", "ctrl+n", "'x")
	wantSent(t, m, s, `{"tags":["c","x","a"]}`)

	// On the list's row: ctrl+d removes the last item; space closes and opens the list.
	reopen(t, m)
	p := m.call.form
	do(t, m, "tab") // wraps from [send] … the form reopens on its last focus
	for p.focused() == nil || p.focused().Label != "tags" {
		do(t, m, "tab")
	}
	do(t, m, "ctrl+d")
	do(t, m, "space")
	if !strings.Contains(view(m), "▸ 2 items (space opens)") || rowOf(strings.Split(view(m), "\n"), "[0]") >= 0 {
		t.Fatalf("collapsed list still shows items:\n%s", view(m))
	}
	do(t, m, "space")
	if rowOf(strings.Split(view(m), "\n"), "[1]") < 0 {
		t.Fatalf("opened list hides items:\n%s", view(m))
	}
	wantSent(t, m, s, `{"tags":["c","x"]}`)
}

func TestFormArrayOfObjectsIsASubForm(t *testing.T) {
	m, s := formModel(t, 100, 40, "", inlineTool("t", `{"type":"object","properties":{
		"people":{"type":"array","items":{"type":"object","properties":{
			"name":{"type":"string"},"age":{"type":"integer"}},"required":["name"]}}}}`))
	do(t, m, "ctrl+n", "'Ann", "tab", "'31", "ctrl+n", "'Bo")
	lines := strings.Split(view(m), "\n")
	for _, want := range []string{"[0]", "[1]", "name", "age"} {
		if rowOf(lines, want) < 0 {
			t.Fatalf("no row %s:\n%s", want, view(m))
		}
	}
	// The new item went after the first and the cursor into its first field.
	wantSent(t, m, s, `{"people":[{"name":"Ann","age":31},{"name":"Bo"}]}`)
	// Reordering from inside an item moves the whole item.
	reopen(t, m)
	for m.call.form.focused() == nil || m.call.form.focused().Text() != "Bo" {
		do(t, m, "tab")
	}
	do(t, m, "alt+up")
	wantSent(t, m, s, `{"people":[{"name":"Bo"},{"name":"Ann","age":31}]}`)
}

func TestFormMapEntries(t *testing.T) {
	m, s := formModel(t, 100, 40, "", schemaTool(t, "go_jsonschema"))
	p := m.call.form
	for p.focused().Label != "headers" {
		do(t, m, "tab")
	}
	do(t, m, "ctrl+n")
	if !strings.Contains(view(m), "new key: ") {
		t.Fatalf("no key prompt:\n%s", view(m))
	}
	// esc cancels the prompt, not the form.
	do(t, m, "'Z", "esc")
	if m.call.form == nil || strings.Contains(view(m), "new key:") {
		t.Fatal("esc in the key prompt closed the form or left the prompt")
	}
	do(t, m, "ctrl+n", "'X-A", "enter", "'1", "ctrl+n", "'X-A", "enter")
	if !strings.Contains(view(m), `↳ there is already an entry "X-A"`) {
		t.Fatalf("duplicate key not refused:\n%s", view(m))
	}
	do(t, m, "ctrl+a", "ctrl+k", "'X-B", "enter", "'2")
	// alt+k renames the entry under the cursor; ctrl+d removes it.
	do(t, m, "alt+k", "ctrl+a", "ctrl+k", "'X-C", "enter")
	do(t, m, "'r", "tab", "tab", "tab", "tab", "tab", "tab")
	_ = p
	keys(t, m, "ctrl+s") // raw and count are missing
	reqd := errorAt(t, m, "raw")
	if reqd != "is required" {
		t.Fatalf("raw: %q", reqd)
	}
	do(t, m, "'R")
	for m.call.form.focused().Label != "count" {
		do(t, m, "tab")
	}
	do(t, m, "'1")
	wantSent(t, m, s, `{"raw":"R","count":1,"headers":{"X-A":"1","X-C":"2r"}}`)
	reopen(t, m)
	for !m.call.form.focused().IsEntry() || m.call.form.focused().Key != "X-A" {
		do(t, m, "tab")
	}
	do(t, m, "ctrl+d")
	wantSent(t, m, s, `{"raw":"R","count":1,"headers":{"X-C":"2r"}}`)
}

func TestFormRootMap(t *testing.T) {
	m, s := formModel(t, 100, 30, "", inlineTool("t", `{"type":"object","additionalProperties":{"type":"integer"}}`))
	if !strings.Contains(view(m), "ctrl+n add item/entry") {
		t.Fatalf("the footer does not offer entries:\n%s", view(m))
	}
	do(t, m, "ctrl+n", "'a", "enter", "'5", "ctrl+n", "'b", "enter", "'x")
	if got := errorAt(t, m, `"b"`); got != "must be an integer, like 42 or -3" {
		t.Fatalf("b: %q", got)
	}
	do(t, m, "backspace", "'6")
	wantSent(t, m, s, `{"a":5,"b":6}`)
}

func TestFormNullOmitEmptyString(t *testing.T) {
	m, s := formModel(t, 100, 30, "", inlineTool("t", `{"type":"object","properties":{
		"note":{"type":["string","null"]},"n":{"type":"integer"}},"required":["n"]}`))
	do(t, m, "alt+n")
	if !strings.Contains(view(m), "null") {
		t.Fatal("null not shown")
	}
	do(t, m, "tab", "'1")
	wantSent(t, m, s, `{"note":null,"n":1}`)
	reopen(t, m)
	focusOn(t, m, "note")
	do(t, m, "alt+e")
	wantSent(t, m, s, `{"note":"","n":1}`)
	reopen(t, m)
	focusOn(t, m, "note")
	do(t, m, "alt+o")
	wantSent(t, m, s, `{"n":1}`)
	// n does not allow null: the form says so and changes nothing.
	reopen(t, m)
	focusOn(t, m, "n")
	do(t, m, "alt+n")
	if !strings.Contains(view(m), "the schema does not allow null here") {
		t.Fatalf("no refusal:\n%s", view(m))
	}
	// Omitting a required field is allowed, and reported.
	do(t, m, "alt+o", "ctrl+s")
	if got := errorAt(t, m, "n"); got != "is required" {
		t.Fatalf("n: %q", got)
	}
}

func TestFormDefaultsAndExamples(t *testing.T) {
	m, s := formModel(t, 120, 30, "", inlineTool("t", `{"type":"object","properties":{
		"mode":{"type":"string","examples":["fast","safe"],"description":"how to run"},
		"retries":{"type":"integer","default":3},
		"size":{"type":"integer","default":10}},"required":["size"]}`))
	out := view(m)
	for _, want := range []string{"how to run", `examples "fast" · "safe" · ctrl+t fills one in`, "3 (default, not sent)", "10 (default)"} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks %q\n%s", want, out)
		}
	}
	do(t, m, "ctrl+t", "ctrl+t") // cycles the examples: safe
	do(t, m, "tab")              // retries: the default is a placeholder, not sent
	wantSent(t, m, s, `{"mode":"safe","size":10}`)
	reopen(t, m)
	focusOn(t, m, "retries")
	do(t, m, "ctrl+y") // retries accepted
	focusOn(t, m, "size")
	do(t, m, "'7") // typing over the form's default replaces it
	wantSent(t, m, s, `{"mode":"safe","retries":3,"size":7}`)
}

func TestFormRawModeLive(t *testing.T) {
	m, s := formModel(t, 100, 30, "", schemaTool(t, "b19_optional_fields"))
	do(t, m, "'heart", "ctrl+e")
	p := m.call.form
	if !p.rawMode || !strings.Contains(p.raw.Value(), `"query": "heart"`) {
		t.Fatalf("raw editor: %q", p.raw.Value())
	}
	if !strings.Contains(view(m), "✓ valid JSON, matches the schema") {
		t.Fatalf("no verdict:\n%s", view(m))
	}
	// Typing: the text is never rewritten, problems show as they appear.
	p.raw.SetValue("")
	typed := `{"query": "", "page_size": 1.5`
	typeIn(t, m, typed)
	if p.raw.Value() != typed {
		t.Fatalf("the editor rewrote the text: %q", p.raw.Value())
	}
	if !strings.Contains(view(m), "✗ not valid JSON") {
		t.Fatalf("no JSON error while typing:\n%s", view(m))
	}
	typeIn(t, m, "}")
	out := view(m)
	for _, want := range []string{"✗ query: must be at least 1 character", "✗ page_size: must be an integer, not a number"} {
		if !strings.Contains(out, want) {
			t.Errorf("raw view lacks %q\n%s", want, out)
		}
	}
	// Back to the form: values kept; forth again: the user's own text comes back.
	do(t, m, "ctrl+e")
	if p.rawMode || p.form.Field("page_size").Text() != "1.5" {
		t.Fatalf("form after raw: rawMode %v page_size %q", p.rawMode, p.form.Field("page_size").Text())
	}
	do(t, m, "ctrl+e")
	if p.raw.Value() != typed+"}" {
		t.Fatalf("the user's text was not kept: %q", p.raw.Value())
	}
	// Sending from raw mode asks first, then sends the text as typed (compacted).
	do(t, m, "ctrl+s")
	if callCount(s) != 0 || !strings.Contains(view(m), "2 problem(s) listed below") {
		t.Fatalf("raw send did not ask:\n%s", view(m))
	}
	keys(t, m, "ctrl+s")
	if got := lastCall(t, m, s); got != `{"query":"","page_size":1.5}` {
		t.Fatalf("raw send: %s", got)
	}
}

func TestFormRawModeInvalidJSONStays(t *testing.T) {
	m, s := formModel(t, 100, 30, "", schemaTool(t, "b19_optional_fields"))
	do(t, m, "ctrl+e")
	m.call.form.raw.SetValue(`{"query":`)
	do(t, m, "ctrl+e")
	if !m.call.form.rawMode || !strings.Contains(view(m), "fix it to go back to the form") {
		t.Fatalf("left raw mode with invalid JSON:\n%s", view(m))
	}
	do(t, m, "ctrl+s", "ctrl+s")
	if callCount(s) != 0 {
		t.Fatal("invalid JSON was sent")
	}
	if m.call.form.raw.Value() != `{"query":` {
		t.Fatalf("text changed: %q", m.call.form.raw.Value())
	}
}

func TestFormSendAnywayIsMarked(t *testing.T) {
	m, s := formModel(t, 100, 30, "", schemaTool(t, "b19_optional_fields"))
	do(t, m, "tab", "tab", "'2.5", "ctrl+s")
	if callCount(s) != 0 || !strings.Contains(view(m), "[ send anyway ]") {
		t.Fatalf("first ctrl+s sent or did not ask:\n%s", view(m))
	}
	// The cursor went to the first problem (query, required). Any edit withdraws the question.
	if f := m.call.form.focused(); f == nil || f.Key != "query" {
		t.Fatalf("focus after the refused send: %v", f)
	}
	focusOn(t, m, "page_size")
	do(t, m, "backspace", "'5")
	if strings.Contains(view(m), "[ send anyway ]") {
		t.Fatal("the question survived an edit")
	}
	do(t, m, "ctrl+s", "ctrl+s")
	// The unparseable page_size goes as typed; query is missing: sent as the user asked.
	if got := lastCall(t, m, s); got != `{"page_size":2.5}` {
		t.Fatalf("sent %s", got)
	}
	out := view(m)
	for _, want := range []string{"⚠ sent despite validation errors (2):", "page_size: must be an integer", "query: is required"} {
		if !strings.Contains(out, want) {
			t.Errorf("result lacks %q\n%s", want, out)
		}
	}
	// A valid call is not marked.
	reopen(t, m)
	focusOn(t, m, "query")
	do(t, m, "'q")
	focusOn(t, m, "page_size")
	do(t, m, "ctrl+a", "ctrl+k")
	wantSent(t, m, s, `{"query":"q"}`)
	if strings.Contains(view(m), "sent despite") {
		t.Fatalf("a valid call is marked:\n%s", view(m))
	}
}

// Server text in titles, descriptions, enum labels, examples and defaults is sanitized.
func TestFormSanitizesSchemaText(t *testing.T) {
	evil := "\x1b[31mred\x1b[0m\u202e"
	schema := `{"type":"object","properties":{
		"a":{"type":"string","title":"T` + jsonEsc(evil) + `","description":"D` + jsonEsc(evil) + `","examples":["E` + jsonEsc(evil) + `"],"default":"F` + jsonEsc(evil) + `"},
		"b":{"oneOf":[{"const":1,"title":"L` + jsonEsc(evil) + `"}]},
		"c":{"type":"string","format":"\u001b]0;x\u0007"},
		"d":{"type":"\u001b[2J"}}}`
	m, _ := formModel(t, 160, 30, "", mcpclient.Tool{Name: "x" + evil, Description: "d" + evil, InputSchema: []byte(schema)})
	do(t, m, "tab")
	out := view(m)
	// The plain theme draws no escapes of its own; only the input's cursor would.
	if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(out, "\x1b[7m", ""), "\x1b[m", ""), "\x1b") || strings.ContainsRune(out, '\u202e') {
		t.Fatalf("raw control characters reached the screen: %q", out)
	}
	do(t, m, "shift+tab")
	out = view(m)
	for _, want := range []string{`T\x1b[31mred`, `D\x1b[31mred`, `E\u001b[31mred`} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks the escaped %q\n%s", want, out)
		}
	}
}

// jsonEsc writes s for the inside of a JSON string, control characters as \u escapes.
func jsonEsc(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x202e {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func TestFormMarksAndInfo(t *testing.T) {
	m, _ := formModel(t, 120, 30, "", inlineTool("t", `{"type":"object","properties":{
		"id":{"type":"string","readOnly":true,"format":"uuid"},
		"old":{"type":"integer","deprecated":true,"title":"Legacy count"}}}`))
	out := view(m)
	for _, want := range []string{"read-only", "deprecated", "uuid", "format uuid (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx), checked as you type",
		"readOnly: the server manages this value"} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks %q\n%s", want, out)
		}
	}
	do(t, m, "'nope")
	if got := errorAt(t, m, "id"); got != "must be a valid uuid, like 123e4567-e89b-12d3-a456-426614174000" {
		t.Errorf("uuid check: %q", got)
	}
	do(t, m, "tab")
	if out := view(m); !strings.Contains(out, `sent as "old"`) || !strings.Contains(out, "deprecated: the server may stop accepting it") {
		t.Errorf("title/key info:\n%s", out)
	}
}

// Keys the schema does not know, loaded from the raw editor or history, are sent and said.
func TestFormShowsKeysNotInTheSchema(t *testing.T) {
	m, s := formModel(t, 120, 30, "", inlineTool("t", `{"type":"object","properties":{
		"a":{"type":"object","properties":{"b":{"type":"string"}},"additionalProperties":false}},"additionalProperties":false}`))
	do(t, m, "ctrl+e")
	m.call.form.raw.SetValue(`{"a":{"b":"x","c":1},"z":true}`)
	do(t, m, "ctrl+e")
	out := view(m)
	for _, want := range []string{`also sent, not in the schema: {"z":true}`, `+ keys not in the schema: {"c":1}`} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks %q\n%s", want, out)
		}
	}
	do(t, m, "ctrl+s", "ctrl+s")
	if got := lastCall(t, m, s); got != `{"a":{"b":"x","c":1},"z":true}` {
		t.Fatalf("sent %s", got)
	}
}

// A form taller than the pane scrolls to keep the focused field and its notes in view,
// under a header and above a footer that stay put.
func TestFormScrollsToFocus(t *testing.T) {
	var props []string
	for i := range 30 {
		props = append(props, fmt.Sprintf(`"f%02d":{"type":"string","description":"field number %d"}`, i, i))
	}
	m, _ := formModel(t, 80, 16, "", inlineTool("long", `{"type":"object","properties":{`+strings.Join(props, ",")+`}}`))
	for i := range 30 {
		out := view(m)
		lines := strings.Split(out, "\n")
		if !strings.HasPrefix(lines[1], "call long") || !strings.Contains(lines[len(lines)-2], "esc close form") && !strings.Contains(lines[len(lines)-2], "form") {
			t.Fatalf("header or footer moved at field %d:\n%s", i, out)
		}
		row := rowOf(lines, fmt.Sprintf("f%02d", i))
		if row < 0 || !strings.HasPrefix(lines[row], "▸") || !strings.Contains(out, fmt.Sprintf("field number %d", i)) {
			t.Fatalf("focused field f%02d or its description not in view:\n%s", i, out)
		}
		do(t, m, "tab")
	}
	if !strings.Contains(view(m), "[ send ]") {
		t.Fatalf("the send button is not in view:\n%s", view(m))
	}
}

// A multi-select wider than the row shows the options around the cursor.
func TestFormWideMultiSelect(t *testing.T) {
	var opts []string
	for i := range 12 {
		opts = append(opts, fmt.Sprintf(`"option-number-%02d"`, i))
	}
	m, s := formModel(t, 80, 20, "", inlineTool("t", `{"type":"object","properties":{"pick":{"type":"array","items":{"enum":[`+strings.Join(opts, ",")+`]}}}}`))
	for range 9 {
		do(t, m, "right")
	}
	do(t, m, "space")
	out := view(m)
	if !strings.Contains(out, "… ▸[x] option-number-09 …") || !strings.Contains(out, "1 of 12 chosen") {
		t.Fatalf("the cursor's option is not in view:\n%s", out)
	}
	do(t, m, "tab")
	if out := view(m); !strings.Contains(out, "option-number-09  1 of 12 chosen") {
		t.Fatalf("unfocused multi-select:\n%s", out)
	}
	wantSent(t, m, s, `{"pick":["option-number-09"]}`)
}

// Outside lists and maps, ctrl+d is the input's own "delete forward".
func TestFormCtrlDOutsideLists(t *testing.T) {
	m, s := formModel(t, 100, 20, "", realTool(t, serverEverything, "echo"))
	do(t, m, "'abc", "ctrl+a", "ctrl+d")
	wantSent(t, m, s, `{"message":"bc"}`)
}
