package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Resource is one entry of resources/list (MCP 2025-11-25 server/resources "Resource").
type Resource struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Size        *int64          `json:"size,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// ResourceTemplate is one entry of resources/templates/list; URITemplate is RFC 6570.
type ResourceTemplate struct {
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// ReadResourceResult is the result of resources/read: text or base64 blob contents.
type ReadResourceResult struct {
	Contents []ResourceContents `json:"contents"`
	Meta     json.RawMessage    `json:"_meta,omitempty"`
}

// Prompt is one entry of prompts/list (MCP 2025-11-25 server/prompts).
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
	Meta        json.RawMessage  `json:"_meta,omitempty"`
}

// PromptArgument describes one argument of a prompt; values are strings.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// GetPromptResult is the result of prompts/get.
type GetPromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// PromptMessage is one message of a prompt: a role ("user" | "assistant") and a content block.
type PromptMessage struct {
	Role    string       `json:"role"`
	Content ContentBlock `json:"content"`
}

// Completion is the result of completion/complete (MCP server/utilities/completion): up to
// 100 values, with total and hasMore when the server knows more.
type Completion struct {
	Values  []string `json:"values"`
	Total   *int     `json:"total,omitempty"`
	HasMore bool     `json:"hasMore,omitempty"`
}

// CompletionRef names what is completed: {type:"ref/prompt", name} or {type:"ref/resource", uri}.
type CompletionRef struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	URI  string `json:"uri,omitempty"`
}

// DecodeList decodes raw list items (ListAll's, or a recorded listing's) into T, skipping
// entries that do not fit with a warning "<what> entry <i> could not be read: <why>"
// appended to warnings.
func DecodeList[T any](raw []json.RawMessage, what string, warnings []string) ([]T, []string) {
	out := make([]T, 0, len(raw))
	for i, r := range raw {
		var v T
		if err := json.Unmarshal(r, &v); err != nil {
			warnings = append(warnings, fmt.Sprintf("%s entry %d could not be read: %v", what, i, err))
			continue
		}
		out = append(out, v)
	}
	return out, warnings
}

// ListResources fetches every page of resources/list (see ListAll for the pagination guard).
func (c *Client) ListResources(ctx context.Context) ([]Resource, []string, error) {
	raw, w, err := c.ListAll(ctx, "resources/list", "resources")
	items, w := DecodeList[Resource](raw, "resources/list", w)
	return items, w, err
}

// ListResourceTemplates fetches every page of resources/templates/list.
func (c *Client) ListResourceTemplates(ctx context.Context) ([]ResourceTemplate, []string, error) {
	raw, w, err := c.ListAll(ctx, "resources/templates/list", "resourceTemplates")
	items, w := DecodeList[ResourceTemplate](raw, "resources/templates/list", w)
	return items, w, err
}

// ListPrompts fetches every page of prompts/list.
func (c *Client) ListPrompts(ctx context.Context) ([]Prompt, []string, error) {
	raw, w, err := c.ListAll(ctx, "prompts/list", "prompts")
	items, w := DecodeList[Prompt](raw, "prompts/list", w)
	return items, w, err
}

// ReadResource sends resources/read for uri.
func (c *Client) ReadResource(ctx context.Context, uri string) (*ReadResourceResult, *Response, error) {
	resp, err := c.Request(ctx, "resources/read", map[string]string{"uri": uri}, nil)
	if err != nil {
		return nil, resp, err
	}
	var res ReadResourceResult
	if err := json.Unmarshal(resp.Msg.Result, &res); err != nil {
		return nil, resp, fmt.Errorf("resources/read result is not a ReadResourceResult: %w", err)
	}
	return &res, resp, nil
}

// GetPrompt sends prompts/get with string arguments.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*GetPromptResult, *Response, error) {
	params := struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments,omitempty"`
	}{name, args}
	resp, err := c.Request(ctx, "prompts/get", params, nil)
	if err != nil {
		return nil, resp, err
	}
	var res GetPromptResult
	if err := json.Unmarshal(resp.Msg.Result, &res); err != nil {
		return nil, resp, fmt.Errorf("prompts/get result is not a GetPromptResult: %w", err)
	}
	return &res, resp, nil
}

// Complete sends completion/complete for one argument of a prompt or resource template,
// with the other arguments already filled as context (MCP 2025-06-18 and later).
func (c *Client) Complete(ctx context.Context, ref CompletionRef, arg, value string, context map[string]string) (*Completion, error) {
	params := map[string]any{"ref": ref, "argument": map[string]string{"name": arg, "value": value}}
	if len(context) > 0 {
		params["context"] = map[string]any{"arguments": context}
	}
	resp, err := c.Request(ctx, "completion/complete", params, &RequestOptions{NoProgressToken: true})
	if err != nil {
		return nil, err
	}
	var res struct {
		Completion Completion `json:"completion"`
	}
	if err := json.Unmarshal(resp.Msg.Result, &res); err != nil {
		return nil, fmt.Errorf("completion/complete result: %w", err)
	}
	return &res.Completion, nil
}

// Ping sends ping (legacy era only; removed in 2026-07-28) and returns the round-trip time.
func (c *Client) Ping(ctx context.Context) (time.Duration, error) {
	if c.Era() == EraModern {
		return 0, fmt.Errorf("ping does not exist in the modern era (MCP 2026-07-28 removed it)")
	}
	resp, err := c.Request(ctx, "ping", nil, &RequestOptions{NoProgressToken: true})
	if err != nil {
		return 0, err
	}
	return resp.Elapsed, nil
}

// Subscribe sends resources/subscribe (legacy; needs capabilities.resources.subscribe);
// notifications/resources/updated then arrive as events.
func (c *Client) Subscribe(ctx context.Context, uri string) error {
	_, err := c.Request(ctx, "resources/subscribe", map[string]string{"uri": uri}, nil)
	return err
}

// Unsubscribe sends resources/unsubscribe.
func (c *Client) Unsubscribe(ctx context.Context, uri string) error {
	_, err := c.Request(ctx, "resources/unsubscribe", map[string]string{"uri": uri}, nil)
	return err
}

// ListenFilter is what subscriptions/listen asks for (MCP 2026-07-28
// basic/patterns/subscriptions).
type ListenFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
	// TaskIDs asks for notifications/tasks of these tasks (tasks extension; ext-tasks
	// specification/draft/tasks.md §Task Status Notifications).
	TaskIDs []string `json:"taskIds,omitempty"`
}

// Listen opens a subscriptions/listen stream (modern era). Its notifications arrive as events
// tagged with _meta subscriptionId; the call returns when the server ends the stream or ctx
// is cancelled (then notifications/cancelled ends it). It never times out.
func (c *Client) Listen(ctx context.Context, f ListenFilter) (*Response, error) {
	return c.Request(ctx, "subscriptions/listen", map[string]any{"notifications": f}, &RequestOptions{NoProgressToken: true, NoTimeout: true})
}

// Root is one entry of a roots/list result (MCP client/roots); URI must start with file://.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// RootsResult encodes a roots/list result.
func RootsResult(roots []Root) json.RawMessage {
	if roots == nil {
		roots = []Root{}
	}
	b, _ := json.Marshal(map[string]any{"roots": roots})
	return b
}

// NotifyRootsChanged sends notifications/roots/list_changed (legacy).
func (c *Client) NotifyRootsChanged() error {
	return c.Notify("notifications/roots/list_changed", nil)
}

// Task is a task's state: the 2025-11-25 experimental Task (MCP 2025-11-25
// basic/utilities/tasks: ttl, pollInterval) or the modern extension's DetailedTask
// (io.modelcontextprotocol/tasks, ext-tasks specification/draft/tasks.md §Tasks: ttlMs,
// pollIntervalMs, and per status inputRequests, result or error inline). Times are in ms.
type Task struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt,omitempty"`
	LastUpdatedAt string `json:"lastUpdatedAt,omitempty"`
	TTL           *int64 `json:"ttl,omitempty"`
	PollInterval  *int64 `json:"pollInterval,omitempty"`
	// The modern extension's fields (see tasksext.go).
	ResultType     string                  `json:"resultType,omitempty"`
	TTLMs          *int64                  `json:"ttlMs,omitempty"`
	PollIntervalMs *int64                  `json:"pollIntervalMs,omitempty"`
	InputRequests  map[string]InputRequest `json:"inputRequests,omitempty"`
	Result         json.RawMessage         `json:"result,omitempty"`
	Error          *RPCError               `json:"error,omitempty"`
}

// Terminal reports whether the task has finished (completed, failed or cancelled).
func (t Task) Terminal() bool {
	return t.Status == "completed" || t.Status == "failed" || t.Status == "cancelled"
}

// CallToolAsTask sends tools/call augmented with params.task (for tools whose
// execution.taskSupport is "required" or "optional") and returns the created task.
func (c *Client) CallToolAsTask(ctx context.Context, name string, args json.RawMessage, ttlMs int64) (*Task, *Response, error) {
	task := map[string]any{}
	if ttlMs > 0 {
		task["ttl"] = ttlMs
	}
	params := struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
		Task      map[string]any  `json:"task"`
	}{name, args, task}
	resp, err := c.Request(ctx, "tools/call", params, nil)
	if err != nil {
		return nil, resp, err
	}
	var res struct {
		Task *Task `json:"task"`
	}
	if err := json.Unmarshal(resp.Msg.Result, &res); err != nil || res.Task == nil {
		return nil, resp, fmt.Errorf("tools/call as a task: the result is not a CreateTaskResult")
	}
	return res.Task, resp, nil
}

// GetTask sends tasks/get.
func (c *Client) GetTask(ctx context.Context, id string) (*Task, error) {
	resp, err := c.Request(ctx, "tasks/get", map[string]string{"taskId": id}, &RequestOptions{NoProgressToken: true})
	if err != nil {
		return nil, err
	}
	var t Task
	if err := json.Unmarshal(resp.Msg.Result, &t); err != nil {
		return nil, fmt.Errorf("tasks/get result: %w", err)
	}
	return &t, nil
}

// TaskResult sends tasks/result, which blocks until the task is terminal, and returns the
// original request's result raw.
func (c *Client) TaskResult(ctx context.Context, id string) (*Response, error) {
	return c.Request(ctx, "tasks/result", map[string]string{"taskId": id}, &RequestOptions{NoProgressToken: true, NoTimeout: true})
}

// CancelTask sends tasks/cancel.
func (c *Client) CancelTask(ctx context.Context, id string) (*Task, error) {
	resp, err := c.Request(ctx, "tasks/cancel", map[string]string{"taskId": id}, &RequestOptions{NoProgressToken: true})
	if err != nil {
		return nil, err
	}
	var t Task
	_ = json.Unmarshal(resp.Msg.Result, &t)
	return &t, nil
}

// ListTasks fetches every page of tasks/list.
func (c *Client) ListTasks(ctx context.Context) ([]Task, []string, error) {
	raw, w, err := c.ListAll(ctx, "tasks/list", "tasks")
	items, w := DecodeList[Task](raw, "tasks/list", w)
	return items, w, err
}
