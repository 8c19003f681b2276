package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	// Request sends any request and waits for its response; the UI sends tools/call
	// through it, with RequestOptions.OnSent telling each call its own request's Seq.
	Request(ctx context.Context, method string, params any, opt *mcpclient.RequestOptions) (*mcpclient.Response, error)

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
	// rounds counts the tools/call requests sent (more than one when the server answered
	// input_required, MCP 2026-07-28 basic/patterns/mrtr); firstSeq is the first one's
	// Seq; total is the time from the first request's write to the final response (set
	// only when resp is).
	rounds   int
	firstSeq uint64
	total    time.Duration
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

// callSentMsg says call id's request is on the wire as event seq; ch delivers the Seq of
// a retry (modern input_required rounds send a new request).
type callSentMsg struct {
	id  int
	seq uint64
	ch  <-chan uint64
}

// callTool runs tools/call (MCP 2025-11-25 server/tools) through Session.Request; ctx is
// the call's own, cancelled by the cancel key. Each request it sends reports its Seq on
// sent (never blocking); sent is closed when the call ends.
func callTool(ctx context.Context, s Session, id int, name string, args json.RawMessage, sent chan<- uint64) tea.Cmd {
	return func() tea.Msg {
		defer close(sent)
		params := struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments,omitempty"`
		}{name, args}
		// OnSent runs in this goroutine (inside Request), once per round.
		var rounds int
		var firstSeq uint64
		var firstAt, lastAt time.Time
		opt := &mcpclient.RequestOptions{OnSent: func(seq uint64, _ json.RawMessage) {
			rounds++
			lastAt = time.Now()
			if firstSeq == 0 {
				firstSeq, firstAt = seq, lastAt
			}
			select {
			case sent <- seq:
			default:
			}
		}}
		resp, err := s.Request(ctx, "tools/call", params, opt)
		done := func(m callDoneMsg) callDoneMsg {
			m.rounds, m.firstSeq = rounds, firstSeq
			if resp != nil && rounds > 0 {
				// The final round's round trip plus the rounds before it (their input
				// dialogs included): what the user waited for the result.
				m.total = lastAt.Sub(firstAt) + resp.Elapsed
			}
			return m
		}
		if err != nil {
			return done(callDoneMsg{id: id, resp: resp, err: err})
		}
		var res mcpclient.CallToolResult
		if resp == nil || resp.Msg == nil {
			return done(callDoneMsg{id: id, resp: resp, err: errors.New("tools/call: no response message")})
		}
		// A modern CreateTaskResult is not the call's result: the task is followed (tasksext.go).
		if t, ok, terr := mcpclient.ParseCreateTask(resp.Msg.Result); ok {
			if terr != nil {
				return done(callDoneMsg{id: id, resp: resp, err: fmt.Errorf("tools/call: %w", terr)})
			}
			return taskCreatedMsg{callID: id, tool: name, task: t, resp: resp}
		}
		if err := json.Unmarshal(resp.Msg.Result, &res); err != nil {
			return done(callDoneMsg{id: id, resp: resp, err: fmt.Errorf("tools/call result is not a CallToolResult: %w", err)})
		}
		return done(callDoneMsg{id: id, res: &res, resp: resp})
	}
}

// waitSent delivers the next request Seq of call id; Update re-issues it after each one
// until the call ends (the channel closes).
func waitSent(id int, ch <-chan uint64) tea.Cmd {
	return func() tea.Msg {
		seq, ok := <-ch
		if !ok {
			return nil
		}
		return callSentMsg{id: id, seq: seq, ch: ch}
	}
}
