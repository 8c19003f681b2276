package ui

import (
	"context"
	"encoding/json"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// maxBatch bounds how many already-queued events one pump message carries, so a flood is
// drawn in a few frames instead of one message per event.
const maxBatch = 4096

// eventsMsg carries events read from the timeline channel, in order. closed says the
// channel ended (the server is gone and everything was delivered).
type eventsMsg struct {
	events []mcpclient.Event
	closed bool
}

// pumpEvents reads one event (blocking), then whatever else is immediately available, up to
// maxBatch (the model sizes its batches: pumpSizer). It is re-issued from Update after each
// eventsMsg: one ordered path, never a Batch per event.
func pumpEvents(ch <-chan mcpclient.Event) tea.Cmd { return pumpEventsUpTo(ch, maxBatch) }

// initializedMsg answers the handshake.
type initializedMsg struct {
	res *mcpclient.InitializeResult
	err error
	// sid is the client's session id after the handshake ("" when none).
	sid string
}

// toolsListedMsg answers tools/list: a complete listing, as Live.List returns it.
type toolsListedMsg struct{ session.Listing }

// callDoneMsg answers tools/call number id (ids tag results so a stale answer cannot land
// on a newer call).
type callDoneMsg struct {
	id   int
	res  *mcpclient.CallToolResult
	resp *mcpclient.Response
	// resOfResp says res is decoded from resp's result (a task's result comes from
	// elsewhere): the screen's masking may then judge the response frame instead of the text.
	resOfResp bool
	err       error
	// rounds counts the tools/call requests sent (more than one when the server answered
	// input_required, MCP 2026-07-28 basic/patterns/mrtr); firstSeq is the first one's
	// Seq; total is the time from the first request's write to the final response (set
	// only when resp is).
	rounds   int
	firstSeq uint64
	total    time.Duration
}

// handshake opens the session (Live.Handshake: initialize, server/discover or the auto
// probe); Update follows a success with the lists.
func handshake(ctx context.Context, s session.Sender) tea.Cmd {
	if s == nil {
		return nil
	}
	return func() tea.Msg {
		h := s.Handshake(ctx)
		return initializedMsg{res: h.Result, err: h.Err, sid: h.SessionID}
	}
}

// listCmd fetches one listing (Live.List) and delivers it as that list's message.
func listCmd(ctx context.Context, s session.Sender, l session.List) tea.Cmd {
	return func() tea.Msg {
		out := s.List(ctx, l)
		switch l {
		case session.Resources:
			return resourcesListedMsg{out}
		case session.Prompts:
			return promptsListedMsg{out}
		}
		return toolsListedMsg{out}
	}
}

// callSentMsg says call id's request is on the wire as event seq; ch delivers the Seq of
// a retry (modern input_required rounds send a new request).
type callSentMsg struct {
	id  int
	seq uint64
	ch  <-chan uint64
}

// callTool runs tools/call (Live.Call); ctx is the call's own, cancelled by the cancel
// key. Each request it sends reports its Seq on sent; sent is closed when the call ends. A
// call answered with a task becomes a taskCreatedMsg (the task is followed).
func callTool(ctx context.Context, s session.Sender, id int, name string, args json.RawMessage, sent chan<- uint64) tea.Cmd {
	return func() tea.Msg {
		r := s.Call(ctx, name, args, sent)
		if r.Task != nil {
			return taskCreatedMsg{callID: id, tool: name, task: r.Task, resp: r.Resp}
		}
		return callDoneMsg{id: id, res: r.Res, resp: r.Resp, resOfResp: true, err: r.Err, rounds: r.Rounds, firstSeq: r.FirstSeq, total: r.Total}
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
