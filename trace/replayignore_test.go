package trace_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestReplayIgnoreByMethod: an ignored path prefixed with a method ("tools/call:$...")
// silences that method's difference only; without it the diff names the path, and the
// report's JSON form carries it (issue 5: volatile fields ignorable by path).
func TestReplayIgnoreByMethod(t *testing.T) {
	t.Parallel()
	s := record(t, fakeConfig(t, "minimal"), nil, func(ctx context.Context, c *mcpclient.Client) {
		c.Initialize(ctx)
		c.CallTool(ctx, "echo", json.RawMessage(`{"text":"zebra-one"}`))
	})
	// The same server behind a proxy that changes the echoed text.
	changed := proxyConfig([]string{fake.Binary(t)}, "zebra-one", "zebra-two")
	changed.Env = append(changed.Env, fake.EnvScenario+"=minimal")

	rep := replay(t, openTrace(t, s.path), changed)
	if rep.OK() || !strings.Contains(reportText(rep), "$.result.content[0].text") {
		t.Fatalf("a changed echo replayed without its path:\n%s", reportText(rep))
	}
	js, err := json.Marshal(rep)
	if err != nil || !strings.Contains(string(js), `"$.result.content[0].text"`) || !strings.Contains(string(js), "zebra-two") {
		t.Errorf("the JSON report lacks the difference: %v\n%s", err, js)
	}
	rep = replay(t, openTrace(t, s.path), changed, "tools/call:$.result.content[*].text")
	if !rep.OK() {
		t.Errorf("ignored for tools/call, still differs:\n%s", reportText(rep))
	}
	rep = replay(t, openTrace(t, s.path), changed, "initialize:$.result.content[*].text")
	if rep.OK() {
		t.Errorf("a path ignored for initialize silenced tools/call:\n%s", reportText(rep))
	}
}

// TestReplayJSONInText: a text content block that holds JSON is compared as JSON through
// a whole replay: the same document spelled differently is the same, a changed member is
// a difference named by its path inside the text.
func TestReplayJSONInText(t *testing.T) {
	t.Parallel()
	s := record(t, fakeConfig(t, "minimal"), nil, func(ctx context.Context, c *mcpclient.Client) {
		c.Initialize(ctx)
		c.CallTool(ctx, "echo", json.RawMessage(`{"text":"{\"a\":1,\"b\":[1,2]}"}`))
	})
	respelled := proxyConfig([]string{fake.Binary(t)}, `{\"a\":1,\"b\":[1,2]}`, `{ \"b\": [1, 2.0], \"a\": 1 }`)
	respelled.Env = append(respelled.Env, fake.EnvScenario+"=minimal")
	if rep := replay(t, openTrace(t, s.path), respelled); !rep.OK() {
		t.Errorf("the same JSON spelled differently differs:\n%s", reportText(rep))
	}
	changed := proxyConfig([]string{fake.Binary(t)}, `{\"a\":1,`, `{\"a\":7,`)
	changed.Env = append(changed.Env, fake.EnvScenario+"=minimal")
	rep := replay(t, openTrace(t, s.path), changed)
	if rep.OK() || !strings.Contains(reportText(rep), "$.result.content[0].text.a") {
		t.Errorf("a changed member inside the text is not named:\n%s", reportText(rep))
	}
}
