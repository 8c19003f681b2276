package mcpclient_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Issue 3 at the wire layer: every feature against the real servers, both eras.

// recorder keeps every event for assertions and answers server requests with canned replies.
type recorder struct {
	mu      sync.Mutex
	evs     []mcpclient.Event
	asked   []string
	answers map[string]json.RawMessage
}

func (r *recorder) events() []mcpclient.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]mcpclient.Event(nil), r.evs...)
}

func (r *recorder) onRequest(req *mcpclient.ServerRequest) {
	r.mu.Lock()
	r.asked = append(r.asked, req.Method)
	ans, ok := r.answers[req.Method]
	r.mu.Unlock()
	if !ok {
		req.Fail(&mcpclient.RPCError{Code: -32601, Message: "not configured in this test"})
		return
	}
	req.Respond(ans)
}

const allCaps = `{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}}`

func startFeatures(t *testing.T, argv []string, era mcpclient.Era) (*mcpclient.Client, *recorder) {
	t.Helper()
	rec := &recorder{answers: map[string]json.RawMessage{
		"sampling/createMessage": json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"pong from the user"},"model":"mcp-inspect-user","stopReason":"endTurn"}`),
		"elicitation/create":     json.RawMessage(`{"action":"accept","content":{"name":"Ada","username":"ada","email":"ada@example.com"}}`),
		"roots/list":             mcpclient.RootsResult([]mcpclient.Root{{URI: "file:///tmp/project", Name: "project"}}),
	}}
	c, err := mcpclient.Start(mcpclient.Config{Command: argv[0], Args: argv[1:], Era: era, Timeout: 30 * time.Second,
		Capabilities: json.RawMessage(allCaps), OnServerRequest: rec.onRequest,
		OnEvent: func(ev mcpclient.Event) { rec.mu.Lock(); rec.evs = append(rec.evs, ev); rec.mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range c.Events() {
		}
	}()
	t.Cleanup(func() { c.Close() })
	return c, rec
}

func mustText(t *testing.T, r *mcpclient.CallToolResult, _ *mcpclient.Response, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return textOf(r)
}

// callText calls a tool and returns its text, failing the test on an error.
func callText(t *testing.T, c *mcpclient.Client, name, args string) string {
	t.Helper()
	var raw json.RawMessage
	if args != "" {
		raw = json.RawMessage(args)
	}
	out, resp, err := c.CallTool(context.Background(), name, raw)
	return mustText(t, out, resp, err)
}

func TestModernEraGoEverything(t *testing.T) {
	c, rec := startFeatures(t, testservers.GoEverything(t), mcpclient.EraModern)
	ctx := context.Background()
	res, err := c.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Era != mcpclient.EraModern || res.ProtocolVersion != mcpclient.ModernProtocolVersion || res.ServerInfo.Name != "mcp-conformance-test-server" || res.Discover == nil {
		t.Fatalf("discover: %+v", res)
	}
	for name, want := range map[string]string{
		"test_simple_text":                           "simple text",
		"test_input_required_result_elicitation":     "Ada",
		"test_input_required_result_sampling":        "pong from the user",
		"test_input_required_result_list_roots":      "file:///tmp/project",
		"test_input_required_result_multiple_inputs": "",
		"test_input_required_result_multi_round":     "",
		"test_input_required_result_request_state":   "",
	} {
		out, resp, err := c.CallTool(ctx, name, nil)
		text := mustText(t, out, resp, err)
		if out.IsError || !strings.Contains(text, want) {
			t.Errorf("%s: isError=%v text %q, want %q", name, out.IsError, text, want)
		}
	}
	// Every request carried the required _meta keys; no initialize was sent; retries used new ids.
	ids := map[string]bool{}
	for _, ev := range rec.events() {
		if ev.Dir != mcpclient.ClientToServer || ev.Kind != mcpclient.KindRequest {
			continue
		}
		if ev.Msg.Method == "initialize" {
			t.Error("initialize sent in the modern era")
		}
		for _, k := range []string{mcpclient.MetaProtocolVersion, mcpclient.MetaClientCapabilities, mcpclient.MetaClientInfo} {
			if !strings.Contains(string(ev.Msg.Params), k) {
				t.Errorf("%s lacks _meta %s", ev.Msg.Method, k)
			}
		}
		if ids[string(ev.Msg.ID)] {
			t.Errorf("id %s reused", ev.Msg.ID)
		}
		ids[string(ev.Msg.ID)] = true
	}
	var retried bool
	for _, ev := range rec.events() {
		if ev.Dir == mcpclient.ClientToServer && ev.Msg != nil && strings.Contains(string(ev.Msg.Params), `"requestState"`) {
			retried = true
		}
	}
	if !retried {
		t.Error("no retry echoed a requestState")
	}
	// A log level in the modern era travels in _meta.
	if err := c.SetLogLevel(ctx, "debug"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.CallTool(ctx, "test_tool_with_logging", nil); err != nil {
		t.Fatal(err)
	}
	var logs int
	for _, ev := range rec.events() {
		if ev.Msg != nil && ev.Msg.Method == "notifications/message" {
			logs++
		}
	}
	if logs == 0 {
		t.Error("no notifications/message after setting the level in _meta")
	}
	if _, err := c.Ping(ctx); err == nil {
		t.Error("ping must be refused in the modern era")
	}
}

func TestAutoEra(t *testing.T) {
	t.Run("legacy server falls back", func(t *testing.T) {
		c, rec := startFeatures(t, testservers.ServerEverything(t), mcpclient.EraAuto)
		res, err := c.Connect(context.Background())
		if err != nil || res.Era != mcpclient.EraLegacy || res.ServerInfo.Name != "mcp-servers/everything" {
			t.Fatalf("auto on a legacy server: %+v %v", res, err)
		}
		var methods []string
		for _, ev := range rec.events() {
			if ev.Dir == mcpclient.ClientToServer && ev.Msg != nil && ev.Msg.Method != "" {
				methods = append(methods, ev.Msg.Method)
			}
		}
		if len(methods) < 2 || methods[0] != "server/discover" || methods[1] != "initialize" {
			t.Errorf("the probe must be visible on the wire before initialize: %v", methods)
		}
	})
	t.Run("modern server stays modern", func(t *testing.T) {
		c, _ := startFeatures(t, testservers.GoEverything(t), mcpclient.EraAuto)
		res, err := c.Connect(context.Background())
		if err != nil || res.Era != mcpclient.EraModern {
			t.Fatalf("auto on a dual-era server: %+v %v", res, err)
		}
	})
}

func TestLegacyFeaturesGoEverything(t *testing.T) {
	c, rec := startFeatures(t, testservers.GoEverything(t), mcpclient.EraLegacy)
	ctx := context.Background()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if text := callText(t, c, "test_sampling", `{"prompt":"ping?"}`); !strings.Contains(text, "pong from the user") {
		t.Errorf("test_sampling: %q", text)
	}
	if text := callText(t, c, "test_elicitation", `{"message":"who?"}`); !strings.Contains(text, "accept") {
		t.Errorf("test_elicitation: %q", text)
	}
	if _, _, err := c.CallTool(ctx, "test_tool_with_progress", nil); err != nil {
		t.Fatal(err)
	}
	var progress int
	for _, ev := range rec.events() {
		if ev.Msg != nil && ev.Msg.Method == "notifications/progress" && ev.Pair != 0 && ev.Method == "tools/call" {
			progress++
		}
	}
	if progress == 0 {
		t.Error("no progress notification paired with its tools/call")
	}
	res, _, err := c.ListResources(ctx)
	if err != nil || len(res) == 0 {
		t.Fatalf("resources: %v", err)
	}
	for _, r := range res {
		rr, _, err := c.ReadResource(ctx, r.URI)
		if err != nil || len(rr.Contents) == 0 || (rr.Contents[0].Text == "" && rr.Contents[0].Blob == "") {
			t.Errorf("read %s: %+v %v", r.URI, rr, err)
		}
	}
	tpls, _, err := c.ListResourceTemplates(ctx)
	if err != nil || len(tpls) != 1 {
		t.Fatalf("templates: %v %v", tpls, err)
	}
	rr, _, err := c.ReadResource(ctx, "test://template/42/data")
	if err != nil || !strings.Contains(rr.Contents[0].Text, "42") {
		t.Errorf("template read: %+v %v", rr, err)
	}
	prompts, _, err := c.ListPrompts(ctx)
	if err != nil || len(prompts) == 0 {
		t.Fatal(err)
	}
	gp, _, err := c.GetPrompt(ctx, "test_prompt_with_arguments", map[string]string{"arg1": "alpha", "arg2": "beta"})
	if err != nil || len(gp.Messages) == 0 || !strings.Contains(gp.Messages[0].Content.Text, "alpha") {
		t.Errorf("prompts/get: %+v %v", gp, err)
	}
	if err := c.Subscribe(ctx, "test://watched-resource"); err != nil {
		t.Errorf("subscribe: %v", err)
	}
	if rtt, err := c.Ping(ctx); err != nil || rtt <= 0 {
		t.Errorf("ping: %v %v", rtt, err)
	}
	if err := c.SetLogLevel(ctx, "info"); err != nil {
		t.Errorf("logging/setLevel: %v", err)
	}
}

func TestLegacyFeaturesServerEverything(t *testing.T) {
	c, rec := startFeatures(t, testservers.ServerEverything(t), mcpclient.EraLegacy)
	ctx := context.Background()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	// With sampling/elicitation/roots advertised, the server adds tools and asks for roots.
	deadline := time.Now().Add(10 * time.Second)
	var tools []mcpclient.Tool
	for time.Now().Before(deadline) {
		tools, _, _ = c.ListTools(ctx)
		if hasTool(tools, "trigger-sampling-request") && hasTool(tools, "trigger-elicitation-request") {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !hasTool(tools, "trigger-sampling-request") {
		t.Fatalf("trigger-sampling-request never appeared (tools/list_changed after initialized)")
	}
	if text := callText(t, c, "trigger-sampling-request", `{"prompt":"hi","maxTokens":20}`); !strings.Contains(text, "pong from the user") {
		t.Errorf("trigger-sampling-request: %q", text)
	}
	if text := callText(t, c, "trigger-elicitation-request", ""); !strings.Contains(text, "accept") {
		t.Errorf("trigger-elicitation-request: %q", text)
	}
	if _, _, err := c.CallTool(ctx, "trigger-long-running-operation", json.RawMessage(`{"duration":1,"steps":3}`)); err != nil {
		t.Fatal(err)
	}
	comp, err := c.Complete(ctx, mcpclient.CompletionRef{Type: "ref/prompt", Name: "completable-prompt"}, "department", "Eng", nil)
	if err != nil || len(comp.Values) == 0 || !strings.HasPrefix(comp.Values[0], "Eng") {
		t.Errorf("completion: %+v %v", comp, err)
	}
	gp, _, err := c.GetPrompt(ctx, "args-prompt", map[string]string{"city": "Lisbon"})
	if err != nil || !strings.Contains(gp.Messages[0].Content.Text, "Lisbon") {
		t.Errorf("args-prompt: %+v %v", gp, err)
	}
	rr, _, err := c.ReadResource(ctx, "demo://resource/dynamic/text/7")
	if err != nil || len(rr.Contents) == 0 {
		t.Errorf("dynamic text resource: %v", err)
	}
	var rootsAsked, progress bool
	for _, ev := range rec.events() {
		rootsAsked = rootsAsked || (ev.Dir == mcpclient.ServerToClient && ev.Msg != nil && ev.Msg.Method == "roots/list")
		progress = progress || (ev.Msg != nil && ev.Msg.Method == "notifications/progress" && ev.Pair != 0)
	}
	if !rootsAsked {
		t.Error("server-everything did not ask roots/list after initialized")
	}
	if !progress {
		t.Error("trigger-long-running-operation sent no paired progress")
	}
}

func hasTool(tools []mcpclient.Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}
