package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// grammarNames are the rows of every list the grammar test searches: "zq-" is in the 2nd
// and 4th, nowhere else.
var grammarNames = []string{"apple", "zq-one", "berry", "zq-two"}

// grammarModel is a connected model whose tools, resources and prompts are grammarNames,
// with a task per name, a log entry per name and a frame per name on the wire.
func grammarModel(t *testing.T) *model {
	t.Helper()
	s := moreSession()
	s.tools, s.resources, s.templates, s.prompts = nil, nil, nil, nil
	for _, n := range grammarNames {
		s.tools = append(s.tools, mcpclient.Tool{Name: n, InputSchema: json.RawMessage(`{"type":"object"}`)})
		s.resources = append(s.resources, mcpclient.Resource{URI: "x://" + n, Name: n})
		s.prompts = append(s.prompts, mcpclient.Prompt{Name: n})
	}
	m := connected(t, s, 140, 40)
	var evs []mcpclient.Event
	for i, n := range grammarNames {
		evs = append(evs, logEv(uint64(100+i), time.Duration(i)*time.Millisecond, n))
	}
	drive(t, m, eventsMsg{events: evs})
	var tasks []listItem
	for _, n := range grammarNames {
		tasks = append(tasks, listItem{key: n, label: n})
	}
	m.tasks.list.setItems(tasks)
	return m
}

// TestOneGrammarInEveryPane (issue 27): in every pane "/" + a query selects the first
// match, n the next one and N the one before; "F" + a query shows only the matching rows.
func TestOneGrammarInEveryPane(t *testing.T) {
	m := grammarModel(t)
	label := func(l *itemList) string {
		if it := l.selected(); it != nil {
			return it.label
		}
		return ""
	}
	logSel := func() string {
		if e := m.logs.selectedEntry(); e != nil {
			return e.text
		}
		return ""
	}
	for _, pane := range []struct {
		name, key string
		sel       func() string
		shown     func() int
	}{
		{"tools", "1", func() string { return label(m.tools.list) }, func() int { return len(m.tools.list.shown) }},
		{"resources", "5", func() string { return label(m.resources.list) }, func() int { return len(m.resources.list.shown) }},
		{"prompts", "6", func() string { return label(m.prompts.list) }, func() int { return len(m.prompts.list.shown) }},
		{"tasks", "8", func() string { return label(m.tasks.list) }, func() int { return len(m.tasks.list.shown) }},
		{"logs", "7", logSel, func() int { return len(m.logs.shown) }},
	} {
		keys(t, m, pane.key, "g")
		all := pane.shown()
		keys(t, m, "/")
		typeIn(t, m, "zq-")
		if got := pane.sel(); got != "zq-one" {
			t.Errorf("%s: /zq- selected %q, want zq-one", pane.name, got)
		}
		mustContain(t, pane.name+" search line", view(m), "/zq-")
		keys(t, m, "enter", "n")
		if got := pane.sel(); got != "zq-two" {
			t.Errorf("%s: n selected %q, want zq-two (the 2nd match)", pane.name, got)
		}
		if pane.shown() != all {
			t.Errorf("%s: the search narrowed the list to %d rows of %d", pane.name, pane.shown(), all)
		}
		keys(t, m, "N")
		if got := pane.sel(); got != "zq-one" {
			t.Errorf("%s: N selected %q, want zq-one", pane.name, got)
		}
		// A query no row holds says so, as the wire's search does.
		keys(t, m, "esc", "/")
		typeIn(t, m, "zzz-none")
		mustContain(t, pane.name+" search with no match", view(m), "no match")
		keys(t, m, "esc", "F")
		typeIn(t, m, "zq-")
		if n := pane.shown(); n != 2 {
			t.Errorf("%s: F zq- shows %d rows, want 2", pane.name, n)
		}
		keys(t, m, "esc")
		if n := pane.shown(); n != all {
			t.Errorf("%s: esc left %d rows shown, want %d", pane.name, n, all)
		}
	}

	// The wire: the same keys, n stepping the hits in a frame before the next frame.
	keys(t, m, "3", "g", "/")
	typeIn(t, m, "zq-")
	keys(t, m, "enter")
	first := m.wire.selected().seq
	if first != 101 {
		t.Fatalf("wire: /zq- selected #%d, want #101", first)
	}
	for range 3 {
		if keys(t, m, "n"); m.wire.selected().seq != first {
			break
		}
	}
	if s := m.wire.selected().seq; s != 103 {
		t.Errorf("wire: n selected #%d, want #103 (the 2nd frame with zq-)", s)
	}
	setWireFilter(t, m, "zq-")
	if got := shownSeqs(m); got != "101 103" {
		t.Errorf("wire: F zq- shows %s, want 101 103", got)
	}
}

// TestSearchInTheJSONExplorer: "/" in the explored JSON moves the cursor to the rows that
// hold the query, n to the next; esc clears the search first, then leaves; Y copies the
// node's jq path, y its value.
func TestSearchInTheJSONExplorer(t *testing.T) {
	m := newTestModel(t, nil, 140, 40)
	m.c.hist.dir = t.TempDir()
	drive(t, m, eventsMsg{events: jsonSession()})
	keys(t, m, "3", "enter")
	if !m.wire.js.explore {
		t.Fatal("enter did not explore the JSON")
	}
	keys(t, m, "/")
	if !m.wire.inputFocused() {
		t.Fatal("the explorer's search input does not take the keys")
	}
	typeIn(t, m, "text")
	if p := pathShown(t, m); p != ".result.content[0].type" {
		t.Fatalf("/text is on %s, want .result.content[0].type (its value is text)", p)
	}
	keys(t, m, "enter", "n")
	if p := pathShown(t, m); p != ".result.content[0].text" {
		t.Fatalf("n is on %s, want .result.content[0].text", p)
	}
	if clip, _ := copyKey(t, m, "Y"); clip != ".result.content[0].text" {
		t.Errorf("Y copied %q, want the jq path", clip)
	}
	if clip, _ := copyKey(t, m, "y"); clip != "Echo: hi" {
		t.Errorf("y copied %q, want the value", clip)
	}
	keys(t, m, "esc")
	if !m.wire.js.explore || m.wire.js.view.find.query() != "" {
		t.Fatalf("esc should clear the search and stay in the JSON (exploring %v, query %q)", m.wire.js.explore, m.wire.js.view.find.query())
	}
	keys(t, m, "esc")
	if m.wire.js.explore {
		t.Fatal("the second esc did not leave the JSON")
	}
}

// TestCallPaneSameLiveAndRecorded (issue 27): the Call pane lists its calls oldest first
// and ←/→ choose the older/newer call, live and in a recorded session alike; "/" and n
// move among them in both.
func TestCallPaneSameLiveAndRecorded(t *testing.T) {
	s := moreSession()
	s.tools = []mcpclient.Tool{
		{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "add", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	live := connected(t, s, 140, 40)
	keys(t, live, "1", "g", "enter", "ctrl+s", "1", "j", "enter", "ctrl+s", "2")
	if len(live.call.calls) != 2 {
		t.Fatalf("live: %d calls, want 2", len(live.call.calls))
	}
	c2s, s2c := mcpclient.ClientToServer, mcpclient.ServerToClient
	rec := viewerModel(t, true, pairedRecording([]recorded{
		legacyTraffic[0], legacyTraffic[1],
		{c2s, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{}}}`, nil},
		{s2c, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"one"}]}}`, nil},
		{c2s, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{}}}`, nil},
		{s2c, `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"1"}]}}`, nil},
	}))
	keys(t, rec, "2", "G")
	for _, c := range []struct {
		name  string
		m     *model
		shown func() string
	}{
		{"live", live, func() string { return live.call.run.tool }},
		{"recorded", rec, func() string {
			k, _ := rec.call.past.selected()
			return rec.call.past.rec.Call(k).Tool
		}},
	} {
		v := view(c.m)
		echo, add := strings.Index(v, "echo"), strings.Index(v, "add")
		if echo < 0 || add < 0 || echo > add {
			t.Errorf("%s: the calls are not listed oldest first (echo at %d, add at %d):\n%s", c.name, echo, add, v)
		}
		if got := c.shown(); got != "add" {
			t.Fatalf("%s: shows %s, want the newest call (add)", c.name, got)
		}
		keys(t, c.m, "left")
		if got := c.shown(); got != "echo" {
			t.Errorf("%s: ← shows %s, want the older call (echo)", c.name, got)
		}
		keys(t, c.m, "right")
		if got := c.shown(); got != "add" {
			t.Errorf("%s: → shows %s, want the newer call (add)", c.name, got)
		}
		// ↑/↓ scroll the result; they do not choose another call, live or recorded.
		if keys(t, c.m, "up"); c.shown() != "add" {
			t.Errorf("%s: ↑ chose %s, want it to scroll the result of add", c.name, c.shown())
		}
		keys(t, c.m, "/")
		typeIn(t, c.m, "echo")
		if got := c.shown(); got != "echo" {
			t.Errorf("%s: /echo shows %s", c.name, got)
		}
		mustContain(t, c.name+" search line", view(c.m), "/echo")
		keys(t, c.m, "enter", "esc", "/")
		typeIn(t, c.m, "a")
		keys(t, c.m, "enter")
		// "a" is in add only (echo's arguments are {}): n wraps back to it.
		if got := c.shown(); got != "add" {
			t.Errorf("%s: /a shows %s, want add", c.name, got)
		}
		if keys(t, c.m, "n"); c.shown() != "add" {
			t.Errorf("%s: n with one match moved to %s", c.name, c.shown())
		}
	}
}
