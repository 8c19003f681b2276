package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// containsRun reports whether want stands in got as consecutive lines.
func containsRun(got, want []string) bool {
	for i := 0; i+len(want) <= len(got); i++ {
		match := true
		for j := range want {
			if got[i+j] != want[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// #16: the Server pane's capabilities, a tool's input and output schemas and a log entry's
// structured data are drawn by the JSON view: its theme tokens (a key in the key color),
// not monochrome indented text.
func TestJSONViewInServerToolsLogs(t *testing.T) {
	m := connected(t, moreSession(), 160, 40, func(o *Options) { o.Theme = "dark" })
	st := m.c.st
	w := 80
	caps := m.state().Init.Capabilities
	want, ok := jsonLines(st, caps, w)
	if !ok || !strings.Contains(strings.Join(want, "\n"), st.JSONKey.Render(`"resources"`)) {
		t.Fatalf("the JSON view draws no colored key: %q", want)
	}
	if got := m.serverLines(w); !containsRun(got, want) {
		t.Errorf("the Server pane's capabilities are not the JSON view's:\n%s", strings.Join(got, "\n"))
	}

	tool := mcpclient.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`), OutputSchema: json.RawMessage(`{"type":"object"}`)}
	got := toolDetail(st, nil, &tool, w)
	in, _ := jsonLines(st, tool.InputSchema, w)
	out, _ := jsonLines(st, tool.OutputSchema, w)
	if !containsRun(got, in) || !containsRun(got, out) {
		t.Errorf("the tool's schemas are not the JSON view's:\n%s", strings.Join(got, "\n"))
	}

	e := logEntry{text: `{"query":"select 1","rows":3}`, isJSON: true}
	data, _ := jsonLines(st, []byte(e.text), w)
	if got := e.detailLines(st, w); !containsRun(got, data) || len(got) != 4 {
		t.Errorf("the log data is not the JSON view's: %q", got)
	}
	// A JSON string or number stays text.
	e = logEntry{text: `"just text"`, isJSON: true}
	if got := e.detailLines(st, w); len(got) != 1 || strings.Contains(got[0], "\x1b[") {
		t.Errorf("scalar data: %q", got)
	}
}

// #16: the Server pane's capabilities take the JSON keys as the wire and results do: enter
// explores, the list keys move, space folds, Y copies the jq path, esc leaves.
func TestServerCapabilitiesExplore(t *testing.T) {
	m := connected(t, moreSession(), 140, 40)
	m.c.hist.dir = t.TempDir()
	keys(t, m, "4")
	if strings.Contains(view(m), "y/Y copy value/path") {
		t.Fatal("a path line before enter")
	}
	keys(t, m, "enter")
	mustContain(t, "exploring", view(m), ".capabilities  ", "y/Y copy value/path")
	keys(t, m, "j", "j")
	clip, _ := copyKey(t, m, "Y")
	if clip != ".capabilities.resources.subscribe" {
		t.Fatalf("Y copied %q", clip)
	}
	keys(t, m, "k", "space")
	if v := view(m); strings.Contains(v, `"subscribe": true`) || !strings.Contains(v, `"resources": {`) {
		t.Fatalf("space did not fold resources:\n%s", v)
	}
	keys(t, m, "?")
	mustContain(t, "help while exploring", view(m), "copy the node's jq path")
	keys(t, m, "?", "esc")
	if m.panes[paneServer].(*serverPane).exploring() || strings.Contains(view(m), "y/Y copy value/path") {
		t.Fatal("esc did not leave the JSON")
	}
	keys(t, m, "?")
	mustContain(t, "help", view(m), "explore the parsed JSON")
}
