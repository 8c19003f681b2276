package cmd

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/media"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// newCallCmd is `mcp-inspect call TOOL`.
func newCallCmd() *cobra.Command {
	var flags headlessFlags
	var af argFlags
	c := headlessCommand(&flags, headlessUsage{
		use:   "call TOOL [flags] (-- COMMAND [ARGS...] | URL)",
		short: "Call one tool and print its result",
		long: `call sends tools/call for TOOL once and prints the result: text content as text, other
blocks summarized, structuredContent as JSON. With --json the result is printed exactly as
received. A result with isError: true exits 1.

Arguments: --args '{"a":1}' (or --args @file.json, --args @- for stdin) is sent exactly as
written. -a KEY=VALUE sets one argument, converted by the tool's inputSchema the way the TUI's
form converts what is typed (the tool list is fetched first for this): a number or integer
field gets a number, a boolean field true/false, an object, array or untyped field parses
the value as JSON, a string field keeps the text as it is ("007" stays "007"). An enum value
is matched by its value or title. KEY:=JSON sends JSON as written, whatever the schema says.
-a goes over --args. Schema findings are warnings; the arguments are sent anyway.
`,
		example: `  mcp-inspect call echo -a message=hello -- npx -y @modelcontextprotocol/server-everything
  mcp-inspect call get-sum -a a=2 -a b=3 --json -- node dist/index.js
  mcp-inspect call search --args @query.json --config .vscode/mcp.json --server docs`,
	}, 1, "a TOOL name", func(cmd *cobra.Command, own, argv []string) error {
		tool := own[0]
		base, pairs, err := readArgs(cmd, &af)
		if err != nil {
			return err
		}
		h := newHeadless(cmd, &flags, "tools/call")
		return h.run(cmd.Context(), argv, func(ctx context.Context, h *headless) (*outcome, error) {
			arguments, err := h.toolArgs(ctx, tool, base, pairs)
			if err != nil {
				return nil, err
			}
			res, resp, err := session.CallTool(ctx, h.client, tool, arguments, h.followOptions())
			out := outcomeOf(resp)
			if err != nil {
				return out, err
			}
			h.checkCallResult(ctx, tool, res)
			if res.IsError {
				out.code = exitToolError
				fmt.Fprintf(h.stderr, "mcp-inspect: tool %s returned an error result (isError)\n", stderrSafe(h.stderr)(tool))
			}
			if !h.flags.json {
				// Not kept for --json: the decoded text would be a second copy of a big result.
				out.human = func(w io.Writer, safe func(string) string) { humanCallResult(w, safe, res) }
			}
			return out, nil
		})
	})
	af.register(c.Flags(), true)
	return c
}

// readArgs reads --args and -a before the server starts (so a typo costs no spawn).
func readArgs(cmd *cobra.Command, af *argFlags) (json.RawMessage, []pair, error) {
	base, err := af.base(cmd.InOrStdin())
	if err != nil {
		return nil, nil, &codeError{exitUsage, err.Error()}
	}
	pairs, err := af.parsePairs()
	if err != nil {
		return nil, nil, &codeError{exitUsage, err.Error()}
	}
	return base, pairs, nil
}

// toolArgs builds a call's arguments; with -a it first lists the tools for the schema.
func (h *headless) toolArgs(ctx context.Context, tool string, base json.RawMessage, pairs []pair) (json.RawMessage, error) {
	if len(pairs) == 0 && len(base) == 0 {
		// An object schema's arguments are an object, {} when none are given (as the
		// TUI sends them): never left out, which some servers refuse.
		return json.RawMessage(`{}`), nil
	}
	// --args alone is sent as given, but checked against the inputSchema first as the
	// TUI's form checks it (a union whose discriminator the value misses, a required
	// property left out): the warnings say why a server refuses it.
	tools, warnings, err := h.client.ListTools(ctx)
	if err != nil && ctx.Err() != nil {
		return nil, err // interrupted: no call to make
	}
	for _, w := range warnings {
		h.warn("%s", w)
	}
	if err == nil {
		h.tools = tools
	}
	var schema json.RawMessage
	found := false
	for _, t := range tools {
		if t.Name == tool {
			schema, found = t.InputSchema, true
			break
		}
	}
	switch {
	case err != nil:
		// The schema is unknown, not the call wrong: send it as for an unlisted tool.
		h.warn("tools/list failed (%v), so the inputSchema of %q is unknown; -a values are sent as JSON when they parse, else as strings", err, tool)
	case !found:
		h.warn("tool %q is not in tools/list; -a values are sent as JSON when they parse, else as strings", tool)
	}
	args, problems, err := toolArguments(base, pairs, schema)
	for _, p := range problems {
		h.warn("arguments: %s", p)
	}
	return args, err
}

// humanCallResult prints a CallToolResult for people.
func humanCallResult(w io.Writer, safe func(string) string, res *mcpclient.CallToolResult) {
	for _, b := range res.Content {
		humanBlock(w, safe, b)
	}
	if len(res.StructuredContent) > 0 {
		if len(res.Content) > 0 {
			fmt.Fprintln(w, "structuredContent:")
		}
		fmt.Fprintln(w, safe(jsontext.Pretty(res.StructuredContent)))
	}
}

// humanBlock prints one content block: text as it is, binary data as a summary line.
func humanBlock(w io.Writer, safe func(string) string, b mcpclient.ContentBlock) {
	switch b.Type {
	case "text":
		writeText(w, safe, b.Text)
	case "image", "audio":
		fmt.Fprintf(w, "[%s %s]\n", b.Type, safe(media.Describe(b.Type, b.MimeType, b.Data).Summary()))
	case "resource_link":
		fmt.Fprintf(w, "[resource link %s", safe(b.URI))
		if b.Name != "" {
			fmt.Fprintf(w, " %q", safe(b.Name))
		}
		fmt.Fprintln(w, "]")
	case "resource":
		if b.Resource == nil {
			fmt.Fprintln(w, safe(string(b.Raw)))
			return
		}
		humanContents(w, safe, *b.Resource)
	default:
		fmt.Fprintln(w, safe(jsontext.Pretty(b.Raw)))
	}
}

// humanContents prints resource contents: text as it is, a blob as a summary line.
func humanContents(w io.Writer, safe func(string) string, c mcpclient.ResourceContents) {
	if c.Blob != "" {
		fmt.Fprintf(w, "[blob %s %s, %s]\n", safe(c.URI), safe(c.MimeType), sizeOfBase64(c.Blob))
		return
	}
	writeText(w, safe, c.Text)
}

func writeText(w io.Writer, safe func(string) string, s string) {
	io.WriteString(w, safe(s))
	if !strings.HasSuffix(s, "\n") {
		io.WriteString(w, "\n")
	}
}

// sizeOfBase64 says how many bytes base64 data decodes to.
func sizeOfBase64(data string) string {
	n := base64.StdEncoding.DecodedLen(len(data)) - strings.Count(data[max(0, len(data)-2):], "=")
	if _, err := base64.StdEncoding.DecodeString(data); err != nil {
		return fmt.Sprintf("%d characters of invalid base64", len(data))
	}
	return fmt.Sprintf("%d bytes", n)
}

// newReadCmd is `mcp-inspect read URI`.
func newReadCmd() *cobra.Command {
	var flags headlessFlags
	c := headlessCommand(&flags, headlessUsage{
		use:   "read URI [flags] (-- COMMAND [ARGS...] | URL)",
		short: "Read one resource and print its contents",
		long: `read sends resources/read for URI once and prints the contents: text as it is, a blob as a
summary line (--json has the base64 data as received).
`,
		example: `  mcp-inspect read test://static/resource/1 -- npx -y @modelcontextprotocol/server-everything`,
	}, 1, "a resource URI", func(cmd *cobra.Command, own, argv []string) error {
		h := newHeadless(cmd, &flags, "resources/read")
		return h.run(cmd.Context(), argv, func(ctx context.Context, h *headless) (*outcome, error) {
			res, resp, err := h.client.ReadResource(ctx, own[0])
			out := outcomeOf(resp)
			if err != nil {
				return out, err
			}
			if !h.flags.json {
				out.human = func(w io.Writer, safe func(string) string) {
					for _, c := range res.Contents {
						humanContents(w, safe, c)
					}
				}
			}
			return out, nil
		})
	})
	return c
}

// newPromptCmd is `mcp-inspect prompt NAME`.
func newPromptCmd() *cobra.Command {
	var flags headlessFlags
	var af argFlags
	c := headlessCommand(&flags, headlessUsage{
		use:   "prompt NAME [flags] (-- COMMAND [ARGS...] | URL)",
		short: "Get one prompt and print its messages",
		long: `prompt sends prompts/get for NAME once and prints its messages, each under its role.
Arguments: -a KEY=VALUE (prompt arguments are strings; KEY:=JSON sends JSON as written) over
--args '{"k":"v"}' (or @file.json, @- for stdin).
`,
		example: `  mcp-inspect prompt complex_prompt -a temperature=0.7 -a style=terse -- node dist/index.js`,
	}, 1, "a prompt NAME", func(cmd *cobra.Command, own, argv []string) error {
		base, pairs, err := readArgs(cmd, &af)
		if err != nil {
			return err
		}
		arguments, err := stringArgs(base, pairs)
		if err != nil {
			return &codeError{exitUsage, err.Error()}
		}
		h := newHeadless(cmd, &flags, "prompts/get")
		return h.run(cmd.Context(), argv, func(ctx context.Context, h *headless) (*outcome, error) {
			params := struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments,omitempty"`
			}{own[0], arguments}
			resp, err := h.client.Request(ctx, "prompts/get", params, nil)
			out := outcomeOf(resp)
			if err != nil {
				return out, err
			}
			var res mcpclient.GetPromptResult
			if err := json.Unmarshal(resp.Msg.Result, &res); err != nil {
				return out, fmt.Errorf("prompts/get result is not a GetPromptResult: %w", err)
			}
			out.human = func(w io.Writer, safe func(string) string) {
				if res.Description != "" {
					fmt.Fprintf(w, "# %s\n", safe(jsontext.FirstLine(res.Description)))
				}
				for _, m := range res.Messages {
					fmt.Fprintf(w, "[%s]\n", safe(m.Role))
					humanBlock(w, safe, m.Content)
				}
			}
			return out, nil
		})
	})
	af.register(c.Flags(), false)
	return c
}

// newCompleteCmd is `mcp-inspect complete`.
func newCompleteCmd() *cobra.Command {
	var flags headlessFlags
	var prompt, template, arg, value string
	var ctxPairs []string
	c := headlessCommand(&flags, headlessUsage{
		use:   "complete (--prompt NAME | --template URI_TEMPLATE) --arg NAME [--value TEXT] [flags] (-- COMMAND [ARGS...] | URL)",
		short: "Ask the server to complete one argument of a prompt or resource template",
		long: `complete sends completion/complete once, for argument --arg of prompt --prompt or of
resource template --template, with --value typed so far and --context KEY=VALUE for the other
arguments already filled, and prints the values one per line.
`,
		example: `  mcp-inspect complete --prompt complex_prompt --arg style --value t -- node dist/index.js`,
	}, 0, "", func(cmd *cobra.Command, _, argv []string) error {
		var ref mcpclient.CompletionRef
		switch {
		case prompt != "" && template == "":
			ref = mcpclient.CompletionRef{Type: "ref/prompt", Name: prompt}
		case template != "" && prompt == "":
			ref = mcpclient.CompletionRef{Type: "ref/resource", URI: template}
		default:
			return &codeError{exitUsage, "complete needs exactly one of --prompt NAME and --template URI_TEMPLATE"}
		}
		if arg == "" {
			return &codeError{exitUsage, "complete needs --arg NAME"}
		}
		ctxArgs := map[string]string{}
		for _, kv := range ctxPairs {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return &codeError{exitUsage, fmt.Sprintf("--context %q: want KEY=VALUE", kv)}
			}
			ctxArgs[k] = v
		}
		h := newHeadless(cmd, &flags, "completion/complete")
		return h.run(cmd.Context(), argv, func(ctx context.Context, h *headless) (*outcome, error) {
			params := map[string]any{"ref": ref, "argument": map[string]string{"name": arg, "value": value}}
			if len(ctxArgs) > 0 {
				params["context"] = map[string]any{"arguments": ctxArgs}
			}
			resp, err := h.client.Request(ctx, "completion/complete", params, &mcpclient.RequestOptions{NoProgressToken: true})
			out := outcomeOf(resp)
			if err != nil {
				return out, err
			}
			var res struct {
				Completion mcpclient.Completion `json:"completion"`
			}
			if err := json.Unmarshal(resp.Msg.Result, &res); err != nil {
				return out, fmt.Errorf("completion/complete result: %w", err)
			}
			if res.Completion.HasMore {
				total := "more"
				if res.Completion.Total != nil {
					total = fmt.Sprintf("%d in all", *res.Completion.Total)
				}
				h.warn("the server has %s values than the %d it sent (hasMore)", total, len(res.Completion.Values))
			}
			out.human = func(w io.Writer, safe func(string) string) {
				for _, v := range res.Completion.Values {
					fmt.Fprintln(w, safe(v))
				}
			}
			return out, nil
		})
	})
	c.Flags().StringVar(&prompt, "prompt", "", "complete an argument of the prompt `NAME`")
	c.Flags().StringVar(&template, "template", "", "complete a variable of the resource template `URI_TEMPLATE`")
	c.Flags().StringVar(&arg, "arg", "", "the argument (or template variable) `NAME` to complete")
	c.Flags().StringVar(&value, "value", "", "what is typed so far")
	c.Flags().StringArrayVar(&ctxPairs, "context", nil, "another argument already filled, as `KEY=VALUE` (repeatable)")
	return c
}

// newPingCmd is `mcp-inspect ping`.
func newPingCmd() *cobra.Command {
	var flags headlessFlags
	c := headlessCommand(&flags, headlessUsage{
		use:   "ping [flags] (-- COMMAND [ARGS...] | URL)",
		short: "Start the server, handshake, send one ping and print the round trip",
		long: `ping starts the server, runs the handshake, sends ping once and prints its round-trip
time: a health check for CI. Legacy era only: the 2026-07-28 revision has no ping (use
discover there).
`,
		example: `  mcp-inspect ping -q -- ./my-server && echo healthy`,
	}, 0, "", func(cmd *cobra.Command, _, argv []string) error {
		h := newHeadless(cmd, &flags, "ping")
		return h.run(cmd.Context(), argv, func(ctx context.Context, h *headless) (*outcome, error) {
			if h.client.Era() == mcpclient.EraModern {
				return nil, usageErr("ping does not exist in the modern era (MCP 2026-07-28 removed it); use discover")
			}
			resp, err := h.client.Request(ctx, "ping", nil, &mcpclient.RequestOptions{NoProgressToken: true})
			out := outcomeOf(resp)
			if err != nil {
				return out, err
			}
			out.human = func(w io.Writer, _ func(string) string) {
				fmt.Fprintf(w, "pong from %s in %.3f ms\n", serverLabel(h.init), ms(resp.Elapsed))
			}
			return out, nil
		})
	})
	return c
}

func serverLabel(init *mcpclient.InitializeResult) string {
	if init == nil || init.ServerInfo.Name == "" {
		return "the server"
	}
	return strings.TrimSpace(init.ServerInfo.Name + " " + init.ServerInfo.Version)
}

// newDiscoverCmd is `mcp-inspect discover`.
func newDiscoverCmd() *cobra.Command {
	var flags headlessFlags
	c := headlessCommand(&flags, headlessUsage{
		use:   "discover [flags] (-- COMMAND [ARGS...] | URL)",
		short: "Send server/discover (MCP 2026-07-28) and print what the server offers",
		long: `discover connects in the modern era (server/discover, MCP 2026-07-28) and prints the
server's identity, supported protocol versions, capabilities and instructions. --json has the
DiscoverResult as received. A legacy-only server answers with an error (exit 4); --era auto
falls back to initialize and prints the InitializeResult instead.
`,
		example: `  mcp-inspect discover --json -- ./everything-server`,
	}, 0, "", func(cmd *cobra.Command, _, argv []string) error {
		switch {
		case !cmd.Flags().Changed("era"):
			flags.session.era = string(mcpclient.EraModern)
		case flags.session.era == string(mcpclient.EraLegacy):
			return &codeError{exitUsage, "discover is the modern era's handshake: use --era modern (the default here) or auto"}
		}
		method := "server/discover"
		h := newHeadless(cmd, &flags, method)
		return h.run(cmd.Context(), argv, func(ctx context.Context, h *headless) (*outcome, error) {
			if h.init.Era != mcpclient.EraModern {
				h.doc.Method = "initialize"
			}
			out := &outcome{result: h.drain.handshakeResult()}
			init := h.init
			out.human = func(w io.Writer, safe func(string) string) { humanDiscover(w, safe, init) }
			return out, nil
		})
	})
	return c
}

func humanDiscover(w io.Writer, safe func(string) string, init *mcpclient.InitializeResult) {
	fmt.Fprintf(w, "server:    %s\n", safe(serverLabel(init)))
	fmt.Fprintf(w, "era:       %s\n", init.Era)
	fmt.Fprintf(w, "protocol:  %s", safe(init.ProtocolVersion))
	if init.Requested != "" && init.Requested != init.ProtocolVersion {
		fmt.Fprintf(w, " (requested %s)", safe(init.Requested))
	}
	if init.Discover != nil {
		fmt.Fprintf(w, " (supported: %s)", safe(strings.Join(init.Discover.SupportedVersions, ", ")))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "capabilities:\n%s\n", indent(safe(jsontext.Pretty(init.Capabilities)), "  "))
	if init.Instructions != "" {
		fmt.Fprintf(w, "instructions:\n%s\n", indent(safe(init.Instructions), "  "))
	}
}

func indent(s, pre string) string {
	return pre + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pre)
}

// outcomeOf starts an outcome with the result as received, when a response came back at all.
func outcomeOf(resp *mcpclient.Response) *outcome {
	out := &outcome{}
	if resp != nil && resp.Msg != nil {
		out.result = resp.Msg.Result
	}
	return out
}
