package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/oauth"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// newConformanceClientCmd is the client the official conformance suite runs
// (@modelcontextprotocol/conformance; scripts/conformance.sh): the suite appends the
// scenario server's URL and sets MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION
// and, for some scenarios, MCP_CONFORMANCE_CONTEXT. Each scenario does what the suite's
// reference clients do, on one mcpclient session; the exit status is 0 when it ran.
func newConformanceClientCmd() *cobra.Command {
	var trace string
	c := &cobra.Command{
		Use:           "conformance-client URL",
		Short:         "Be the client of one MCP conformance suite scenario (for scripts/conformance.sh)",
		Hidden:        true,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			err := runConformanceClient(cmd.Context(), args[0], trace, cmd.ErrOrStderr())
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "mcp-inspect conformance-client:", err)
				return &codeError{exitProtocol, ""}
			}
			return nil
		},
	}
	c.Flags().StringVar(&trace, "log-events", "", "write every event's direction, kind and raw bytes to `FILE`")
	return c
}

// conformanceContext is MCP_CONFORMANCE_CONTEXT: the tool calls a scenario asks for, and
// a pre-registered OAuth client.
type conformanceContext struct {
	ToolCalls []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"toolCalls"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

// runConformanceClient is the client the official conformance suite runs for a scenario
// (MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION, MCP_CONFORMANCE_CONTEXT):
// it connects to url, lists the tools and does what the scenario asks.
func runConformanceClient(ctx context.Context, url, logFile string, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	version := os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION")
	if version == "" {
		version = mcpclient.LatestProtocolVersion
	}
	var cctx conformanceContext
	if s := os.Getenv("MCP_CONFORMANCE_CONTEXT"); s != "" {
		_ = json.Unmarshal([]byte(s), &cctx)
	}
	cfg := conformanceConfig(url, version, scenario)
	// OAuth as the go-sdk reference client does it: the suite's /authorize approves at once
	// with a 302, so the "browser" follows it to our loopback callback; CIMD where the
	// authorization server supports it, the context's pre-registered client, else DCR.
	az := oauth.New(oauth.Config{
		ServerURL:         url,
		ClientID:          cctx.ClientID,
		ClientSecret:      cctx.ClientSecret,
		ClientMetadataURL: "https://conformance-test.local/client-metadata.json",
		FollowRedirects:   true,
		Notify:            func(msg string) { fmt.Fprintln(stderr, msg) },
	})
	defer az.Close()
	cfg.WrapTransport = az.Wrap
	if logFile != "" {
		f, err := platform.CreatePrivate(logFile, true) // 0600, never through a symlink
		if err != nil {
			return err
		}
		defer f.Close()
		cfg.OnEvent = func(ev mcpclient.Event) {
			fmt.Fprintf(f, "%d %s %s %q\n", ev.Seq, ev.Dir, ev.Kind, ev.Raw)
			if ev.Life != nil {
				fmt.Fprintf(f, "   %s\n", ev.Life.Text)
			}
		}
	}
	c, err := mcpclient.Start(cfg)
	if err != nil {
		return err
	}
	defer c.Close()
	go func() {
		for range c.Events() {
		}
	}()
	if _, err := c.Connect(ctx); err != nil {
		return err
	}
	tools, _, err := c.ListTools(ctx)
	if err != nil {
		return err
	}
	// A tool with invalid x-mcp-header annotations is dropped (MCP 2026-07-28).
	var valid []mcpclient.Tool
	for _, t := range tools {
		if err := mcpclient.ValidateHeaderAnnotations(t.InputSchema); err != nil {
			fmt.Fprintf(stderr, "dropping tool %s: %v\n", t.Name, err)
			continue
		}
		valid = append(valid, t)
	}
	return conformanceScenario{ctx: ctx, c: c, name: scenario, cctx: &cctx, tools: valid, stderr: stderr}.run()
}

// conformanceConfig is the client's configuration for a scenario: HTTP, the era the
// protocol version belongs to, form elicitation answered with the requested schema's
// defaults (or the scenario's own answer), every other server request -32601.
func conformanceConfig(url, version, scenario string) mcpclient.Config {
	cfg := mcpclient.Config{
		URL:             url,
		Transport:       mcpclient.TransportHTTP,
		ProtocolVersion: version,
		ClientInfo:      mcpclient.Implementation{Name: "mcp-inspect", Version: Version()},
		Timeout:         20 * time.Second,
		Era:             mcpclient.EraLegacy,
		Capabilities:    json.RawMessage(`{"elicitation":{"form":{}}}`),
	}
	if version >= mcpclient.ModernProtocolVersion {
		cfg.Era = mcpclient.EraModern
	}
	elicitContent := func(params json.RawMessage) json.RawMessage {
		if scenario == "sep-2322-client-request-state" {
			return json.RawMessage(`{"confirmed":true}`)
		}
		return schemaDefaults(params)
	}
	cfg.OnServerRequest = func(r *mcpclient.ServerRequest) {
		if r.Method == "elicitation/create" {
			res, _ := json.Marshal(map[string]any{"action": "accept", "content": elicitContent(r.Params)})
			_ = r.Respond(res)
			return
		}
		_ = r.Fail(&mcpclient.RPCError{Code: -32601, Message: "mcp-inspect conformance-client does not handle " + r.Method})
	}
	return cfg
}

// conformanceScenario is one scenario's run on a connected client with its listed tools.
type conformanceScenario struct {
	ctx    context.Context
	c      *mcpclient.Client
	name   string
	cctx   *conformanceContext
	tools  []mcpclient.Tool
	stderr io.Writer
}

func (s conformanceScenario) call(name string, args json.RawMessage) error {
	_, _, err := session.CallTool(s.ctx, s.c, name, args, session.FollowOptions{})
	return err
}

// run does what the scenario asks of the client.
func (s conformanceScenario) run() error {
	ctx, c, stderr := s.ctx, s.c, s.stderr
	switch {
	case s.name == "tools_call":
		return s.call("add_numbers", json.RawMessage(`{"a":5,"b":3}`))
	case s.name == "elicitation-sep1034-client-defaults":
		return s.call("test_client_elicitation_defaults", json.RawMessage(`{}`))
	case s.name == "sse-retry":
		return s.call("test_reconnection", json.RawMessage(`{}`))
	case s.name == "json-schema-2020-12-preservation":
		for _, t := range s.tools {
			if t.Name == "json_schema_2020_12_tool" {
				args, _ := json.Marshal(map[string]json.RawMessage{"schema": t.InputSchema})
				return s.call("json_schema_echo", args)
			}
		}
		return errors.New("json_schema_2020_12_tool not listed")
	case s.name == "sep-2322-client-request-state":
		for _, name := range []string{"test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"} {
			if err := s.call(name, json.RawMessage(`{}`)); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", name, err)
			}
		}
	case s.name == "http-standard-headers":
		if len(s.tools) > 0 {
			_ = s.call(s.tools[0].Name, json.RawMessage(`{}`))
		}
		if res, _, err := c.ListResources(ctx); err == nil && len(res) > 0 {
			_, _, _ = c.ReadResource(ctx, res[0].URI)
		}
		if ps, _, err := c.ListPrompts(ctx); err == nil && len(ps) > 0 {
			_, _, _ = c.GetPrompt(ctx, ps[0].Name, map[string]string{})
		}
	case s.name == "http-custom-headers":
		for _, tc := range s.cctx.ToolCalls {
			if err := s.call(tc.Name, tc.Arguments); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", tc.Name, err)
			}
		}
	case s.name == "http-invalid-tool-headers":
		for _, t := range s.tools {
			if err := s.call(t.Name, json.RawMessage(`{"region":"us-west1"}`)); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", t.Name, err)
			}
		}
	case strings.HasPrefix(s.name, "auth/"):
		for _, t := range s.tools {
			if t.Name == "test-tool" {
				return s.call("test-tool", json.RawMessage(`{}`))
			}
		}
	}
	return nil
}

// schemaDefaults builds an elicitation answer from the defaults of the requested schema's
// properties (SEP-1034: a client fills the defaults the user did not change).
func schemaDefaults(params json.RawMessage) json.RawMessage {
	var p struct {
		RequestedSchema struct {
			Properties map[string]struct {
				Default json.RawMessage `json:"default"`
			} `json:"properties"`
		} `json:"requestedSchema"`
	}
	out := map[string]json.RawMessage{}
	if json.Unmarshal(params, &p) == nil {
		for k, v := range p.RequestedSchema.Properties {
			if v.Default != nil {
				out[k] = v.Default
			}
		}
	}
	b, _ := json.Marshal(out)
	return b
}
