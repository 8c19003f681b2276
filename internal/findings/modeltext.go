package findings

import (
	"encoding/json"
	"sort"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// ModelText is one piece of server text written for a model: a host puts it in the
// model's context, often unseen by the user, so both views show it in full with its length.
type ModelText struct {
	// Where is the item: "tool add", "prompt greet", "server" (for instructions).
	Where string `json:"where"`
	// Field is the member: "description", "parameter b description", "instructions".
	Field string `json:"field"`
	// Text is the text as received.
	Text string `json:"text"`
	// Chars is its length in characters (Unicode code points; invisible ones count).
	Chars int `json:"chars"`
	// Lint is what Lint marks in it, nil when nothing.
	Lint []string `json:"lint,omitempty"`
}

func newText(where, field, text string) ModelText {
	return ModelText{Where: where, Field: field, Text: text, Chars: utf8.RuneCountInString(text), Lint: Lint(text)}
}

// Findings are the lint marks as steering-text findings (advisory: Must is false).
func (m ModelText) Findings() []Finding {
	var out []Finding
	for _, l := range m.Lint {
		out = append(out, Finding{Code: CodeSteering, Where: m.Where + ": " + m.Field, Text: l})
	}
	return out
}

// ToolTexts are a tool's description and the descriptions in its inputSchema (each
// property's, nested ones by dotted path, in name order), the empty ones left out.
func ToolTexts(t mcpclient.Tool) []ModelText {
	where := "tool " + t.Name
	var out []ModelText
	if t.Description != "" {
		out = append(out, newText(where, "description", t.Description))
	}
	var walk func(schema json.RawMessage, path string, depth int)
	walk = func(schema json.RawMessage, path string, depth int) {
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Items      json.RawMessage            `json:"items"`
		}
		if depth > 8 || json.Unmarshal(schema, &s) != nil {
			return
		}
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			p := n
			if path != "" {
				p = path + "." + n
			}
			var d struct {
				Description string `json:"description"`
			}
			if json.Unmarshal(s.Properties[n], &d) == nil && d.Description != "" {
				out = append(out, newText(where, "parameter "+p+" description", d.Description))
			}
			walk(s.Properties[n], p, depth+1)
		}
		if len(s.Items) > 0 {
			walk(s.Items, path+"[]", depth+1)
		}
	}
	walk(t.InputSchema, "", 0)
	return out
}

// PromptTexts are a prompt's description and its arguments' descriptions.
func PromptTexts(p mcpclient.Prompt) []ModelText {
	where := "prompt " + p.Name
	var out []ModelText
	if p.Description != "" {
		out = append(out, newText(where, "description", p.Description))
	}
	for _, a := range p.Arguments {
		if a.Description != "" {
			out = append(out, newText(where, "argument "+a.Name+" description", a.Description))
		}
	}
	return out
}

// Instructions is the handshake's instructions as model text (MCP 2025-11-25 lifecycle:
// hosts may add them to the system prompt); ok is false when there are none.
func Instructions(s string) (ModelText, bool) {
	if s == "" {
		return ModelText{}, false
	}
	return newText("server", "instructions", s), true
}
