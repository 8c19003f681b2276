package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// era is the era the session speaks (legacy until the handshake says otherwise).
func (m *model) era() mcpclient.Era {
	if m.state().Init != nil && m.state().Init.Era != "" {
		return m.state().Init.Era
	}
	return mcpclient.EraLegacy
}

// caps are the server's capabilities (zero before the handshake).
func (m *model) caps() mcpclient.ServerCapabilities {
	if m.state().Init == nil {
		return mcpclient.ServerCapabilities{}
	}
	return m.state().Init.Caps
}

// startListen (re)opens the modern subscriptions/listen stream with the list changes the
// server offers and the resources subscribed to (MCP 2026-07-28 basic/patterns/subscriptions).
func (m *model) startListen() tea.Cmd {
	var subs []string
	for uri, on := range m.resources.subs {
		if on {
			subs = append(subs, uri)
		}
	}
	s := m.sender()
	if s == nil {
		return nil
	}
	gen, ctx, f, ok := s.OpenListen(subs)
	if !ok {
		return nil
	}
	return func() tea.Msg {
		resp, err := s.Listen(ctx, f)
		return listenEndedMsg{gen: gen, resp: resp, err: err}
	}
}

// listenEndedMsg says the subscriptions/listen stream ended.
type listenEndedMsg struct {
	gen  int
	resp *mcpclient.Response
	err  error
}

// Messages of single requests.
type (
	subscribedMsg struct {
		uri string
		on  bool
		err error
	}
	logLevelMsg struct {
		level string
		err   error
	}
	pingMsg struct {
		rtt time.Duration
		err error
	}
	rootsNotifiedMsg struct{ err error }
)

func subscribe(ctx context.Context, s session.Conn, uri string, on bool) tea.Cmd {
	return func() tea.Msg {
		var err error
		if on {
			err = s.Subscribe(ctx, uri)
		} else {
			err = s.Unsubscribe(ctx, uri)
		}
		return subscribedMsg{uri: uri, on: on, err: err}
	}
}

func setLogLevel(ctx context.Context, s session.Conn, level string) tea.Cmd {
	return func() tea.Msg { return logLevelMsg{level: level, err: s.SetLogLevel(ctx, level)} }
}

func ping(ctx context.Context, s session.Conn) tea.Cmd {
	return func() tea.Msg {
		rtt, err := s.Ping(ctx)
		return pingMsg{rtt: rtt, err: err}
	}
}

func notifyRoots(s session.Conn) tea.Cmd {
	return func() tea.Msg { return rootsNotifiedMsg{err: s.NotifyRootsChanged()} }
}

// answered notes how answering a server request went.
func (m *model) answered(msg answeredMsg) { m.say(msg.Note()) }

// resourceRead finishes a resources/read op.
func (m *model) resourceRead(msg resourceReadMsg) {
	o := m.sess.Inflight().Finish(msg.op, msg.err, m.now())
	m.resources.readDone(msg)
	if o != nil && msg.err != nil {
		m.dropInputDialogs(o.Method, o.Target)
	}
}

// promptGot finishes a prompts/get op.
func (m *model) promptGot(msg promptGotMsg) {
	o := m.sess.Inflight().Finish(msg.op, msg.err, m.now())
	m.prompts.got(msg)
	if o != nil && msg.err != nil {
		m.dropInputDialogs(o.Method, o.Target)
	}
}

// subscribed takes the answer to resources/subscribe or unsubscribe.
func (m *model) subscribed(msg subscribedMsg) {
	delete(m.resources.pending, msg.uri)
	verb := "subscribed to"
	if !msg.on {
		verb = "unsubscribed from"
	}
	if msg.err != nil {
		m.note("error", fmt.Sprintf("could not be %s %s: %s", strings.TrimSuffix(verb, " to"), msg.uri, msg.err))
	} else {
		m.resources.subs[msg.uri] = msg.on
		m.note("info", verb+" "+msg.uri)
	}
	m.resources.rebuild()
}

// listenEnded notes the end of the current subscriptions/listen stream.
func (m *model) listenEnded(msg listenEndedMsg) {
	s := m.sender()
	if s == nil {
		return
	}
	if n := s.Stream().Ended(msg.gen, msg.err); n != nil {
		m.say(*n)
	}
}

// logLevelSet takes the answer to logging/setLevel (or the modern _meta level).
func (m *model) logLevelSet(msg logLevelMsg) {
	if msg.err == nil {
		m.logs.serverLevel = msg.level
	}
	if s := m.sender(); s != nil {
		m.say(s.LogLevelNote(msg.level, msg.err))
	}
}

// pinged takes the ping's round trip.
func (m *model) pinged(msg pingMsg) {
	m.state().Ping = session.Ping{Seen: true, RTT: msg.rtt, Err: msg.err}
	m.say(session.PingNote(msg.rtt, msg.err))
}

// resourceSaved says where a resource's contents went.
func (m *model) resourceSaved(msg savedMsg) {
	if msg.err != nil {
		m.resources.saved = "not saved: " + msg.err.Error()
		m.note("error", m.resources.saved)
	} else {
		m.c.gfx.files.keep(msg.item, msg.path)
		m.resources.saved = fmt.Sprintf("saved %s to %s", jsontext.Count(msg.n, "byte", "bytes"), msg.path)
		if msg.same {
			m.resources.saved = fmt.Sprintf("already saved: %s holds these %s", msg.path, jsontext.Count(msg.n, "byte", "bytes"))
		}
		m.note("info", m.resources.saved)
	}
}

// rootsResolved adds the roots resolved from paths; added later, the server hears of it.
func (m *model) rootsResolved(msg rootsResolvedMsg) tea.Cmd {
	m.sess.Roots().Add(msg.roots, msg.errs)
	for _, e := range msg.errs {
		m.note("warning", e)
	}
	if !msg.initial && len(msg.roots) > 0 {
		return m.rootsChanged()
	}
	if !msg.initial {
		return nil
	}
	m.launch.rootPaths = nil
	if m.launch.defaultRoot != "" && len(msg.roots) == 1 {
		m.launch.defaultRootURI = msg.roots[0].URI
	}
	held := m.launch.heldRoots
	m.launch.heldRoots = nil
	return m.serverRequests(held)
}

// rootsToKeep are the roots offered now, for the next session after a restart: their
// file:// URIs, after Options.Roots while those are not resolved yet; the default root
// alone is left out (the next session offers it again, as the default).
func (m *model) rootsToKeep() []string {
	var out []string
	for _, p := range m.launch.rootPaths {
		if p != m.launch.defaultRoot {
			out = append(out, p)
		}
	}
	for _, r := range m.sess.Roots().List {
		// The default root is offered again by the next session, as the default.
		if r.URI != m.launch.defaultRootURI || len(m.sess.Roots().List) > 1 {
			out = append(out, r.URI)
		}
	}
	return out
}

// rootsNotified notes how notifications/roots/list_changed went.
func (m *model) rootsNotified(msg rootsNotifiedMsg) { m.say(session.RootsNotifiedNote(msg.err)) }

// rootsChanged tells a legacy server the roots changed (notifications/roots/list_changed);
// modern servers ask again when they need them.
func (m *model) rootsChanged() tea.Cmd {
	s := m.sender()
	if s == nil || !s.RootsChanged() {
		return nil
	}
	return notifyRoots(s)
}

// resourceAction runs what the Resources pane asked for.
func (m *model) resourceAction(a *resourceAction) tea.Cmd {
	if a == nil || !m.c.canSend() {
		return nil
	}
	switch {
	case a.refresh:
		return m.refresh(session.Resources)
	case a.read != "":
		o, ctx := m.sess.Inflight().Start(m.ctx, "resources/read", a.read, m.now())
		m.resources.startRead(a.key, a.read, o.ID)
		return readResource(ctx, m.sender(), o.ID, a.key, a.read)
	case a.subscribe != "":
		if m.state().Era() == mcpclient.EraModern {
			m.resources.subs[a.subscribe] = a.on
			m.resources.rebuild()
			verb := "listening for updates of "
			if !a.on {
				verb = "no longer listening for updates of "
			}
			m.note("info", verb+a.subscribe+" (subscriptions/listen, opened again)")
			return m.startListen()
		}
		m.resources.pending[a.subscribe] = true
		return subscribe(m.ctx, m.sender(), a.subscribe, a.on)
	}
	return nil
}

// promptAction runs what the Prompts pane asked for.
func (m *model) promptAction(a *promptAction) tea.Cmd {
	if a == nil || !m.c.canSend() {
		return nil
	}
	if a.refresh {
		return m.refresh(session.Prompts)
	}
	o, ctx := m.sess.Inflight().Start(m.ctx, "prompts/get", a.get, m.now())
	m.prompts.startGet(a.get, a.args, o.ID)
	return getPrompt(ctx, m.sender(), o.ID, a.get, a.args)
}

// cancelFocused cancels the request in flight of the focused pane (ctrl+x): an op, a task
// call (tasks/cancel), or the tool call.
func (m *model) cancelFocused() tea.Cmd {
	if c, ok := m.panes[m.focus].(opCanceler); ok {
		if o := c.runningOp(); o != nil {
			m.sess.Inflight().Cancel(o.ID)
			return nil
		}
	}
	if run := m.call.cancelTarget(); run != nil {
		if st, ok := m.tasks.all.CancelCall(run.id); ok {
			return m.taskStep(st, true)
		}
		m.call.cancelCall(run)
		return nil
	}
	for _, o := range m.sess.Inflight().Sorted() {
		if o.Running() {
			m.sess.Inflight().Cancel(o.ID)
			return nil
		}
	}
	return nil
}

// abandon cancels what is still running when the program ends (Run's cleanup): the ops,
// the listen stream, and the open server requests (answered -32603, session.Quitting).
func (m *model) abandon() {
	m.sess.Inflight().CancelAll()
	if s := m.sender(); s != nil {
		s.Stream().Stop()
	}
	open := make([]*session.Inbound, 0, len(m.overlay.requests))
	for _, d := range m.overlay.requests {
		open = append(open, d.base().req)
	}
	session.Quitting(open)
	m.overlay.requests = nil
}
