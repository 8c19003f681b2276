package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/schemaform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// schemaTool is a tool whose input schema is read from internal/schemaform/testdata/name.
func schemaTool(t testing.TB, name string) mcpclient.Tool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "internal", "schemaform", "testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return mcpclient.Tool{Name: name, InputSchema: b}
}

// realTool is a tool as a real server listed it: ui/testdata/tools/file.json holds the
// `tools` of its tools/list answer.
func realTool(t testing.TB, file, name string) mcpclient.Tool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "tools", file+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var tools []mcpclient.Tool
	if err := json.Unmarshal(b, &tools); err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("%s lists no tool %q", file, name)
	return mcpclient.Tool{}
}

// inlineTool is a tool with the given input schema.
func inlineTool(name, schema string) mcpclient.Tool {
	return mcpclient.Tool{Name: name, InputSchema: json.RawMessage(schema)}
}

// formModel starts a model on a fake server listing tools (plain theme, fixed clock) and
// opens the form of the first one. dir is the history directory ("" for none).
func formModel(t testing.TB, w, h int, dir string, tools ...mcpclient.Tool) (*model, *fakeSession) {
	t.Helper()
	s := &fakeSession{
		init:   &mcpclient.InitializeResult{ProtocolVersion: "2025-11-25", ServerInfo: mcpclient.Implementation{Name: "fake", Version: "1.2.3"}},
		tools:  tools,
		result: &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{{Type: "text", Text: "ok"}}},
	}
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "fake-server", Session: s, HistoryDir: dir})
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	exec(t, m, m.Init(), 0)
	if len(m.tools.tools) != len(tools) {
		t.Fatalf("tools not listed: %d", len(m.tools.tools))
	}
	openForm(t, m, tools[0].Name)
	return m, s
}

// openForm opens the form of the listed tool name, as enter in the tools pane does.
func openForm(t testing.TB, m *model, name string) {
	t.Helper()
	tl := m.toolNamed(name)
	if tl == nil {
		t.Fatalf("no tool %q", name)
	}
	m.focus = paneCall
	exec(t, m, m.call.open(*tl), 0)
}

// do presses keys in order; a step starting with ' types the rest as text.
func do(t testing.TB, m *model, steps ...string) {
	t.Helper()
	for _, s := range steps {
		if strings.HasPrefix(s, "'") {
			typeIn(t, m, s[1:])
		} else {
			keys(t, m, s)
		}
	}
}

// lastCall returns the arguments of the last tools/call, failing when nothing was sent.
func lastCall(t testing.TB, m *model, s *fakeSession) string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.calls) == 0 {
		msg := "(no form)"
		if m.call.form != nil {
			msg = strings.Join(m.call.form.errs, "; ")
		}
		t.Fatalf("nothing was sent: %s\n%s", msg, view(m))
	}
	return string(s.calls[len(s.calls)-1])
}

// callCount is how many tools/calls were made.
func callCount(s *fakeSession) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

// rowOf returns the index of the first line of the view holding a field row whose label
// column starts with label (after the cursor, indentation and required mark).
func rowOf(lines []string, label string) int {
	for i, l := range lines {
		trimmed := strings.TrimLeft(strings.TrimPrefix(l, "▸"), " *")
		if strings.HasPrefix(trimmed, label+" ") {
			return i
		}
	}
	return -1
}

// errorAt returns the problem shown at the field labelled label (the first such row),
// checking that the view draws it as "↳ …" right under that row; "" when none is shown.
func errorAt(t testing.TB, m *model, label string) string {
	t.Helper()
	p := m.call.form
	var f *schemaform.Field
	for _, fl := range p.fields {
		if fieldLabel(fl) == label {
			f = fl
			break
		}
	}
	lines := strings.Split(view(m), "\n")
	i := rowOf(lines, label)
	if f == nil || i < 0 {
		t.Fatalf("no row %q in\n%s", label, strings.Join(lines, "\n"))
	}
	got := p.shownError(f)
	under := ""
	if i+1 < len(lines) {
		under = strings.TrimSpace(lines[i+1])
	}
	switch {
	case got == "" && strings.HasPrefix(under, "↳"):
		t.Fatalf("row %q has a problem drawn under it but none shown: %q", label, under)
	case got != "" && !strings.HasPrefix(under, "↳ "+firstWords(got)):
		t.Fatalf("problem %q of %q not drawn under its row:\n%s", got, label, strings.Join(lines, "\n"))
	}
	return got
}

// firstWords is the start of a message, which fits on the first line of any wrapping.
func firstWords(s string) string {
	if len(s) > 20 {
		return s[:20]
	}
	return s
}

// wantSent sends (ctrl+s) and checks the exact arguments on the wire.
func wantSent(t testing.TB, m *model, s *fakeSession, want string) {
	t.Helper()
	n := callCount(s)
	keys(t, m, "ctrl+s")
	if callCount(s) != n+1 {
		t.Fatalf("ctrl+s sent nothing: %v\n%s", m.call.form.errs, view(m))
	}
	if got := lastCall(t, m, s); got != want {
		t.Fatalf("sent\n got %s\nwant %s", got, want)
	}
}

// reopen opens the form of the last call again (e in the result view).
func reopen(t testing.TB, m *model) {
	t.Helper()
	keys(t, m, "e")
	if m.call.form == nil {
		t.Fatal("e did not reopen the form")
	}
}

// focusOn moves the cursor (tab) to the first field labelled label.
func focusOn(t testing.TB, m *model, label string) {
	t.Helper()
	p := m.call.form
	for range len(p.fields) + 1 {
		if f := p.focused(); f != nil && fieldLabel(f) == label {
			return
		}
		keys(t, m, "tab")
	}
	t.Fatalf("no field %q to focus:\n%s", label, view(m))
}

// setArg sets argument i of an argument form as typing it would ("" leaves it unset),
// and shows it in the input when i is focused.
func setArg(f *formPane, i int, v string) {
	if v == "" {
		f.fields[i].Clear()
	} else {
		_ = f.fields[i].SetText(v)
	}
	if i == f.cur {
		f.loadInput()
	}
	f.edited()
}
