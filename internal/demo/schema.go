package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/schemaform"
)

// schema is what the demo reads of its own tool schemas besides validating with them: the
// types, properties and defaults. Validation is the schema engine's (checkArguments).
type schema struct {
	Type       string             `json:"type"`
	Properties map[string]*schema `json:"properties"`
	Enum       []any              `json:"enum"`
	Items      *schema            `json:"items"`
	Default    any                `json:"default"`
}

func parseSchema(raw json.RawMessage) (*schema, error) {
	var s schema
	if err := decodeNumbers(raw, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// decodeNumbers decodes with json.Number, so integers keep the text the client sent.
func decodeNumbers(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// checkArguments validates args (JSON) against the tool's input schema with the schema
// engine the inspector's forms use (internal/schemaform on santhosh-tekuri/jsonschema,
// 2020-12, formats asserted), so what the inspector's form accepts and what the demo
// accepts are decided by the same code. It returns the first problem by instance path
// ("assignee.email: …"; "arguments: …" for the whole value), nil when args are valid. A
// schema the engine cannot check fully is an error: the demo's schemas must compile.
func checkArguments(inputSchema, args json.RawMessage) error {
	form, err := schemaform.New(inputSchema)
	if err != nil {
		return fmt.Errorf("bad input schema: %w", err)
	}
	if notes := form.Notes(); len(notes) > 0 {
		return fmt.Errorf("bad input schema: %s", strings.Join(notes, "; "))
	}
	probs := form.ValidateJSON(args)
	if len(probs) == 0 {
		return nil
	}
	// The validator reports an object's properties in map order: take the first by path,
	// so the error for a given input is always the same one.
	first := slices.MinFunc(probs, func(a, b schemaform.FieldError) int {
		return strings.Compare(strings.Join(a.Path, "\x00"), strings.Join(b.Path, "\x00"))
	})
	if len(first.Path) == 0 {
		return fmt.Errorf("arguments: %s", first.Message)
	}
	return first
}

// applyDefaults fills in top-level properties the client left out and that have a default.
func (s *schema) applyDefaults(args map[string]any) {
	for k, p := range s.Properties {
		if _, ok := args[k]; !ok && p.Default != nil {
			args[k] = p.Default
		}
	}
}

// bindArguments validates raw tool arguments against the tool's input schema
// (checkArguments), applies defaults, and decodes the result into dst. A missing or null
// arguments value counts as {}.
func bindArguments(inputSchema json.RawMessage, raw json.RawMessage, dst any) error {
	s, err := parseSchema(inputSchema)
	if err != nil {
		return fmt.Errorf("bad input schema: %w", err)
	}
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var v any
	if err := decodeNumbers(raw, &v); err != nil {
		return fmt.Errorf("arguments are not valid JSON: %w", err)
	}
	if err := checkArguments(inputSchema, raw); err != nil {
		return err
	}
	args, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("arguments: expected object")
	}
	s.applyDefaults(args)
	b, err := json.Marshal(args)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst)
}
