package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// #14 §3: the help of an open form lists the form's keys and only the global keys that
// work there (no pane numbers, no tab-to-next-pane), and says tab moves between fields.
func TestFormHelpListsTheKeysThatWork(t *testing.T) {
	weather := mcpclient.Tool{Name: "weather", InputSchema: json.RawMessage(`{"type":"object","properties":{"units":{"type":"string","enum":["celsius","fahrenheit"]},"city":{"type":"string"}}}`)}
	m, _ := formModel(t, 160, 48, "", weather)
	keys(t, m, "?")
	out := ansi.Strip(view(m))
	for _, want := range []string{
		"keys · call form",
		"tab/↓/enter moves between fields, pane numbers are text",
		"tab/↓/enter  next field",
		"ctrl+s",
		"ctrl+o",
		"quit, off a text field (unsent changes: press it twice)",
		"ctrl+c",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("form help lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"next pane", "1  tools", "3  wire"} {
		if strings.Contains(out, not) {
			t.Errorf("form help lists %q, which does not work in the form:\n%s", not, out)
		}
	}
	keys(t, m, "?")
	keys(t, m, "esc", "?") // the Call pane without the form: the global keys are back
	if out := ansi.Strip(view(m)); !strings.Contains(out, "next pane") {
		t.Errorf("the pane's help lost the global keys:\n%s", out)
	}
}

// q warns of unsent values only when the value differs from the one opened (or last
// sent): typing and erasing the same text leaves nothing to lose.
func TestFormQuitWarnsOnlyOnChangedValues(t *testing.T) {
	weather := mcpclient.Tool{Name: "weather", InputSchema: json.RawMessage(`{"type":"object","properties":{"units":{"type":"string","enum":["celsius","fahrenheit"]},"city":{"type":"string"}}}`)}
	m, _ := formModel(t, 100, 30, "", weather)
	keys(t, m, "tab")
	typeIn(t, m, "ab")
	keys(t, m, "backspace", "backspace", "tab", "q")
	if !m.quitting {
		t.Fatalf("q warned though the value is back to what was opened:\n%s", view(m))
	}

	m, _ = formModel(t, 100, 30, "", weather)
	keys(t, m, "tab")
	typeIn(t, m, "Paris")
	keys(t, m, "tab", "q")
	if m.quitting || !strings.Contains(view(m), "q again quits") {
		t.Fatalf("q with a changed value: quitting=%v\n%s", m.quitting, view(m))
	}
	keys(t, m, "ctrl+s", "2") // sent: the value is the baseline now
	if m.call.form == nil {
		keys(t, m, "e") // back to the form of the call
	}
	keys(t, m, "q")
	if !m.quitting {
		t.Fatalf("q after sending warned again:\n%s", view(m))
	}
}
