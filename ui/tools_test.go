package ui

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// c (call by name) starts with an empty name that shows the selected tool's: typing
// replaces it, enter on the empty field takes it, and ctrl+s with it empty calls it.
func TestCallByNameTypingReplacesSelected(t *testing.T) {
	m, s := openGreet(t, 120, 30)
	keys(t, m, "esc", "c") // greet is selected
	if m.tools.callBy == nil {
		t.Fatal("c did not open the prompt")
	}
	if v := m.tools.callBy.name.Value(); v != "" {
		t.Fatalf("the name field holds %q, want it empty", v)
	}
	if out := ansi.Strip(view(m)); !strings.Contains(out, "greet (enter takes it") {
		t.Errorf("the selected name is not shown:\n%s", out)
	}
	typeIn(t, m, "add")
	keys(t, m, "tab")
	typeIn(t, m, `{"a":1,"b":2}`)
	keys(t, m, "ctrl+s")
	if len(s.calls) != 1 || m.call.run == nil || m.call.run.tool != "add" {
		t.Fatalf("typed name: calls %q, run %+v", s.calls, m.call.run)
	}
	// enter on the empty field takes the selected name; ctrl+s sends it.
	keys(t, m, "1", "c", "enter")
	if v := m.tools.callBy.name.Value(); v != "greet" {
		t.Fatalf("enter on the empty field gave %q", v)
	}
	keys(t, m, "esc", "c", "ctrl+s")
	if len(s.calls) != 2 || m.call.run.tool != "greet" {
		t.Fatalf("empty name: %d calls, tool %q", len(s.calls), m.call.run.tool)
	}
}

// A tools listing's warnings (pagination stopped) show in the Tools pane: in the heading
// and above the detail.
func TestToolsPaneShowsListingWarnings(t *testing.T) {
	m := newTestModel(t, greetSession(), 140, 30)
	exec(t, m, m.Init(), 0)
	const warn = "stopped after 1000 pages of tools/list: the server keeps returning a nextCursor"
	drive(t, m, toolsListedMsg{session.Listing{Tools: greetSession().tools, Warnings: []string{warn}}})
	out := view(m)
	lines := strings.Split(out, "\n")
	if len(lines) < 2 || !strings.Contains(lines[1], "tools (2) · ⚠ stopped after") {
		t.Errorf("the heading does not warn:\n%s", out)
	}
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "⚠ stopped after 1000 pages of tools/list") {
		t.Errorf("the detail does not show the warning:\n%s", out)
	}
	// A listing without warnings clears them.
	drive(t, m, toolsListedMsg{session.Listing{Tools: greetSession().tools}})
	if out := view(m); strings.Contains(out, "⚠ stopped") {
		t.Errorf("the warning outlived the next listing:\n%s", out)
	}
}

// A failed tools/list says so, with the error, and never "the server has no tools"; a
// failed listing after a good one keeps the tools and says the last listing failed.
func TestToolsListFailedSaysWhy(t *testing.T) {
	s := greetSession()
	s.tools = nil
	m := newTestModel(t, s, 140, 30)
	drive(t, m, initializedMsg{res: s.init})
	drive(t, m, toolsListedMsg{session.Listing{Err: &mcpclient.RPCError{Code: -32603, Message: "database is locked"}}})
	out := view(m)
	mustContain(t, "failed listing", out, "tools · listing failed", "tools/list failed: JSON-RPC error -32603", "database is locked", "r lists again")
	if strings.Contains(out, "has no tools") || strings.Contains(out, "tools (0)") {
		t.Fatalf("a failed listing claims there are no tools:\n%s", out)
	}
	drive(t, m, toolsListedMsg{session.Listing{Tools: greetSession().tools}})
	drive(t, m, toolsListedMsg{session.Listing{Err: errors.New("server exited with code 1")}})
	out = view(m)
	mustContain(t, "failed refresh", out, "tools (2) · last listing failed", "server exited with code 1", "the tools below are from the listing before", "add")
	// r lists again; a listing the user asked for is not announced as a list_changed.
	keys(t, m, "r")
	if m.tools.listErr != nil || strings.Contains(m.statusBar(), "list changed") {
		t.Fatalf("r: %v, status %q", m.tools.listErr, m.statusBar())
	}
}

// The selected tool row keeps its title; destructive and idempotent hints are said not to
// apply to a read-only tool.
func TestToolRowTitleAndReadOnlyHints(t *testing.T) {
	s := greetSession()
	m := newTestModel(t, s, 140, 30)
	exec(t, m, m.Init(), 0)
	keys(t, m, "j")
	out := view(m)
	mustContain(t, "tools", out, "▸greet Greeter", "readOnly     true", "destructive  — (not meaningful: readOnly is true)", "idempotent   — (not meaningful: readOnly is true)")
	if strings.Contains(out, "destructive  true (default)") {
		t.Fatalf("a read-only tool is called destructive:\n%s", out)
	}
}

// A broken server that lists one name twice: both rows are shown and each can be selected
// (the list keys rows by name, so the second copy needs a key of its own).
func TestToolsListedTwiceStaySelectable(t *testing.T) {
	m := newTestModel(t, nil, 120, 30)
	m.tools.setTools([]mcpclient.Tool{
		{Name: "dup", Description: "first copy"},
		{Name: "other"},
		{Name: "dup", Description: "second copy"},
	}, nil)
	m.tools.setSize(m.lay.body)
	var seen []string
	for range 3 {
		seen = append(seen, m.tools.selected().Name+":"+m.tools.selected().Description)
		keys(t, m, "down")
	}
	want := []string{"dup:first copy", "other:", "dup:second copy"}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("selected in turn %q, want %q", seen, want)
		}
	}
	// A refresh keeps the selection on the same row, also on the first of the two copies.
	keys(t, m, "g")
	m.tools.setTools(append([]mcpclient.Tool(nil), m.tools.tools...), nil)
	if got := m.tools.selected().Description; got != "first copy" {
		t.Fatalf("after a refresh the selection moved to %q", got)
	}
}
