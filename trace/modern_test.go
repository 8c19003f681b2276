package trace_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestModernEraRoundTrip records a modern-era (2026-07-28) session against the go-sdk
// everything-server, with an input_required round trip answered by the client, and replays
// and mocks it (the retry of a tools/call matches the same name and arguments, so the mock
// answers the first call and its retry with the recorded responses in order).
func TestModernEraRoundTrip(t *testing.T) {
	t.Parallel()
	argv := testservers.GoEverything(t)
	cfg := mcpclient.Config{Command: argv[0], Args: argv[1:], Era: mcpclient.EraModern, Capabilities: json.RawMessage(`{"elicitation":{},"sampling":{}}`), OnServerRequest: answerModern}
	script := func(ctx context.Context, c *mcpclient.Client) []string {
		res, err := c.Connect(ctx)
		if err != nil {
			return []string{outcome(nil, err)}
		}
		out := []string{outcome(res.Era, nil)}
		tools, _, err := c.ListTools(ctx)
		out = append(out, outcome(len(tools), err))
		for _, name := range []string{"test_simple_text", "test_input_required_result_elicitation"} {
			r, _, err := c.CallTool(ctx, name, json.RawMessage(`{}`))
			out = append(out, outcome(r, err))
		}
		return out
	}
	var recorded []string
	s := record(t, cfg, nil, func(ctx context.Context, c *mcpclient.Client) { recorded = script(ctx, c) })
	t.Logf("recorded: %v", recorded)
	checkSame(t, s)
	rep := replay(t, openTrace(t, s.path), cfg)
	if !rep.OK() {
		t.Errorf("modern replay:\n%s", reportText(rep))
	}
	mcfg := helperConfig("mock", "RECORDER_TRACE="+s.path)
	mcfg.Era, mcfg.Capabilities, mcfg.OnServerRequest = cfg.Era, cfg.Capabilities, cfg.OnServerRequest
	var got []string
	record(t, mcfg, nil, func(ctx context.Context, c *mcpclient.Client) { got = script(ctx, c) })
	if !reflect.DeepEqual(got, recorded) {
		t.Errorf("through the mock:\n%v\nrecorded:\n%v", got, recorded)
	}
}

func answerModern(r *mcpclient.ServerRequest) {
	switch r.Method {
	case "elicitation/create":
		r.Respond(json.RawMessage(`{"action":"accept","content":{"name":"test"}}`))
	default:
		answerSampling(r)
	}
}
