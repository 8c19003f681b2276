package demo

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBindArgumentsNamesThePath: arguments are checked by the schema engine the forms use
// (formats asserted), and the error starts with where the problem is.
func TestBindArgumentsNamesThePath(t *testing.T) {
	for _, c := range []struct{ tool, args, want string }{
		{"echo", `{}`, `arguments: missing required property "text"`},
		{"echo", `{"text":"a","extra":1}`, `arguments: property "extra"`},
		{"echo", `[]`, `arguments: `},
		{"create_issue", `{"title":"x","assignee":{"name":"Ada","email":"not an email"}}`, "assignee.email: "},
		{"create_issue", `{"title":"x","labels":["ok",3]}`, "labels.1: "},
		{"repeat", `{"text":"a","times":11}`, "times: "},
	} {
		var v map[string]any
		err := bindArguments(findTool(c.tool).InputSchema, json.RawMessage(c.args), &v)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want %q…", c.tool, c.args, err, c.want)
		}
	}
	var v struct {
		Text  string `json:"text"`
		Times int    `json:"times"`
	}
	if err := bindArguments(findTool("repeat").InputSchema, nil, &v); err == nil {
		t.Errorf("repeat without text: no error")
	}
	if err := bindArguments(findTool("repeat").InputSchema, json.RawMessage(`{"text":"a"}`), &v); err != nil || v.Times != 2 {
		t.Errorf("repeat's default: %v, %+v", err, v)
	}
}

// TestToolSchemasCompile: every tool's inputSchema compiles with the schema engine and
// leaves nothing unchecked, as checkArguments requires.
func TestToolSchemasCompile(t *testing.T) {
	for _, tl := range tools() {
		if err := checkArguments(tl.InputSchema, json.RawMessage(`null`)); err != nil && strings.HasPrefix(err.Error(), "bad input schema") {
			t.Errorf("%s: %v", tl.Name, err)
		}
	}
}
