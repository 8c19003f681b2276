package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"slices"
	"strings"
)

// schema is the subset of JSON Schema 2020-12 that the demo's own tool schemas use. The demo
// validates arguments against the very schema it advertises, so what the inspector's form
// shows and what the server accepts never drift apart.
type schema struct {
	Type                 string             `json:"type"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	Enum                 []any              `json:"enum"`
	Minimum              *float64           `json:"minimum"`
	Maximum              *float64           `json:"maximum"`
	MinLength            *int               `json:"minLength"`
	Items                *schema            `json:"items"`
	Default              any                `json:"default"`
	Format               string             `json:"format"`
	AdditionalProperties *bool              `json:"additionalProperties"`
}

func parseSchema(raw json.RawMessage) (*schema, error) {
	var s schema
	if err := decodeNumbers(raw, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// decodeNumbers decodes with json.Number, so integer checks see the text the client sent.
func decodeNumbers(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// jsonType names the JSON type of a value decoded with UseNumber.
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if isInteger(x) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func isInteger(n json.Number) bool {
	f, err := n.Float64()
	return err == nil && f == math.Trunc(f) && !math.IsInf(f, 0)
}

// validate checks v against s and returns the first problem, naming the path ("assignee.email").
func (s *schema) validate(path string, v any) error {
	name := path
	if name == "" {
		name = "arguments"
	}
	got := jsonType(v)
	switch s.Type {
	case "":
	case "number":
		if got != "number" && got != "integer" {
			return fmt.Errorf("%s: expected number, got %s", name, got)
		}
	default:
		if got != s.Type {
			return fmt.Errorf("%s: expected %s, got %s", name, s.Type, got)
		}
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		opts := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			opts[i] = fmt.Sprint(e)
		}
		return fmt.Errorf("%s: %v is not one of %s", name, v, strings.Join(opts, ", "))
	}
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		if s.Minimum != nil && f < *s.Minimum {
			return fmt.Errorf("%s: must be at least %v, got %s", name, *s.Minimum, x)
		}
		if s.Maximum != nil && f > *s.Maximum {
			return fmt.Errorf("%s: must be at most %v, got %s", name, *s.Maximum, x)
		}
	case string:
		if s.MinLength != nil && len([]rune(x)) < *s.MinLength {
			return fmt.Errorf("%s: must be at least %d characters", name, *s.MinLength)
		}
		if s.Format == "email" {
			if a, err := mail.ParseAddress(x); err != nil || a.Address != x {
				return fmt.Errorf("%s: %q is not an email address", name, x)
			}
		}
	case []any:
		if s.Items != nil {
			for i, item := range x {
				if err := s.Items.validate(fmt.Sprintf("%s[%d]", name, i), item); err != nil {
					return err
				}
			}
		}
	case map[string]any:
		for _, r := range s.Required {
			if _, ok := x[r]; !ok {
				return fmt.Errorf("%s: missing required property %q", name, r)
			}
		}
		// Sorted keys, so the error for a given input is always the same one.
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			sub, ok := s.Properties[k]
			if !ok {
				if s.AdditionalProperties != nil && !*s.AdditionalProperties {
					return fmt.Errorf("%s: unknown property %q", name, k)
				}
				continue
			}
			if err := sub.validate(strings.TrimPrefix(path+"."+k, "."), x[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyDefaults fills in top-level properties the client left out and that have a default.
func (s *schema) applyDefaults(args map[string]any) {
	for k, p := range s.Properties {
		if _, ok := args[k]; !ok && p.Default != nil {
			args[k] = p.Default
		}
	}
}

// bindArguments validates raw tool arguments against the tool's input schema, applies
// defaults, and decodes the result into dst. A missing or null arguments value counts as {}.
func bindArguments(inputSchema json.RawMessage, raw json.RawMessage, dst any) error {
	s, err := parseSchema(inputSchema)
	if err != nil {
		return fmt.Errorf("bad input schema: %w", err)
	}
	var v any = map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := decodeNumbers(raw, &v); err != nil {
			return fmt.Errorf("arguments are not valid JSON: %w", err)
		}
	}
	if err := s.validate("", v); err != nil {
		return err
	}
	args := v.(map[string]any)
	s.applyDefaults(args)
	b, err := json.Marshal(args)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst)
}
