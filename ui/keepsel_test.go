package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestListFilterKeepsTheSelection: in Tools, Resources and Prompts a filter that hides the
// selected item selects the nearest one before it; widening the filter again, or clearing
// it, selects the item chosen before.
func TestListFilterKeepsTheSelection(t *testing.T) {
	names := []string{"alpha", "beta", "gamma", "delta"}
	s := moreSession()
	s.tools, s.resources, s.templates, s.prompts = nil, nil, nil, nil
	for _, n := range names {
		s.tools = append(s.tools, mcpclient.Tool{Name: n, InputSchema: json.RawMessage(`{"type":"object"}`)})
		s.resources = append(s.resources, mcpclient.Resource{URI: "x://" + n, Name: n})
		s.prompts = append(s.prompts, mcpclient.Prompt{Name: n})
	}
	m := connected(t, s, 120, 30)
	for _, pane := range []struct {
		key  string
		list *itemList
	}{{"1", m.tools.list}, {"5", m.resources.list}, {"6", m.prompts.list}} {
		sel := func() string {
			if it := pane.list.selected(); it != nil {
				return it.label
			}
			return ""
		}
		keys(t, m, pane.key, "g", "j", "j")
		if got := sel(); !strings.Contains(got, "gamma") {
			t.Fatalf("pane %s: j j selected %q, want gamma", pane.key, got)
		}
		keys(t, m, "F")
		typeIn(t, m, "a")
		if got := sel(); !strings.Contains(got, "gamma") {
			t.Errorf("pane %s: /a (gamma still shown) selected %q", pane.key, got)
		}
		typeIn(t, m, "lp")
		if got := sel(); !strings.Contains(got, "alpha") {
			t.Errorf("pane %s: /alp (gamma hidden) selected %q, want alpha, the nearest before it", pane.key, got)
		}
		keys(t, m, "backspace", "backspace")
		if got := sel(); !strings.Contains(got, "gamma") {
			t.Errorf("pane %s: back to /a selected %q, want gamma again", pane.key, got)
		}
		typeIn(t, m, "lp")
		keys(t, m, "esc")
		if got := sel(); !strings.Contains(got, "gamma") {
			t.Errorf("pane %s: esc (no filter) selected %q, want gamma again", pane.key, got)
		}
		// Hidden with items shown on both sides: the one before it in the list's order.
		keys(t, m, "F")
		typeIn(t, m, "ta")
		if got := sel(); !strings.Contains(got, "beta") {
			t.Errorf("pane %s: /ta (beta and delta shown) selected %q, want beta (filter %q shown %v anchor %q)", pane.key, got, pane.list.filter.Value(), pane.list.shown, pane.list.anchor)
		}
		keys(t, m, "esc")
	}
}

// TestWireFilterKeepsTheSelection: a wire filter that hides the selected event selects
// the nearest shown one before it; a filter that shows it again selects it again.
func TestWireFilterKeepsTheSelection(t *testing.T) {
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: toolSession()})
	keys(t, m, "3")
	if !m.wire.jump(7) {
		t.Fatal("no #7")
	}
	sel := func() uint64 { return m.wire.selected().seq }
	setWireFilter(t, m, "dir:out") // 2 6 8
	if got := sel(); got != 6 {
		t.Fatalf("dir:out hiding #7 selected #%d, want #6 (before it)", got)
	}
	setWireFilter(t, m, "")
	if got := sel(); got != 7 {
		t.Fatalf("clearing the filter selected #%d, want #7 again", got)
	}
	// The presets (f): all → messages (#7 shown) → problems (#5 only) → stderr → all.
	keys(t, m, "f")
	if got := sel(); got != 7 {
		t.Fatalf("f messages selected #%d, want #7", got)
	}
	keys(t, m, "f")
	if got := sel(); got != 5 {
		t.Fatalf("f problems selected #%d, want #5", got)
	}
	keys(t, m, "f", "f")
	if m.wire.filter != filterAll {
		t.Fatalf("f f: filter %s, want all", m.wire.filter)
	}
	if got := sel(); got != 7 {
		t.Fatalf("f back to all selected #%d, want #7 again", got)
	}
	// A key that moves the selection makes the new event the one kept.
	keys(t, m, "k")
	setWireFilter(t, m, "dir:out")
	if got := sel(); got != 6 {
		t.Fatalf("after k (#6) dir:out selected #%d, want #6", got)
	}
}
