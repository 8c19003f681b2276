package findings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/schemaform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Code is a finding's stable short identifier, for --json and tests.
type Code string

const (
	// CodeOutputMismatch: structuredContent does not match the tool's outputSchema (MCP
	// 2025-11-25 server/tools: servers MUST provide structured results that conform to it).
	CodeOutputMismatch Code = "output-schema-mismatch"
	// CodeNoStructured: the tool declares an outputSchema, the result has no
	// structuredContent (the same MUST).
	CodeNoStructured Code = "no-structured-content"
	// CodeSchemaShape: an inputSchema or outputSchema whose root is not "type": "object"
	// (a bare union, an array, no type; schema.ts Tool.inputSchema / Tool.outputSchema).
	CodeSchemaShape Code = "schema-shape"
	// CodeSteering: text meant for a model reads as steering it (see Lint); advisory only.
	CodeSteering Code = "steering-text"
	// CodeHeaderAnnotation: an inputSchema's x-mcp-header annotations are invalid (MCP
	// 2026-07-28 server/tools §x-mcp-header); a client drops such a tool from tools/list over
	// HTTP, so users of other clients never see it.
	CodeHeaderAnnotation Code = "x-mcp-header"
)

// Finding is one advisory about what the server sent.
type Finding struct {
	Code Code `json:"code"`
	// Where names what it is about: "tool add", "tool add: parameter b description".
	Where string `json:"where"`
	// Text says what is wrong, in words.
	Text string `json:"text"`
	// Must marks a finding that breaks a MUST of the spec: --strict stops on it.
	Must bool `json:"must"`
}

// String is the finding as one line: "where: text".
func (f Finding) String() string {
	if f.Where == "" {
		return f.Text
	}
	return f.Where + ": " + f.Text
}

// Output is the check of one tools/call result against the tool's outputSchema.
type Output struct {
	// Checked: the tool declares an outputSchema and the result is not isError.
	Checked bool
	// Missing: checked, and the result has no structuredContent.
	Missing bool
	// Problems are the mismatches, "path: message" (the path left out for the whole value).
	Problems []string
}

// CheckOutput checks res against outSchema, the tool's outputSchema (nil or empty when it
// declares none). An isError result is not checked (MCP 2025-11-25 server/tools: the
// schema describes successful results).
func CheckOutput(outSchema json.RawMessage, res *mcpclient.CallToolResult) Output {
	if len(bytes.TrimSpace(outSchema)) == 0 || res == nil || res.IsError {
		return Output{}
	}
	if len(res.StructuredContent) == 0 {
		return Output{Checked: true, Missing: true}
	}
	o := Output{Checked: true}
	for _, e := range schemaform.ValidateValue(outSchema, res.StructuredContent) {
		msg := e.Message
		if len(e.Path) > 0 {
			msg = strings.Join(e.Path, ".") + ": " + msg
		}
		o.Problems = append(o.Problems, msg)
	}
	return o
}

// MissingText and MismatchText are the words both views use for an Output.
const (
	MissingText  = "the tool declares an outputSchema but the result has no structuredContent"
	MismatchText = "structuredContent does not match the tool's outputSchema"
)

// Findings are o as findings about tool (its name): one per mismatch, or the missing one.
func (o Output) Findings(tool string) []Finding {
	where := "tools/call " + tool
	if o.Missing {
		return []Finding{{Code: CodeNoStructured, Where: where, Text: MissingText, Must: true}}
	}
	var out []Finding
	for _, p := range o.Problems {
		out = append(out, Finding{Code: CodeOutputMismatch, Where: where, Text: MismatchText + ": " + p, Must: true})
	}
	return out
}

// SchemaShape says which MCP rule a schema's root breaks when it is not "type": "object",
// or "" when it is fine or absent. name is the member ("inputSchema", "outputSchema",
// "requestedSchema") and rule the spec text it comes from.
func SchemaShape(name, rule string, schema json.RawMessage) string {
	schema = bytes.TrimSpace(schema)
	if len(schema) == 0 || string(schema) == "null" {
		return ""
	}
	tail := fmt.Sprintf(`; MCP requires "type": "object" (%s)`, rule)
	var root map[string]json.RawMessage
	if json.Unmarshal(schema, &root) != nil {
		return fmt.Sprintf("%s is %s, not a JSON Schema object%s", name, short(jsontext.Compact(schema)), tail)
	}
	t, ok := root["type"]
	switch {
	case !ok:
		for _, u := range []string{"anyOf", "oneOf"} {
			if _, isUnion := root[u]; isUnion {
				return fmt.Sprintf(`%s is a union (%s) with no "type"%s`, name, u, tail)
			}
		}
		return fmt.Sprintf(`%s has no "type"%s`, name, tail)
	case string(bytes.TrimSpace(t)) == `"object"`:
		return ""
	}
	return fmt.Sprintf(`%s has "type": %s%s`, name, short(jsontext.Compact(t)), tail)
}

// Rules quoted by SchemaShape's callers.
const (
	InputRule  = "schema.ts Tool.inputSchema: tools/call arguments are an object"
	OutputRule = "schema.ts Tool.outputSchema: structuredContent is an object"
)

// Tool are the findings about a listed tool: its schemas' shapes and the lint of its model
// text (description, parameter descriptions).
func Tool(t mcpclient.Tool) []Finding {
	where := "tool " + t.Name
	var out []Finding
	if s := SchemaShape("inputSchema", InputRule, t.InputSchema); s != "" {
		out = append(out, Finding{Code: CodeSchemaShape, Where: where, Text: s, Must: true})
	}
	if s := SchemaShape("outputSchema", OutputRule, t.OutputSchema); s != "" {
		out = append(out, Finding{Code: CodeSchemaShape, Where: where, Text: s, Must: true})
	}
	if err := mcpclient.ValidateHeaderAnnotations(t.InputSchema); err != nil {
		out = append(out, Finding{Code: CodeHeaderAnnotation, Where: where, Text: err.Error() +
			" (MCP 2026-07-28 server/tools §x-mcp-header: over HTTP a client drops this tool from tools/list; mcp-inspect keeps it to show it)"})
	}
	for _, mt := range ToolTexts(t) {
		out = append(out, mt.Findings()...)
	}
	return out
}

// Prompt are the findings about a listed prompt: the lint of its model text.
func Prompt(p mcpclient.Prompt) []Finding {
	var out []Finding
	for _, mt := range PromptTexts(p) {
		out = append(out, mt.Findings()...)
	}
	return out
}

// short cuts s to 40 runes with "…".
func short(s string) string {
	r := []rune(s)
	if len(r) <= 40 {
		return s
	}
	return string(r[:39]) + "…"
}
