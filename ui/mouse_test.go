package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/session"
)

// mouseModel is the golden session (tools, wire frames, logs, tasks …) with the mouse on.
func mouseModel(t *testing.T, w, h int) *model {
	t.Helper()
	s := moreSession()
	s.tools = append(greetSession().tools, s.tools...)
	m := connected(t, s, w, h, func(o *Options) { o.Mouse = true })
	drive(t, m, eventsMsg{events: wireSession()})
	return m
}

func click(t *testing.T, m *model, x, y int) {
	t.Helper()
	drive(t, m, tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
}

func wheel(t *testing.T, m *model, x, y int, down bool) {
	t.Helper()
	b := tea.MouseWheelUp
	if down {
		b = tea.MouseWheelDown
	}
	drive(t, m, tea.MouseWheelMsg{X: x, Y: y, Button: b})
}

// cellOf finds text on the screen: its column (in cells) and line; fails when absent.
func cellOf(t *testing.T, m *model, text string) (x, y int) {
	t.Helper()
	for y, line := range strings.Split(view(m), "\n") {
		if i := strings.Index(line, text); i >= 0 {
			return ansi.StringWidth(line[:i]), y
		}
	}
	t.Fatalf("%q not on screen:\n%s", text, view(m))
	return 0, 0
}

func TestMouseClicksTabs(t *testing.T) {
	m := mouseModel(t, 160, 40)
	if v := m.View(); v.MouseMode != tea.MouseModeCellMotion {
		t.Fatalf("mouse on, mode %v", v.MouseMode)
	}
	for _, tab := range []struct {
		label string
		id    paneID
	}{{"3 Wire", paneWire}, {"8 Tasks", paneTasks}, {"1 Tools", paneTools}, {"4 Server", paneServer}} {
		x, y := cellOf(t, m, tab.label)
		click(t, m, x+len(tab.label)-1, y) // the tab's last cell
		if m.focus != tab.id {
			t.Fatalf("click on %q focused %d", tab.label, m.focus)
		}
	}
	// The gap between two tabs is no tab.
	x, y := cellOf(t, m, "2 Call")
	click(t, m, x-1, y)
	if m.focus != paneServer {
		t.Fatalf("a click between tabs focused %d", m.focus)
	}
}

// TestMouseClicksNarrowTabs: when the tabs shrink to their numbers, a click on a number
// still finds its pane.
func TestMouseClicksNarrowTabs(t *testing.T) {
	m := mouseModel(t, 60, 20)
	line := strings.Split(view(m), "\n")[0]
	if strings.Contains(line, "3 Wire") {
		t.Fatalf("tabs not shortened at 60 columns: %q", line)
	}
	x := strings.Index(line, " 3 ") + 1
	click(t, m, x, 0)
	if m.focus != paneWire {
		t.Fatalf("click on 3 focused %d: %q", m.focus, line)
	}
}

func TestMouseOffCapturesNothing(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 160, 40)
	if v := m.View(); v.MouseMode != tea.MouseModeNone {
		t.Fatalf("mouse off, mode %v", v.MouseMode)
	}
	x, y := cellOf(t, m, "3 Wire")
	click(t, m, x, y)
	if m.focus != paneTools {
		t.Fatal("a click worked with the mouse off")
	}
}

func TestMouseSelectsToolRow(t *testing.T) {
	m := mouseModel(t, 160, 40)
	x, y := cellOf(t, m, " greet")
	click(t, m, x+2, y)
	if tl := m.tools.selected(); tl == nil || tl.Name != "greet" {
		t.Fatalf("selected %v", tl)
	}
	mustContain(t, "detail", view(m), "Greets someone.")
	// A click on the list's title or under the last row changes nothing.
	click(t, m, x+2, m.tools.lr.y)
	click(t, m, x+2, m.tools.lr.y+m.tools.lr.h-1)
	if tl := m.tools.selected(); tl == nil || tl.Name != "greet" {
		t.Fatalf("a click off the rows selected %v", tl)
	}
	// The wheel over the list moves the selection.
	wheel(t, m, x, y, false)
	if tl := m.tools.selected(); tl == nil || tl.Name != "add" {
		t.Fatalf("wheel up selected %v", tl)
	}
}

func TestMouseSelectsWireRow(t *testing.T) {
	m := mouseModel(t, 160, 40)
	click(t, m, 6, 0) // 3 Wire … the header's first tab is at 1
	keys(t, m, "3")
	if m.focus != paneWire {
		t.Fatal("not on the wire pane")
	}
	x, y := cellOf(t, m, "server starting on stdio")
	click(t, m, x, y)
	ev := m.wire.selected()
	if ev == nil || ev.seq != 3 || m.wire.follow {
		t.Fatalf("selected %+v follow=%v", ev, m.wire.follow)
	}
	line := strings.Split(view(m), "\n")[y]
	if !strings.HasPrefix(line, "▸") {
		t.Fatalf("the clicked row is not drawn selected: %q", line)
	}
	// The wheel over the list moves the selection; over the detail it scrolls the detail.
	wheel(t, m, x, y, true)
	if ev := m.wire.selected(); ev.seq != 4 {
		t.Fatalf("wheel down selected #%d", ev.seq)
	}
	click(t, m, x, y+1)
	if m.wire.detailOff != 0 {
		t.Fatal("detail not at its top")
	}
	m.resize(160, 12) // a short detail, so the frame needs scrolling
	m.sync()
	d := m.wire.det
	wheel(t, m, d.x+2, d.y+2, true)
	if m.wire.detailOff != wheelLines {
		t.Fatalf("wheel over the detail: offset %d", m.wire.detailOff)
	}
	wheel(t, m, d.x+2, d.y+2, false)
	wheel(t, m, d.x+2, d.y+2, false)
	if m.wire.detailOff != 0 {
		t.Fatalf("wheel up past the top: offset %d", m.wire.detailOff)
	}
}

func TestMouseFocusesFormField(t *testing.T) {
	m := mouseModel(t, 160, 40)
	keys(t, m, "enter") // add's form
	f := m.call.form
	if f == nil || f.tool.Name != "add" || f.cur != 0 {
		t.Fatalf("add's form not open on a: %+v", f)
	}
	typeIn(t, m, "7")
	_, y := cellOf(t, m, "*b ")
	click(t, m, 10, y)
	if f.cur != 1 {
		t.Fatalf("click on b focused field %d:\n%s", f.cur, view(m))
	}
	if v, _ := f.form.Value(); !strings.Contains(string(v), `"a":7`) {
		t.Fatalf("leaving a by a click lost its text: %s", v)
	}
	typeIn(t, m, "5")
	_, y = cellOf(t, m, "[ send ]")
	click(t, m, 3, y)
	if f.cur != len(f.fields) || m.call.run != nil {
		t.Fatalf("click on send: field %d, call %v", f.cur, m.call.run)
	}
	// The wheel moves the focus a field at a time.
	wheel(t, m, 10, y, false)
	if f.cur != 1 {
		t.Fatalf("wheel up focused %d", f.cur)
	}
	keys(t, m, "ctrl+s")
	if m.call.run == nil || !strings.Contains(string(m.call.run.args), `"b":5`) {
		t.Fatalf("the values typed around clicks were not sent: %+v", m.call.run)
	}
}

func TestMouseLogsAndServer(t *testing.T) {
	m := mouseModel(t, 160, 40)
	for _, text := range []string{"first note", "second note", "third note"} {
		m.logs.add(logEntry{kind: logClient, level: "info", text: text, at: t0})
	}
	m.logs.follow = false
	keys(t, m, "7")
	x, y := cellOf(t, m, "second note")
	click(t, m, x, y)
	if e := m.logs.entries[m.logs.shown[m.logs.sel]]; e.text != "second note" {
		t.Fatalf("selected %q", e.text)
	}
	wheel(t, m, x, y, true)
	if e := m.logs.entries[m.logs.shown[m.logs.sel]]; e.text != "third note" {
		t.Fatalf("wheel selected %q", e.text)
	}
	keys(t, m, "4")
	m.resize(160, 12)
	m.sync()
	wheel(t, m, 5, 5, true)
	if m.panes[paneServer].(*serverPane).off != wheelLines {
		t.Fatalf("server pane offset %d", m.panes[paneServer].(*serverPane).off)
	}
}

// TestMouseLeavesDialogsAlone: a dialog in front (a server request) takes keys only; a
// click can never answer it or switch the pane under it.
func TestMouseLeavesDialogsAlone(t *testing.T) {
	m := mouseModel(t, 160, 40)
	rec := &answerLog{}
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("roots/list", `{}`)}})
	if m.overlay.front() == nil {
		t.Fatal("no dialog")
	}
	x, y := cellOf(t, m, "3 Wire")
	click(t, m, x, y)
	for y := range 40 {
		click(t, m, 20, y)
	}
	if m.focus != paneTools || m.overlay.front() == nil || len(rec.answers()) != 0 {
		t.Fatalf("a click got past the dialog: focus %d, answers %v", m.focus, rec.answers())
	}
}

func TestMouseWheelScrollsHelp(t *testing.T) {
	m := mouseModel(t, 80, 12)
	keys(t, m, "?")
	wheel(t, m, 5, 5, true)
	if m.help.off != wheelLines {
		t.Fatalf("help offset %d", m.help.off)
	}
}

// TestMouseClicksPromptForm: a row of the Prompts list, then a field of its argument form.
func TestMouseClicksPromptForm(t *testing.T) {
	m := mouseModel(t, 160, 40)
	keys(t, m, "6")
	x, y := cellOf(t, m, " greet")
	click(t, m, x+2, y)
	if pr := m.prompts.selected(); pr == nil || pr.Name != "greet" {
		t.Fatalf("selected %v", pr)
	}
	keys(t, m, "enter")
	f := m.prompts.form
	if f == nil || f.cur != 0 {
		t.Fatalf("greet's argument form not open on city: %+v", f)
	}
	typeIn(t, m, "Oslo")
	// The list does not take clicks while the form is open.
	_, sy := cellOf(t, m, " simple")
	click(t, m, x+2, sy)
	if pr := m.prompts.selected(); pr == nil || pr.Name != "greet" || m.prompts.form != f {
		t.Fatalf("a click on the list under an open form selected %v", pr)
	}
	mx, my := cellOf(t, m, "mood")
	click(t, m, mx, my)
	if f.cur != 1 || f.argValues()["city"] != "Oslo" {
		t.Fatalf("click on mood: field %d, values %v", f.cur, f.argValues())
	}
}

// TestMouseReleaseAndDragDoNothing: a click's release and a drag change nothing (a click
// acts on the press only), whatever is under them.
func TestMouseReleaseAndDragDoNothing(t *testing.T) {
	m := mouseModel(t, 160, 40)
	x, y := cellOf(t, m, "3 Wire")
	drive(t, m, tea.MouseReleaseMsg{X: x, Y: y, Button: tea.MouseLeft}, tea.MouseMotionMsg{X: x, Y: y, Button: tea.MouseLeft})
	drive(t, m, tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseRight})
	if m.focus != paneTools {
		t.Fatalf("focus %d", m.focus)
	}
}

// While the wire search prompt takes the keys, a tab click does not leave it open behind
// another pane (keys typed there went into it): the click is ignored, as a pane key is.
func TestMouseTabClickKeepsOpenPrompt(t *testing.T) {
	m := mouseModel(t, 160, 40)
	keys(t, m, "3", "/")
	x, y := cellOf(t, m, "1 Tools")
	click(t, m, x, y)
	if m.focus != paneWire || m.wire.find.mode == findNone {
		t.Fatalf("after a tab click with the search open: focus %d, search mode %v", m.focus, m.wire.find.mode)
	}
	keys(t, m, "esc")
	click(t, m, x, y)
	if m.focus != paneTools {
		t.Fatalf("with the search closed a tab click focused %d", m.focus)
	}
}

// #16: a double click on a list row does what enter does (the tool's form, a prompt's
// arguments, the JSON of a frame); single clicks, and two clicks too far apart in time or
// on different rows, only select.
func TestMouseDoubleClickOpens(t *testing.T) {
	m := mouseModel(t, 160, 40)
	clock := m.now()
	m.now = func() time.Time { return clock }
	x, y := cellOf(t, m, " greet")
	click(t, m, x+2, y)
	if m.focus != paneTools || m.call.form != nil {
		t.Fatal("a single click opened the form")
	}
	clock = clock.Add(doubleClickTime + time.Millisecond)
	click(t, m, x+2, y)
	if m.focus != paneTools || m.call.form != nil {
		t.Fatal("two clicks further apart than a double click opened the form")
	}
	_, other := cellOf(t, m, " add")
	clock = clock.Add(100 * time.Millisecond)
	click(t, m, x+2, other)
	if m.focus != paneTools || m.call.form != nil {
		t.Fatal("clicks on two rows opened the form")
	}
	clock = clock.Add(100 * time.Millisecond)
	click(t, m, x+2, y)
	clock = clock.Add(200 * time.Millisecond)
	click(t, m, x+2, y)
	if m.focus != paneCall || m.call.form == nil || m.call.form.tool.Name != "greet" {
		t.Fatalf("a double click on greet: focus %v form %+v", m.focus, m.call.form)
	}

	// In 3 Wire a double click explores the frame's JSON, as enter does.
	keys(t, m, "esc", "3")
	fx, fy := cellOf(t, m, "result (initialize)")
	click(t, m, fx, fy)
	if m.wire.js.explore {
		t.Fatal("a single click explores the JSON")
	}
	click(t, m, fx, fy)
	if !m.wire.js.explore {
		t.Fatalf("a double click on a frame did not explore its JSON:\n%s", view(m))
	}
}

// A double click goes through the open key's binding: moved by a key override, it follows.
func TestMouseDoubleClickFollowsOverride(t *testing.T) {
	s := moreSession()
	s.tools = append(greetSession().tools, s.tools...)
	m := connected(t, s, 160, 40, func(o *Options) { o.Mouse, o.Keys = true, map[string][]string{"tools.open_form": {"o"}} })
	x, y := cellOf(t, m, " greet")
	click(t, m, x+2, y)
	click(t, m, x+2, y)
	if m.call.form == nil || m.call.form.tool.Name != "greet" {
		t.Fatalf("double click with tools.open_form = o: form %+v", m.call.form)
	}
}

func TestKeyPressNames(t *testing.T) {
	for _, k := range []string{"enter", "space", "o", "O", "ctrl+o", "alt+x", "f"} {
		if p, ok := keyPress(k); !ok || p.String() != k {
			t.Errorf("keyPress(%q) = %q, %v", k, p.String(), ok)
		}
	}
	if _, ok := keyPress("hyper+f63"); ok {
		t.Error("keyPress makes up a press for a key it cannot write")
	}
}
