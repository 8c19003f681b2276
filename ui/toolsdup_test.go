package ui

import (
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

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
		press(t, m, "down")
	}
	want := []string{"dup:first copy", "other:", "dup:second copy"}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("selected in turn %q, want %q", seen, want)
		}
	}
	// A refresh keeps the selection on the same row, also on the first of the two copies.
	press(t, m, "g")
	m.tools.setTools(append([]mcpclient.Tool(nil), m.tools.tools...), nil)
	if got := m.tools.selected().Description; got != "first copy" {
		t.Fatalf("after a refresh the selection moved to %q", got)
	}
}
