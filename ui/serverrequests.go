package ui

import (
	"context"
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// ConfigureClient prepares cfg for this UI before mcpclient.Start: the client capabilities
// from the features, and OnServerRequest delivering every server→client request (legacy
// requests and modern input requests) to the UI's queue, which it creates when unset
// (session.ClientFeatures.Configure). It takes Options.Era from cfg when unset.
func (o *Options) ConfigureClient(cfg *mcpclient.Config) {
	if o.Requests == nil {
		o.Requests = session.NewRequestQueue(nil)
	}
	if o.Era == "" {
		o.Era = cfg.Era
	}
	o.Features.Configure(cfg, o.Requests)
}

// serverRequestsMsg delivers the requests queued since the last one, in arrival order.
type serverRequestsMsg struct{ reqs []*session.Inbound }

// waitRequests blocks until requests are queued and takes them all. Update re-issues it
// after each serverRequestsMsg: one ordered path, like the event pump.
func waitRequests(q *session.RequestQueue) tea.Cmd {
	if q == nil {
		return nil
	}
	return func() tea.Msg {
		reqs, err := q.Next(context.Background())
		if err != nil {
			return nil
		}
		return serverRequestsMsg{reqs: reqs}
	}
}

// answeredMsg reports how answering a server request went.
type answeredMsg struct{ session.Answered }

// answer sends a reply to a server request (I/O, so in a Cmd).
func answer(r *session.Inbound, result json.RawMessage, e *mcpclient.RPCError, what string) tea.Cmd {
	return func() tea.Msg {
		return answeredMsg{session.Answer(r, result, e, what)}
	}
}
