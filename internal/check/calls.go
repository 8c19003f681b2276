package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// calls makes the tool calls asked for: --call, then --call-read-only's.
func (r *run) calls(ctx context.Context) {
	if !r.active("tool-call") {
		return
	}
	calls := append([]Call(nil), r.opt.Calls...)
	if r.opt.CallReadOnly {
		for _, item := range r.tools {
			var t mcpclient.Tool
			if json.Unmarshal(item, &t) != nil || t.Annotations == nil || t.Annotations.ReadOnlyHint == nil || !*t.Annotations.ReadOnlyHint {
				continue
			}
			calls = append(calls, Call{Tool: t.Name, Args: Example(t.InputSchema)})
		}
	}
	if len(calls) == 0 {
		why := "no --call given"
		if r.opt.CallReadOnly {
			why = "no tool is annotated readOnlyHint: true"
		}
		r.na("tool-call", why+" (tools are called only when asked)")
		return
	}
	for _, c := range calls {
		if ctx.Err() != nil {
			return
		}
		r.call(ctx, c)
	}
}

// call makes one call and checks its result.
func (r *run) call(ctx context.Context, c Call) {
	args := c.Args
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	what := fmt.Sprintf("tools/call %s %s", c.Tool, clip(string(args)))
	if r.tools != nil && !r.listsTool(c.Tool) {
		// Most likely a typo in --call: say so rather than pass on the server's isError.
		r.find("tool-call", Should, nil, "--call %s: no tool of that name is listed (a typo?); called anyway", c.Tool)
	}
	x := r.main.request(ctx, "tools/call", mcpclient.CallToolParams(c.Tool, args), r.opt.Server.Timeout)
	if rpc := x.rpcErr(); rpc != nil {
		r.find("tool-call", Should, x.events, "%s: error %d %q (a protocol error, not a tool result)", what, rpc.Code, rpc.Message)
		return
	}
	if x.err != nil {
		r.find("tool-call", Must, x.events, "%s: %v", what, x.err)
		return
	}
	result := x.result()
	var res map[string]json.RawMessage
	if json.Unmarshal(result, &res) != nil {
		r.find("tool-call", Must, x.events, "%s: the result is not an object", what)
		return
	}
	if string(res["resultType"]) == `"task"` {
		// A task (ext-tasks): right only when the request declared the extension; then it
		// is followed to its end (the one task follower, session.AwaitTask) and its inline
		// result is checked as a plain one.
		if r.init == nil || r.init.Era != mcpclient.EraModern || !r.main.client.DeclaresTasks() {
			r.find("tool-call", Must, x.events, "%s: answered with a task (resultType \"task\") though the request did not declare the tasks extension", what)
			return
		}
		var ok bool
		if result, ok = r.followTask(ctx, what, x); !ok || json.Unmarshal(result, &res) != nil {
			return
		}
	}
	var blocks []map[string]json.RawMessage
	if !isKind(res["content"], "array") || json.Unmarshal(res["content"], &blocks) != nil {
		r.find("tool-call", Must, x.events, "%s: content is missing or not an array of objects", what)
	}
	for i, b := range blocks {
		if msg := blockProblem(b); msg != "" {
			r.find("tool-call", Must, x.events, "%s: content[%d] %s", what, i, msg)
		}
	}
	if v, ok := res["isError"]; ok && !isKind(v, "boolean") {
		r.find("tool-call", Must, x.events, "%s: isError is %s, not a boolean", what, clip(string(v)))
	}
	var decoded mcpclient.CallToolResult
	if json.Unmarshal(result, &decoded) == nil {
		if r.init == nil || mcpclient.HasOutputSchema(r.init.ProtocolVersion) {
			for _, f := range findings.CheckOutput(r.outputSchema(c.Tool), &decoded).Findings(c.Tool) {
				r.find("tool-call", f.Level(), x.events, "%s", f.String())
			}
		}
	}
	state := "a result"
	if decoded.IsError {
		state = "isError: true (a tool error; the arguments may not suit it)"
	}
	r.note("tool-call", x.events, "%s: %s, %s", what, state, jsontext.Count(len(blocks), "content block", "content blocks"))
}

// outputSchema is the listed tool's outputSchema, nil when none.
func (r *run) outputSchema(tool string) json.RawMessage {
	for _, item := range r.tools {
		m, _ := members(item)
		if str(m, "name") == tool {
			return m["outputSchema"]
		}
	}
	return nil
}

// blockProblem says what a content block lacks for its type (MCP 2025-11-25 schema.ts
// ContentBlock), "" when it is well formed or of a type this check does not know.
func blockProblem(b map[string]json.RawMessage) string {
	var t string
	if json.Unmarshal(b["type"], &t) != nil {
		return "has no type"
	}
	var need []string
	switch t {
	case "text":
		need = []string{"text"}
	case "image", "audio":
		need = []string{"data", "mimeType"}
	case "resource_link":
		need = []string{"uri", "name"}
	case "resource":
		if !isKind(b["resource"], "object") {
			return "(resource) has no resource object"
		}
	}
	for _, k := range need {
		if !isKind(b[k], "string") {
			return fmt.Sprintf("(%s) has no %s string", t, k)
		}
	}
	return ""
}

// Example builds arguments for a tool from its inputSchema: every required property with
// its default, first example, const or first enum value, else a plain value of its type
// ("example", 1, true, [], an object built the same way). A schema it cannot read gives {}.
func Example(schema json.RawMessage) json.RawMessage {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil {
		return json.RawMessage(`{}`)
	}
	v := exampleObject(s, 0)
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

func exampleObject(s map[string]any, depth int) map[string]any {
	out := map[string]any{}
	props, _ := s["properties"].(map[string]any)
	req, _ := s["required"].([]any)
	for _, r := range req {
		name, _ := r.(string)
		ps, _ := props[name].(map[string]any)
		out[name] = exampleValue(ps, depth+1)
	}
	return out
}

func exampleValue(s map[string]any, depth int) any {
	if s == nil || depth > 8 {
		return "example"
	}
	if v, ok := s["default"]; ok {
		return v
	}
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	if v, ok := s["const"]; ok {
		return v
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	t := s["type"]
	if ts, ok := t.([]any); ok && len(ts) > 0 {
		t = ts[0]
	}
	switch t {
	case "integer", "number":
		if m, ok := s["minimum"].(float64); ok {
			return m
		}
		return 1
	case "boolean":
		return true
	case "array":
		items, _ := s["items"].(map[string]any)
		if n, ok := s["minItems"].(float64); ok && n > 0 {
			return []any{exampleValue(items, depth+1)}
		}
		return []any{}
	case "object":
		return exampleObject(s, depth)
	case "null":
		return nil
	}
	return "example"
}

// listsTool reports whether tools/list listed a tool named name.
func (r *run) listsTool(name string) bool {
	for _, item := range r.tools {
		var t struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(item, &t) == nil && t.Name == name {
			return true
		}
	}
	return false
}

// followTask follows the task a tools/call was answered with (x) to its end and returns its
// inline result; false when there is none to check (the task failed, was cancelled, or was
// given up on: each said as a finding).
func (r *run) followTask(ctx context.Context, what string, x exchange) (json.RawMessage, bool) {
	t, ok, err := mcpclient.ParseCreateTask(x.result())
	if !ok || err != nil {
		r.find("tool-call", Must, x.events, "%s: a malformed CreateTaskResult: %v", what, err)
		return nil, false
	}
	end, err := session.AwaitTask(ctx, r.main.client, t, x.resp, session.FollowOptions{})
	var in *session.TaskInputError
	switch {
	case errors.As(err, &in):
		r.find("tool-call", Should, x.events, "%s: task %s asked for %s (input %q), a capability check does not declare: a server asks only for what the client declared (MCP 2025-11-25 basic/lifecycle §Capability Negotiation); the task's result is not checked", what, t.TaskID, in.Method, in.Key)
		return nil, false
	case err != nil:
		r.find("tool-call", Must, x.events, "%s: task %s did not end: %v", what, t.TaskID, err)
		return nil, false
	}
	result, err := end.Outcome()
	var rpc *mcpclient.RPCError
	switch {
	case errors.As(err, &rpc):
		r.find("tool-call", Should, x.events, "%s: task %s ended %s with error %d %q (a protocol error, not a tool result)", what, t.TaskID, end.Status, rpc.Code, rpc.Message)
		return nil, false
	case err != nil:
		r.note("tool-call", x.events, "%s: task %s ended %s: %v", what, t.TaskID, end.Status, err)
		return nil, false
	}
	r.note("tool-call", x.events, "%s: ran as task %s (the tasks extension the request declared), followed to %s; its result is checked below", what, t.TaskID, end.Status)
	return result, true
}
