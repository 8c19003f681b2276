package trace_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// These record sessions against real servers nobody here wrote, then open, replay and mock
// them. CI installs both servers (.ci/run); nothing is skipped.

// script drives a session and returns what each step gave, as text, so a session against
// the mock can be compared with the recorded one.
type script func(ctx context.Context, c *mcpclient.Client) []string

func outcome(v any, err error) string {
	b, _ := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%s error: %v", b, err)
	}
	return string(b)
}

func everythingTSScript(ctx context.Context, c *mcpclient.Client) []string {
	var out []string
	res, err := c.Initialize(ctx)
	if err != nil {
		return []string{outcome(nil, err)}
	}
	out = append(out, outcome(struct {
		V string
		S mcpclient.Implementation
		C json.RawMessage
	}{res.ProtocolVersion, res.ServerInfo, res.Capabilities}, nil))
	tools, _, err := c.ListTools(ctx)
	out = append(out, outcome(tools, err))
	for _, call := range []struct{ name, args string }{
		{"echo", `{"message":"hello from replay"}`},
		{"get-sum", `{"a":2,"b":40}`},
		{"get-tiny-image", `{}`},
		{"echo", `{"message":"second echo"}`},
		{"no-such-tool", `{}`},
	} {
		r, _, err := c.CallTool(ctx, call.name, json.RawMessage(call.args))
		out = append(out, outcome(r, err))
	}
	prompts, _, err := c.ListPrompts(ctx)
	out = append(out, outcome(prompts, err))
	return out
}

func everythingGoScript(ctx context.Context, c *mcpclient.Client) []string {
	var out []string
	res, err := c.Initialize(ctx)
	if err != nil {
		return []string{outcome(nil, err)}
	}
	out = append(out, outcome(struct {
		V string
		S mcpclient.Implementation
	}{res.ProtocolVersion, res.ServerInfo}, nil))
	tools, _, err := c.ListTools(ctx)
	out = append(out, outcome(tools, err))
	for _, name := range []string{"test_simple_text", "test_image_content", "test_error_handling", "test_tool_with_progress", "test_tool_with_logging", "test_sampling", "test_multiple_content_types"} {
		args := `{}`
		if name == "test_sampling" {
			args = `{"prompt":"say hi"}`
		}
		r, _, err := c.CallTool(ctx, name, json.RawMessage(args))
		out = append(out, outcome(r, err))
	}
	return out
}

// answerSampling is the recorded client's answer to sampling/createMessage.
func answerSampling(r *mcpclient.ServerRequest) {
	if r.Method == "sampling/createMessage" {
		r.Respond(json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"hi from the test client"},"model":"test-model","stopReason":"endTurn"}`))
		return
	}
	r.Fail(&mcpclient.RPCError{Code: -32601, Message: "not in this test"})
}

type realServer struct {
	name   string
	argv   func(t testing.TB) []string
	script script
	caps   string
	// from/to is a byte change in a tool result, for the "server changed one field" replay,
	// and want the path the diff must name.
	from, to, label, want string
}

var realServers = []realServer{
	{name: "server-everything", argv: testservers.ServerEverything, script: everythingTSScript,
		from: `"Echo: hello from replay"`, to: `"Echo: HELLO from replay"`, label: "tools/call echo", want: "$.result.content[0].text"},
	{name: "go-everything", argv: testservers.GoEverything, script: everythingGoScript, caps: `{"sampling":{}}`,
		from: `"This is a simple text response for testing."`, to: `"This is a changed text response."`, label: "tools/call test_simple_text", want: "$.result.content[0].text"},
}

func (rs realServer) config(t testing.TB) mcpclient.Config {
	argv := rs.argv(t)
	cfg := mcpclient.Config{Command: argv[0], Args: argv[1:], OnServerRequest: answerSampling}
	if rs.caps != "" {
		cfg.Capabilities = json.RawMessage(rs.caps)
	}
	return cfg
}

// TestRealServerRoundTrips records a session against each real server, then: opens it (the
// loaded events equal the live ones, raw bytes included); replays it against the same server
// (no difference); replays it against the server behind a proxy that changes one field (the
// diff names that path, and only it); and serves it with the mock, running the same script
// through mcpclient (identical results).
func TestRealServerRoundTrips(t *testing.T) {
	for _, rs := range realServers {
		t.Run(rs.name, func(t *testing.T) {
			t.Parallel()
			var recorded []string
			s := record(t, rs.config(t), nil, func(ctx context.Context, c *mcpclient.Client) {
				recorded = rs.script(ctx, c)
			})
			if len(recorded) < 3 || strings.Contains(recorded[0], "error:") {
				t.Fatalf("the recorded session failed: %v", recorded)
			}
			evs := checkSame(t, s)
			if rs.caps != "" {
				// The go-sdk session exercises server→client requests and progress.
				var asks, progress int
				for _, ev := range evs {
					if ev.Dir == mcpclient.ServerToClient && ev.Kind == mcpclient.KindRequest {
						asks++
					}
					if ev.Msg != nil && ev.Msg.Method == "notifications/progress" && ev.Pair != 0 {
						progress++
					}
				}
				if asks == 0 || progress == 0 {
					t.Errorf("recorded %d server requests and %d paired progress notifications; want some of each", asks, progress)
				}
			}
			tr := openTrace(t, s.path)

			t.Run("replay-same", func(t *testing.T) {
				rep := replay(t, tr, rs.config(t))
				if !rep.OK() || rep.Same < len(recorded) {
					t.Errorf("replay against the same server: %d same, %d differ\n%s", rep.Same, rep.Differs, reportText(rep))
				}
			})
			t.Run("replay-changed", func(t *testing.T) {
				argv := rs.argv(t)
				cfg := proxyConfig(argv, rs.from, rs.to)
				cfg.OnServerRequest = answerSampling
				if rs.caps != "" {
					cfg.Capabilities = json.RawMessage(rs.caps)
				}
				rep := replay(t, tr, cfg)
				if rep.Differs != 1 {
					t.Fatalf("%d differ, want 1\n%s", rep.Differs, reportText(rep))
				}
				for _, it := range rep.Items {
					if it.Status != trace.StatusDiffers {
						continue
					}
					if it.Label != rs.label || len(it.Diffs) != 1 || it.Diffs[0].Path != rs.want {
						t.Errorf("differing item %+v, want %s at %s", it, rs.label, rs.want)
					}
				}
				text := reportText(rep)
				if !strings.Contains(text, rs.want) || !strings.Contains(text, rs.label) {
					t.Errorf("report does not name the path:\n%s", text)
				}
				t.Logf("replay against the changed server:\n%s", text)
			})
			t.Run("mock", func(t *testing.T) {
				cfg := helperConfig("mock", "RECORDER_TRACE="+s.path)
				cfg.OnServerRequest = answerSampling
				if rs.caps != "" {
					cfg.Capabilities = json.RawMessage(rs.caps)
				}
				var got []string
				record(t, cfg, nil, func(ctx context.Context, c *mcpclient.Client) {
					got = rs.script(ctx, c)
				})
				if !reflect.DeepEqual(got, recorded) {
					for i := range max(len(got), len(recorded)) {
						var a, b string
						if i < len(recorded) {
							a = recorded[i]
						}
						if i < len(got) {
							b = got[i]
						}
						if a != b {
							t.Errorf("step %d:\nrecorded %s\nmock     %s", i, shortText(a), shortText(b))
						}
					}
				}
			})
		})
	}
}

func shortText(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

func replay(t *testing.T, tr *trace.Trace, cfg mcpclient.Config, ignore ...string) *trace.ReplayReport {
	t.Helper()
	cfg.Timeout = 30 * time.Second
	cfg.ShutdownGrace = 500 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	rep, err := trace.Replay(ctx, tr, trace.ReplayOptions{Config: cfg, Ignore: paths(t, ignore...), Grace: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func reportText(rep *trace.ReplayReport) string {
	var b strings.Builder
	rep.WriteText(&b, true)
	return b.String()
}
