package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// The save prompt of the Resources pane is an editable field: ctrl+u clears the proposed
// name, typed keys and backspace edit it, and enter writes to the typed path.
func TestResourceSavePathIsEditable(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "5", "j", "enter", "w")
	if m.resources.save == nil || m.resources.save.input.Value() != "logo.png" {
		t.Fatalf("save prompt: %+v", m.resources.save)
	}
	keys(t, m, "ctrl+u")
	if v := m.resources.save.input.Value(); v != "" {
		t.Fatalf("ctrl+u left %q", v)
	}
	path := filepath.Join(t.TempDir(), "pic.pngx")
	typeIn(t, m, path)
	keys(t, m, "backspace")
	if v := m.resources.save.input.Value(); v != path[:len(path)-1] {
		t.Fatalf("typed %q, field holds %q", path, v)
	}
	keys(t, m, "enter")
	b, err := os.ReadFile(path[:len(path)-1])
	if err != nil || string(b) != "\x89PNG\r\n\x1a\n" {
		t.Fatalf("saved %q %v (%s)", b, err, m.resources.saved)
	}
}

// In a tool form, a row that is not a text input (a select, the send button) leaves ? and
// q to the app: ? opens help, q quits; with values typed since the last send the first q
// only warns and a second q quits. In a text field q stays text.
func TestFormQuitAndHelpOffTextFields(t *testing.T) {
	weather := mcpclient.Tool{Name: "weather", InputSchema: json.RawMessage(`{"type":"object","properties":{"units":{"type":"string","enum":["celsius","fahrenheit"]},"city":{"type":"string"}}}`)}
	m, _ := formModel(t, 100, 30, "", weather)
	if f := m.call.form.focused(); f == nil || f.IsText() {
		t.Fatalf("first row is not the enum: %+v", f)
	}
	press(t, m, "?")
	if !m.showHelp {
		t.Fatal("? on an enum did not open help")
	}
	press(t, m, "?")
	if m.showHelp || m.call.form == nil {
		t.Fatal("? did not close help back to the form")
	}
	press(t, m, "q")
	if !m.quitting {
		t.Fatal("q on an enum of an untouched form did not quit")
	}

	m, _ = formModel(t, 100, 30, "", weather)
	press(t, m, "tab")
	typeText(t, m, "q?")
	if m.quitting || m.showHelp || m.call.form.form.Field("city").Text() != "q?" {
		t.Fatalf("q? in a text field: quitting=%v help=%v city=%q", m.quitting, m.showHelp, m.call.form.form.Field("city").Text())
	}
	press(t, m, "tab") // the send button
	press(t, m, "q")
	if m.quitting {
		t.Fatal("q quit at once from a form with unsent values")
	}
	if !strings.Contains(view(m), "q again quits") {
		t.Fatalf("no warning after q:\n%s", view(m))
	}
	press(t, m, "q")
	if !m.quitting {
		t.Fatal("a second q did not quit")
	}
}

// logEv is a notifications/message the server sent at offset at (from t0).
func logEv(seq uint64, at time.Duration, data string) mcpclient.Event {
	e := ev(seq, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"`+data+`"}}`)
	e.Time = t0.Add(at)
	return e
}

// The Logs pane keeps its entries in time order (a note mcp-inspect makes while handling
// an event is stamped later than events that arrived before it was drawn) and keeps one
// width for the time column past the first minute.
func TestLogsTimeOrderAndFixedTimeColumn(t *testing.T) {
	m := newTestModel(t, nil, 140, 40)
	send(t, m, eventsMsg{events: []mcpclient.Event{logEv(1, 0, "first")}})
	m.note("info", "a note at 1.5s") // m.now is t0+1.5s
	send(t, m, eventsMsg{events: []mcpclient.Event{logEv(2, time.Second, "second"), logEv(3, 77*time.Second+22*time.Millisecond, "late"), logEv(4, 150*time.Second+9*time.Millisecond, "latest")}})
	press(t, m, "7")
	var rows []string
	for _, l := range strings.Split(view(m), "\n") {
		if strings.HasPrefix(strings.TrimPrefix(strings.TrimSpace(l), "▸"), "+") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 5 {
		t.Fatalf("log rows: %q\n%s", rows, view(m))
	}
	for i, w := range []string{"first", "second", "a note at 1.5s", "late", "latest"} {
		if !strings.Contains(rows[i], w) {
			t.Errorf("row %d is %q, want %q there (time order)", i, rows[i], w)
		}
	}
	for i, w := range []string{"+     0ms", "+  1000ms", "+  1500ms", "+ 77022ms", "+150009ms"} {
		if !strings.Contains(rows[i], w) {
			t.Errorf("row %d is %q, want time %q", i, rows[i], w)
		}
	}
	// Columns in cells (the selection mark "▸" is one cell, three bytes).
	colOf := func(r string) int { return len([]rune(r[:strings.Index(r, "ms ")])) }
	col := colOf(rows[0])
	for _, r := range rows {
		if i := colOf(r); i != col {
			t.Errorf("the level column moved (%d, not %d): %q", i, col, r)
		}
	}
}

// A --strict session that stopped at a violation says so first, names the rule, and says
// that mcp-inspect stopped the server: the server's exit is not shown as its failure.
func TestStrictStopLeadsTheFailureBox(t *testing.T) {
	m := newTestModel(t, nil, 140, 40)
	v := &mcpclient.ViolationError{Seq: 2, Problem: mcpclient.Problem{Severity: mcpclient.Warning, Code: "not-jsonrpc", Text: "stdout line that is not JSON-RPC"}}
	send(t, m,
		eventsMsg{events: []mcpclient.Event{
			life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 42}),
			life(2, mcpclient.LifeInfo{Kind: mcpclient.LifeNote, PID: 42, Err: v, Text: v.Error()}),
			life(3, mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, PID: 42, Text: "closing the server's stdin"}),
			life(4, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 42, ExitCode: 0}),
		}},
		initializedMsg{err: v},
	)
	out := view(m)
	lead := strings.Index(out, "--strict stopped the session at the first protocol violation (event #2): stdout line that is not JSON-RPC")
	if lead < 0 {
		t.Fatalf("no --strict lead:\n%s", out)
	}
	if !strings.Contains(out, "rule: MCP 2025-11-25 basic/transports §stdio") {
		t.Errorf("the rule is not named:\n%s", out)
	}
	if !strings.Contains(out, "mcp-inspect then stopped the server (after that it exited with code 0)") {
		t.Errorf("does not say mcp-inspect stopped the server:\n%s", out)
	}
	if strings.Contains(out, "server exited with code 0") || strings.Contains(out, "dead: exited") {
		t.Errorf("the exit reads as the server's failure:\n%s", out)
	}
}

// A call refused because the server is already gone says it was not sent (no "took",
// no "was pending") and offers E (restart).
func TestCallToDeadServerSaysNotSent(t *testing.T) {
	s := &fakeSession{
		init:  &mcpclient.InitializeResult{ProtocolVersion: "2025-11-25", ServerInfo: mcpclient.Implementation{Name: "fake", Version: "1"}},
		tools: []mcpclient.Tool{{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}},
		err:   &mcpclient.ExitError{PID: 7, Signal: "KILL", Pending: "request id 4 (tools/call echo)", NotSent: true},
	}
	m := newModel(Options{Theme: "plain", Title: "fake", Session: s, Restartable: true})
	m.now = func() time.Time { return t0 }
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	run(t, m, m.Init(), 0)
	press(t, m, "enter")
	typeText(t, m, "x")
	press(t, m, "ctrl+s", "1", "enter", "ctrl+s") // a second call shows the list of calls
	out := view(m)
	for _, want := range []string{"not sent: the server is not running (it was killed by signal KILL)", "✗ not sent (server gone)",
		"request id 4 (tools/call echo) was refused before it was written", "E edits the command and restarts the server"} {
		if !strings.Contains(out, want) {
			t.Errorf("the call view lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"was pending", "took ", "request #8"} {
		if strings.Contains(out, bad) {
			t.Errorf("the call view says %q:\n%s", bad, out)
		}
	}
}

// c (call by name) starts with an empty name that shows the selected tool's: typing
// replaces it, enter on the empty field takes it, and ctrl+s with it empty calls it.
func TestCallByNameTypingReplacesSelected(t *testing.T) {
	m, s := openGreet(t, 120, 30)
	press(t, m, "esc", "c") // greet is selected
	if m.tools.callBy == nil {
		t.Fatal("c did not open the prompt")
	}
	if v := m.tools.callBy.name.Value(); v != "" {
		t.Fatalf("the name field holds %q, want it empty", v)
	}
	if out := ansi.Strip(view(m)); !strings.Contains(out, "greet (enter takes it") {
		t.Errorf("the selected name is not shown:\n%s", out)
	}
	typeText(t, m, "add")
	press(t, m, "tab")
	typeText(t, m, `{"a":1,"b":2}`)
	press(t, m, "ctrl+s")
	if len(s.calls) != 1 || m.call.run == nil || m.call.run.tool != "add" {
		t.Fatalf("typed name: calls %q, run %+v", s.calls, m.call.run)
	}
	// enter on the empty field takes the selected name; ctrl+s sends it.
	press(t, m, "1", "c", "enter")
	if v := m.tools.callBy.name.Value(); v != "greet" {
		t.Fatalf("enter on the empty field gave %q", v)
	}
	press(t, m, "esc", "c", "ctrl+s")
	if len(s.calls) != 2 || m.call.run.tool != "greet" {
		t.Fatalf("empty name: %d calls, tool %q", len(s.calls), m.call.run.tool)
	}
}

// A tools listing's warnings (pagination stopped) show in the Tools pane: in the heading
// and above the detail.
func TestToolsPaneShowsListingWarnings(t *testing.T) {
	m := newTestModel(t, greetSession(), 140, 30)
	run(t, m, m.Init(), 0)
	const warn = "stopped after 1000 pages of tools/list: the server keeps returning a nextCursor"
	send(t, m, toolsListedMsg{tools: greetSession().tools, warnings: []string{warn}})
	out := view(m)
	lines := strings.Split(out, "\n")
	if len(lines) < 2 || !strings.Contains(lines[1], "tools (2) · ⚠ stopped after") {
		t.Errorf("the heading does not warn:\n%s", out)
	}
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "⚠ stopped after 1000 pages of tools/list") {
		t.Errorf("the detail does not show the warning:\n%s", out)
	}
	// A listing without warnings clears them.
	send(t, m, toolsListedMsg{tools: greetSession().tools})
	if out := view(m); strings.Contains(out, "⚠ stopped") {
		t.Errorf("the warning outlived the next listing:\n%s", out)
	}
}

// The empty Tasks pane's text is wrapped in the list column, never cut off.
func TestEmptyTasksTextWraps(t *testing.T) {
	for _, w := range []int{140, 220} {
		m := newTestModel(t, greetSession(), w, 40)
		press(t, m, "8")
		out := strings.Join(strings.Fields(ansi.Strip(view(m))), " ")
		if !strings.Contains(out, "(2025-11-25 tasks/list)") || strings.Contains(out, "…") {
			t.Errorf("at %d columns the empty text is cut:\n%s", w, view(m))
		}
	}
}

// With help open the screen keeps its height: the status bar stays on the last line.
func TestHelpKeepsStatusBarOnLastLine(t *testing.T) {
	m := newTestModel(t, greetSession(), 140, 40)
	run(t, m, m.Init(), 0)
	want := m.statusBar()
	press(t, m, "?")
	if !m.showHelp {
		t.Fatal("? did not open help")
	}
	lines := strings.Split(view(m), "\n")
	if len(lines) != 40 || lines[39] != m.statusBar() || m.statusBar() == "" {
		t.Fatalf("%d lines; last %q, status bar %q (before help: %q)", len(lines), lines[len(lines)-1], m.statusBar(), want)
	}
}

// At the smallest screen (40x10) an elicitation dialog still shows the question and the
// whole key line (wrapped).
func TestElicitationDialogSmallScreenKeepsQuestionAndKeys(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 40, 10)
	var rec recorder
	form := `{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name"]}}`
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("elicitation/create", form)}})
	out := ansi.Strip(view(m))
	if n := len(strings.Split(out, "\n")); n != 10 {
		t.Errorf("%d lines, want 10", n)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Your name?", "ctrl+s accept", "ctrl+d decline", "esc cancel"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, out)
		}
	}
	typeIn(t, m, "Ann")
	keys(t, m, "ctrl+s")
	if got := rec.answers(); len(got) != 1 || got[0] != `{"action":"accept","content":{"name":"Ann"}}` {
		t.Fatalf("answers %q", got)
	}
}

// An elicitation form is filled with the schema's defaults (MCP 2025-11-25
// client/elicitation, SEP-1034): accepting at once sends them; typing on a field replaces
// its default. A tool form with the same schema still leaves defaults out.
func TestElicitationFormSendsDefaults(t *testing.T) {
	schema := `{"type":"object","properties":{"name":{"type":"string","default":"John Doe"},"age":{"type":"integer","default":30},"score":{"type":"number","default":95.5},"status":{"type":"string","enum":["active","inactive"],"default":"active"},"verified":{"type":"boolean","default":true}}}`
	m := connected(t, moreSession(), 120, 40)
	var rec recorder
	req := `{"message":"Defaults?","requestedSchema":` + schema + `}`
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("elicitation/create", req), rec.req("elicitation/create", req)}})
	if out := view(m); strings.Contains(out, "default, not sent") || !strings.Contains(out, "John Doe") {
		t.Errorf("the form does not show the defaults as values:\n%s", out)
	}
	keys(t, m, "ctrl+s")
	// The second: the name typed over, the age edited (replaced on the first key).
	typeIn(t, m, "Ann")
	keys(t, m, "tab")
	typeIn(t, m, "41")
	keys(t, m, "ctrl+s")
	got := rec.answers()
	want := []string{
		`{"action":"accept","content":{"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}}`,
		`{"action":"accept","content":{"name":"Ann","age":41,"score":95.5,"status":"active","verified":true}}`,
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("answers\n%q\nwant\n%q", got, want)
	}
	// Tool forms keep "default, not sent".
	fm, s := formModel(t, 120, 40, "", mcpclient.Tool{Name: "d", InputSchema: json.RawMessage(schema)})
	if !strings.Contains(view(fm), "(default, not sent)") {
		t.Errorf("the tool form lost its default placeholders:\n%s", view(fm))
	}
	press(t, fm, "ctrl+s")
	if len(s.calls) != 1 || string(s.calls[0]) != `{}` {
		t.Fatalf("the tool form sent %q", s.calls)
	}
}
