package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

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

// formByID finds an open argument form.
func (m *model) formByID(id int) *formPane {
	for _, f := range []*formPane{m.resources.form, m.prompts.form} {
		if f != nil && f.id == id {
			return f
		}
	}
	return nil
}

// serverRequests follows the one server-request policy (ClientFeatures.Decide), in
// arrival order: a dialog per request to ask, the others answered at once.
func (m *model) serverRequests(reqs []*session.Inbound) tea.Cmd {
	var cmds []tea.Cmd
	for _, r := range reqs {
		if r.Method == "roots/list" && len(m.launch.rootPaths) > 0 {
			// The roots given are still being resolved: answered with them once they are,
			// not with a dialog over the first screen.
			m.launch.heldRoots = append(m.launch.heldRoots, r)
			continue
		}
		switch d := m.sess.Features().Decide(r.Method, r.Params, m.sess.Roots().List, m.rootsConfigured()); {
		case d.Err != nil:
			m.say(session.Refusal{Req: r, Err: d.Err}.Note())
			cmds = append(cmds, answer(r, nil, d.Err, "refused"))
			continue
		case !d.Ask:
			// The user gave the roots (--root, or R), or the server runs here: the answer
			// needs no question.
			cmds = append(cmds, answer(r, mcpclient.RootsResult(d.Roots), nil, m.rootsAnswerText(d.Roots)))
			continue
		}
		d := newDialog(m.c, r, m.during(r))
		d.setSize(m.lay.body.w, m.lay.body.h)
		m.overlay.requests = append(m.overlay.requests, d)
		if len(m.overlay.requests) == 1 {
			cmds = append(cmds, d.focus())
		}
		if len(m.overlay.requests) > 1 {
			m.setFlash(session.QueuedNote(r.Method, len(m.overlay.requests)))
		}
	}
	return tea.Batch(cmds...)
}

// rootsAnswerText says which roots were sent without asking: the working directory (the
// default root), or the configured ones.
func (m *model) rootsAnswerText(roots []mcpclient.Root) string {
	k := m.c.keys.Global.Roots.Help().Key
	if len(roots) == 1 && m.launch.defaultRootURI != "" && roots[0].URI == m.launch.defaultRootURI {
		return fmt.Sprintf("sent the working directory %s as the root without asking (--root gives others; %s edits them)", clean(m.launch.defaultRoot), k)
	}
	return fmt.Sprintf("sent the %d configured root(s) without asking (%s edits them)", len(roots), k)
}

// rootsConfigured reports whether roots are set (by --root or the roots editor) and
// resolved: roots/list is then answered with them at once; without any, a dialog asks.
func (m *model) rootsConfigured() bool {
	return m.launch.rootPaths == nil && len(m.sess.Roots().List) > 0
}

// during names the request of ours a server request belongs to: for a modern input
// request the request whose input_required result carried it; in the legacy era whatever
// is in flight.
func (m *model) during(r *session.Inbound) string {
	if r.Modern() {
		if i, ok := m.tl.index(r.Seq); ok {
			if j, ok := m.tl.index(m.tl.pairOf(m.tl.evs.at(i))); ok {
				if ev, ok := m.tl.full(j); ok && ev.Msg != nil {
					return fmt.Sprintf("%s %s (request #%d)", ev.Msg.Method, session.RequestTarget(ev.Msg.Params), ev.Seq)
				}
			}
		}
		return ""
	}
	var parts []string
	for _, run := range m.call.running() {
		parts = append(parts, "tools/call "+run.tool)
	}
	for _, o := range m.sess.Inflight().Sorted() {
		if o.Running() {
			parts = append(parts, o.Method+" "+o.Target)
		}
	}
	return strings.Join(parts, ", ")
}

// dropInputDialogs closes modern input dialogs whose request ended (cancelled, failed).
func (m *model) dropInputDialogs(method, target string) {
	keep := m.overlay.requests[:0]
	dropped := 0
	for _, rd := range m.overlay.requests {
		d := rd.base()
		if d.req.Modern() && d.during == "" {
			d.during = m.during(d.req)
		}
		if d.req.Modern() && strings.HasPrefix(d.during, method+" "+target+" (") {
			dropped++
			continue
		}
		keep = append(keep, rd)
	}
	m.overlay.requests = keep
	if dropped > 0 {
		m.say(session.InputsClosedNote(dropped, method, target))
		if len(m.overlay.requests) > 0 {
			m.pending = append(m.pending, m.overlay.requests[0].focus())
		}
	}
}
