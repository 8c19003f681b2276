package mcpclient_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// These run the client against real servers nobody here wrote; CI installs both (.ci/run).

func startReal(t *testing.T, argv []string) *mcpclient.Client {
	t.Helper()
	c, err := mcpclient.Start(mcpclient.Config{Command: argv[0], Args: argv[1:], Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for ev := range c.Events() {
			for _, p := range ev.Problems {
				if p.Severity == mcpclient.Warning {
					t.Errorf("protocol problem on a clean server: seq %d %s: %s (%q)", ev.Seq, p.Code, p.Text, ev.Raw)
				}
			}
		}
	}()
	t.Cleanup(func() { c.Close() })
	return c
}

func textOf(r *mcpclient.CallToolResult) string {
	var parts []string
	for _, b := range r.Content {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

func TestServerEverything(t *testing.T) {
	c := startReal(t, testservers.ServerEverything(t))
	ctx := context.Background()
	res, err := c.Initialize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != "mcp-servers/everything" || res.ProtocolVersion != mcpclient.LatestProtocolVersion {
		t.Fatalf("initialize: %+v", res)
	}
	tools, warns, err := c.ListTools(ctx)
	if err != nil || len(warns) != 0 {
		t.Fatalf("tools/list: %v %v", err, warns)
	}
	names := map[string]mcpclient.Tool{}
	for _, tl := range tools {
		names[tl.Name] = tl
	}
	for _, want := range []string{"echo", "get-sum", "get-tiny-image", "trigger-long-running-operation"} {
		if _, ok := names[want]; !ok {
			t.Errorf("tool %q missing from %d tools", want, len(tools))
		}
	}
	out, _, err := c.CallTool(ctx, "echo", json.RawMessage(`{"message":"hello from mcp-inspect"}`))
	if err != nil || out.IsError || !strings.Contains(textOf(out), "hello from mcp-inspect") {
		t.Fatalf("echo: %+v %v", out, err)
	}
	out, _, err = c.CallTool(ctx, "get-sum", json.RawMessage(`{"a":2,"b":40}`))
	if err != nil || !strings.Contains(textOf(out), "42") {
		t.Fatalf("get-sum: %+v %v", out, err)
	}
	out, _, err = c.CallTool(ctx, "get-tiny-image", nil)
	if err != nil {
		t.Fatal(err)
	}
	var sawImage bool
	for _, b := range out.Content {
		sawImage = sawImage || (b.Type == "image" && b.MimeType == "image/png" && b.Data != "")
	}
	if !sawImage {
		t.Errorf("get-tiny-image returned no image block: %+v", out.Content)
	}
}

func TestGoEverythingServer(t *testing.T) {
	c := startReal(t, testservers.GoEverything(t))
	ctx := context.Background()
	res, err := c.Initialize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.ProtocolVersion != mcpclient.LatestProtocolVersion || res.Caps.Tools == nil {
		t.Fatalf("initialize: %+v", res)
	}
	tools, _, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, tl := range tools {
		found = found || tl.Name == "test_simple_text"
	}
	if !found {
		t.Fatalf("test_simple_text missing from %d tools", len(tools))
	}
	out, resp, err := c.CallTool(ctx, "test_simple_text", json.RawMessage(`{}`))
	if err != nil || out.IsError || textOf(out) == "" {
		t.Fatalf("test_simple_text: %+v %v", out, err)
	}
	if resp.Elapsed <= 0 || resp.RequestSeq == 0 || resp.Seq <= resp.RequestSeq {
		t.Errorf("response bookkeeping: %+v", resp)
	}
	out, _, err = c.CallTool(ctx, "test_error_handling", json.RawMessage(`{}`))
	if err != nil || !out.IsError {
		t.Errorf("test_error_handling should be an isError result: %+v %v", out, err)
	}
}
