package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Results with structuredContent are checked against the tool's outputSchema; a mismatch
// is an advisory beside the result, which is always shown in full.
func TestResultOutputSchemaAdvisory(t *testing.T) {
	tool := realTool(t, serverEverything, "get-structured-content") // outputSchema: temperature, conditions, humidity
	cases := []struct {
		name   string
		result *mcpclient.CallToolResult
		want   []string
		not    []string
	}{
		{"matches", &mcpclient.CallToolResult{
			Content:           []mcpclient.ContentBlock{{Type: "text", Text: "sunny"}},
			StructuredContent: json.RawMessage(`{"temperature":22.5,"conditions":"Sunny","humidity":40}`)},
			[]string{"✓ structuredContent matches the tool's outputSchema", `"conditions": "Sunny"`}, []string{"⚠"}},
		{"mismatch", &mcpclient.CallToolResult{
			Content:           []mcpclient.ContentBlock{{Type: "text", Text: "rainy"}},
			StructuredContent: json.RawMessage(`{"temperature":"hot","conditions":"Rain","wind":3}`)},
			[]string{
				"⚠ structuredContent does not match the tool's outputSchema",
				"temperature: must be a number, not a string",
				`missing required property "humidity"`,
				`property "wind" is not allowed`,
				// The result itself is all there.
				"rainy", `"temperature": "hot"`, `"wind": 3`,
			}, []string{"✓"}},
		{"missing", &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{{Type: "text", Text: "no structure"}}},
			[]string{"⚠ the tool declares an outputSchema but the result has no structuredContent", "no structure"}, nil},
		{"tool error", &mcpclient.CallToolResult{IsError: true, Content: []mcpclient.ContentBlock{{Type: "text", Text: "boom"}}},
			[]string{"boom"}, []string{"outputSchema"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, s := formModel(t, 140, 50, "", tool)
			s.result = c.result
			do(t, m, "'C")
			wantSent(t, m, s, `{"location":"Chicago"}`)
			out := view(m)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("result lacks %q\n%s", w, out)
				}
			}
			for _, w := range c.not {
				if strings.Contains(out, w) {
					t.Errorf("result shows %q\n%s", w, out)
				}
			}
		})
	}
}

// Without an outputSchema nothing is said about structuredContent.
func TestResultWithoutOutputSchema(t *testing.T) {
	m, s := formModel(t, 120, 40, "", realTool(t, serverEverything, "echo"))
	s.result = &mcpclient.CallToolResult{StructuredContent: json.RawMessage(`{"x":1}`)}
	do(t, m, "'hi")
	wantSent(t, m, s, `{"message":"hi"}`)
	if out := view(m); strings.Contains(out, "outputSchema") || !strings.Contains(out, `"x": 1`) {
		t.Fatalf("result:\n%s", out)
	}
}
