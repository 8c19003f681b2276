package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Initialize runs the legacy-era handshake (MCP 2025-11-25 basic/lifecycle): initialize with
// Config.ProtocolVersion, capabilities and clientInfo, then notifications/initialized. A server
// answering a version we do not know is accepted with a warning in the result (and a
// lifecycle note), since a debugger should keep going. If the server exits first, the
// *ExitError says how, at once (case B09).
func (c *Client) Initialize(ctx context.Context) (*InitializeResult, error) {
	params := struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      Implementation  `json:"clientInfo"`
	}{c.cfg.ProtocolVersion, c.cfg.Capabilities, c.cfg.ClientInfo}
	resp, err := c.Request(ctx, "initialize", params, &RequestOptions{NoProgressToken: true})
	if err != nil {
		c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeHandshakeFailed, PID: c.pid, Err: err, Text: "initialize failed: " + err.Error()}})
		return nil, err
	}
	decoded, err := DecodeInitializeResult(resp.Msg.Result)
	if err != nil {
		c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeHandshakeFailed, PID: c.pid, Err: err, Text: err.Error()}})
		return nil, err
	}
	res := *decoded
	res.Requested = c.cfg.ProtocolVersion
	switch {
	case res.ProtocolVersion == "":
		// DecodeInitializeResult warned.
	case !KnownProtocolVersion(res.ProtocolVersion):
		then := "continuing as " + c.cfg.ProtocolVersion
		if c.cfg.Strict {
			then = "--strict stops here"
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("server answered protocol version %q, which mcp-inspect does not know; %s", res.ProtocolVersion, then))
	case res.ProtocolVersion != c.cfg.ProtocolVersion:
		res.Notes = append(res.Notes, VersionNote(res.ProtocolVersion, c.cfg.ProtocolVersion))
	}
	violation := versionProblem(&res)
	for _, w := range res.Warnings {
		ev := Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, PID: c.pid, Text: w}}
		if violation != nil && w == violation.Text {
			// Counted and filterable like any violation, so it cannot be missed.
			ev.Problems = []Problem{*violation}
		}
		c.emit(ev)
	}
	for _, n := range res.Notes {
		c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, PID: c.pid, Text: n}})
	}
	if violation != nil && c.cfg.Strict {
		return nil, c.stopStrict(resp.Seq, *violation)
	}
	if err := c.Notify("notifications/initialized", nil); err != nil {
		return &res, err
	}
	c.mu.Lock()
	if c.state == StateStarting {
		c.state = StateReady
	}
	c.mu.Unlock()
	c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeInitialized, PID: c.pid, Text: fmt.Sprintf("initialized: %s %s, protocol %s", res.ServerInfo.Name, res.ServerInfo.Version, res.ProtocolVersion)}})
	return &res, nil
}

// DecodeInitializeResult reads an initialize result (MCP 2025-11-25 basic/lifecycle), live
// or recorded: the legacy era, the capabilities decoded into Caps (a warning when they do
// not fit) and a warning when protocolVersion is missing. Initialize adds the version
// checks that need the requested version.
func DecodeInitializeResult(result json.RawMessage) (*InitializeResult, error) {
	var res InitializeResult
	if err := json.Unmarshal(result, &res); err != nil {
		return nil, fmt.Errorf("initialize result is not an InitializeResult: %w", err)
	}
	res.Era = EraLegacy
	if len(res.Capabilities) > 0 {
		if err := json.Unmarshal(res.Capabilities, &res.Caps); err != nil {
			res.Warnings = append(res.Warnings, "capabilities could not be read: "+err.Error())
		}
	}
	if res.ProtocolVersion == "" {
		res.Warnings = append(res.Warnings, noVersionWarning)
	}
	return &res, nil
}

// DecodePage reads one page of a paginated listing (MCP server/utilities/pagination): the
// items of the array under key and the nextCursor ("" on the last page). A result without
// the array gives a warning and no items; a result that is not an object, or whose key is
// not an array, is an error.
func DecodePage(method, key string, result json.RawMessage) (items []json.RawMessage, next, warning string, err error) {
	var res map[string]json.RawMessage
	if err := json.Unmarshal(result, &res); err != nil {
		return nil, "", "", fmt.Errorf("%s result is not an object: %w", method, err)
	}
	if raw, ok := res[key]; ok {
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, "", "", fmt.Errorf("%s result: %q is not an array: %w", method, key, err)
		}
	} else {
		warning = fmt.Sprintf("%s result has no %q array", method, key)
	}
	if raw, ok := res["nextCursor"]; ok {
		_ = json.Unmarshal(raw, &next)
	}
	return items, next, warning, nil
}

// MaxPages bounds a paginated listing so a server whose cursor never ends cannot loop forever.
const MaxPages = 1000

// ListAll fetches every page of a paginated list method (tools/list, resources/list,
// resources/templates/list, prompts/list; MCP server/utilities/pagination) and returns the
// items of the array under key, raw. It stops with a warning, not a loop, when a cursor
// repeats or MaxPages pages have come; what was fetched so far is returned with the warnings.
// An item that a later page repeats is listed once, with a warning naming its pages (see
// Pager); a complete listing also warns of items that share their identity (see
// DuplicateWarnings) and of an empty-string nextCursor.
func (c *Client) ListAll(ctx context.Context, method, key string) ([]json.RawMessage, []string, error) {
	p, err := c.ListPaged(ctx, method, key)
	return p.Items, p.Warnings, err
}

// ListTools fetches every page of tools/list (see ListAll for the pagination guard). A tool
// entry that does not decode is skipped with a warning naming it.
func (c *Client) ListTools(ctx context.Context) ([]Tool, []string, error) {
	raw, warnings, err := c.ListAll(ctx, "tools/list", "tools")
	tools := make([]Tool, 0, len(raw))
	for i, r := range raw {
		var t Tool
		if e := json.Unmarshal(r, &t); e != nil {
			warnings = append(warnings, fmt.Sprintf("tools/list entry %d is not a Tool: %v", i, e))
			continue
		}
		tools = append(tools, t)
	}
	return tools, warnings, err
}

// CallTool sends tools/call with the tool's name and arguments (a JSON object, or nil for
// none) and decodes the result (MCP 2025-11-25 server/tools). A JSON-RPC error response comes
// back as an *RPCError; a result with isError is not a Go error. A modern CreateTaskResult
// (resultType "task") is a *TaskAnswerError: the task follower is session.CallTool's, which
// callers that may meet tasks use.
func (c *Client) CallTool(ctx context.Context, name string, args json.RawMessage) (*CallToolResult, *Response, error) {
	resp, err := c.Request(ctx, "tools/call", CallToolParams(name, args), nil)
	if err != nil {
		return nil, resp, err
	}
	res, t, err := DecodeCallResult(resp)
	if t != nil && err == nil {
		return nil, resp, &TaskAnswerError{Task: t}
	}
	return res, resp, err
}

// CallToolParams are the params of tools/call (MCP 2025-11-25 server/tools): the tool's
// name, and its arguments (a JSON object; left out when nil).
func CallToolParams(name string, args json.RawMessage) any {
	return struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
	}{name, args}
}

// DecodeCallResult decodes a tools/call response: a CallToolResult, or the task a modern
// server answered with (a CreateTaskResult, ext-tasks §Polymorphic Results: res nil, to be
// followed). err says the response is none of them (no message, a malformed task, not a
// CallToolResult); a JSON-RPC error response is an error of the request, not decoded here.
func DecodeCallResult(resp *Response) (res *CallToolResult, task *Task, err error) {
	if resp == nil || resp.Msg == nil {
		return nil, nil, errors.New("tools/call: no response message")
	}
	if t, ok, terr := ParseCreateTask(resp.Msg.Result); ok {
		if terr != nil {
			return nil, nil, fmt.Errorf("tools/call: %w", terr)
		}
		return nil, t, nil
	}
	var r CallToolResult
	if err := json.Unmarshal(resp.Msg.Result, &r); err != nil {
		return nil, nil, fmt.Errorf("tools/call result is not a CallToolResult: %w", err)
	}
	return &r, nil, nil
}
