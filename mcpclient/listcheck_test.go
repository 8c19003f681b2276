package mcpclient

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestDuplicateWarnings(t *testing.T) {
	raw := func(items ...string) []json.RawMessage {
		out := make([]json.RawMessage, len(items))
		for i, s := range items {
			out[i] = json.RawMessage(s)
		}
		return out
	}
	cases := []struct {
		method string
		items  []json.RawMessage
		want   []string
	}{
		{"tools/list", raw(`{"name":"a"}`, `{"name":"b"}`), nil},
		{"tools/list", raw(`{"name":"a"}`, `{"name":"b"}`, `{"name":"a"}`, `{"name":"b"}`, `{"name":"a"}`), []string{
			`tools/list: 3 entries have name "a"; it must be unique per server, and tools/call can reach only one of them`,
			`tools/list: 2 entries have name "b"; it must be unique per server, and tools/call can reach only one of them`,
		}},
		{"resources/list", raw(`{"uri":"file:///x","name":"one"}`, `{"name":"two","uri":"file:///x"}`), []string{
			`resources/list: 2 entries have uri "file:///x"; it must be unique per server, and resources/read can reach only one of them`,
		}},
		{"resources/templates/list", raw(`{"uriTemplate":"t/{x}","name":"a"}`, `{"uriTemplate":"t/{x}","name":"b"}`), []string{
			`resources/templates/list: 2 entries have uriTemplate "t/{x}"; it must be unique per server, and resources/read can reach only one of them`,
		}},
		// The same name in different lists, a missing or non-string name: not this check's business.
		{"prompts/list", raw(`{"name":"p"}`, `{"title":"p"}`, `{"name":1}`, `{"name":1}`, `[]`), nil},
		{"tasks/list", raw(`{"name":"a"}`, `{"name":"a"}`), nil},
	}
	for _, c := range cases {
		got := DuplicateWarnings(c.method, c.items)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %s:\n got %q\nwant %q", c.method, c.items, got, c.want)
		}
	}
}

// TestListToolsWarnsOfDuplicateNames: a server listing one tool name twice is told about,
// and both entries are still listed as sent.
func TestListToolsWarnsOfDuplicateNames(t *testing.T) {
	c, err := Start(helperConfig("dup-tools"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() {
		for range c.Events() {
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	tools, warnings, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 3 {
		t.Errorf("listed %d tools, want the 3 sent", len(tools))
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `2 entries have name "echo"`) {
		t.Errorf("warnings = %q, want one about the two tools named echo", warnings)
	}
}
