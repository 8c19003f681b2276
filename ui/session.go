package ui

import (
	"context"
	"encoding/json"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Session is what the UI asks of the server. *mcpclient.Client implements it; tests use a
// fake. Every call runs inside a tea.Cmd, never in Update.
type Session interface {
	// Connect opens the session in the configured era (legacy initialize, modern
	// server/discover, or the auto probe).
	Connect(ctx context.Context) (*mcpclient.InitializeResult, error)
	ListTools(ctx context.Context) ([]mcpclient.Tool, []string, error)
	CallTool(ctx context.Context, name string, args json.RawMessage) (*mcpclient.CallToolResult, *mcpclient.Response, error)

	ListResources(ctx context.Context) ([]mcpclient.Resource, []string, error)
	ListResourceTemplates(ctx context.Context) ([]mcpclient.ResourceTemplate, []string, error)
	ReadResource(ctx context.Context, uri string) (*mcpclient.ReadResourceResult, *mcpclient.Response, error)
	Subscribe(ctx context.Context, uri string) error
	Unsubscribe(ctx context.Context, uri string) error
	Listen(ctx context.Context, f mcpclient.ListenFilter) (*mcpclient.Response, error)

	ListPrompts(ctx context.Context) ([]mcpclient.Prompt, []string, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*mcpclient.GetPromptResult, *mcpclient.Response, error)
	Complete(ctx context.Context, ref mcpclient.CompletionRef, arg, value string, context map[string]string) (*mcpclient.Completion, error)

	SetLogLevel(ctx context.Context, level string) error
	Ping(ctx context.Context) (time.Duration, error)
	NotifyRootsChanged() error

	CallToolAsTask(ctx context.Context, name string, args json.RawMessage, ttlMs int64) (*mcpclient.Task, *mcpclient.Response, error)
	GetTask(ctx context.Context, id string) (*mcpclient.Task, error)
	TaskResult(ctx context.Context, id string) (*mcpclient.Response, error)
	CancelTask(ctx context.Context, id string) (*mcpclient.Task, error)
	ListTasks(ctx context.Context) ([]mcpclient.Task, []string, error)
}

// The live client is a Session.
var _ Session = (*mcpclient.Client)(nil)

// maxBatch bounds how many already-queued events one pump message carries, so a flood is
// drawn in a few frames instead of one message per event.
const maxBatch = 4096

// eventsMsg carries events read from the timeline channel, in order. closed says the
// channel ended (the server is gone and everything was delivered).
type eventsMsg struct {
	events []mcpclient.Event
	closed bool
}

// pumpEvents reads one event (blocking), then whatever else is immediately available. It is
// re-issued from Update after each eventsMsg: one ordered path, never a Batch per event.
func pumpEvents(ch <-chan mcpclient.Event) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return eventsMsg{closed: true}
		}
		evs := []mcpclient.Event{ev}
		for len(evs) < maxBatch {
			select {
			case ev, ok := <-ch:
				if !ok {
					return eventsMsg{events: evs, closed: true}
				}
				evs = append(evs, ev)
			default:
				return eventsMsg{events: evs}
			}
		}
		return eventsMsg{events: evs}
	}
}

// initializedMsg answers the handshake.
type initializedMsg struct {
	res *mcpclient.InitializeResult
	err error
}

// toolsListedMsg answers tools/list.
type toolsListedMsg struct {
	tools    []mcpclient.Tool
	warnings []string
	err      error
}

// callDoneMsg answers tools/call number id (ids tag results so a stale answer cannot land
// on a newer call).
type callDoneMsg struct {
	id   int
	res  *mcpclient.CallToolResult
	resp *mcpclient.Response
	err  error
}

// handshake opens the session (Connect: initialize, server/discover or the auto probe);
// Update follows a success with the lists.
func handshake(ctx context.Context, s Session) tea.Cmd {
	if s == nil {
		return nil
	}
	return func() tea.Msg {
		res, err := s.Connect(ctx)
		return initializedMsg{res: res, err: err}
	}
}

// listTools fetches the tools.
func listTools(ctx context.Context, s Session) tea.Cmd {
	return func() tea.Msg {
		tools, warns, err := s.ListTools(ctx)
		return toolsListedMsg{tools: tools, warnings: warns, err: err}
	}
}

// callTool runs tools/call; ctx is the call's own, cancelled by the cancel key.
func callTool(ctx context.Context, s Session, id int, name string, args json.RawMessage) tea.Cmd {
	return func() tea.Msg {
		res, resp, err := s.CallTool(ctx, name, args)
		return callDoneMsg{id: id, res: res, resp: resp, err: err}
	}
}
