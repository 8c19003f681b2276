package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// newPanes builds the panes (m's common bag exists) and their array, in tab order.
func (m *model) newPanes(opts Options) {
	c := m.c
	m.features, m.requests, m.rootPaths = opts.Features, opts.Requests, opts.Roots
	m.ops, m.dialogGuard = session.NewInflight(), 400*time.Millisecond
	m.roots = &session.Roots{}
	if m.sess != nil {
		m.ops, m.roots = m.sess.Inflight(), m.sess.Roots()
	}
	ids := &formIDs{}
	m.resources = newResourcesPane(c, m.ops, ids)
	m.prompts = newPromptsPane(c, m.ops, ids)
	m.logs = newLogsPane(c)
	m.tasks = newTasksPane(c)
	if m.sess != nil {
		m.tasks.all = m.sess.Tasks()
	}
	m.call.canRead = opts.Session != nil
	if opts.Session == nil {
		m.resources.status, m.prompts.status = noServerText(opts), noServerText(opts)
		// Nothing lists tasks here (r needs a server); the tasks come from the events.
		m.tasks.list.empty = "no tasks in the events: a tools/call answered with a task shows here"
	}
	m.panes = [paneCount]pane{
		paneTools:     toolsTab{m},
		paneCall:      callTab{m},
		paneWire:      wireTab{m},
		paneServer:    &serverPane{m: m},
		paneResources: resourcesTab{m},
		panePrompts:   promptsTab{m},
		paneLogs:      logsTab{m},
		paneTasks:     tasksTab{m},
	}
}

// flashFor is how long a transient status line stays.
const flashFor = 6 * time.Second

// flashClearMsg redraws once a flash has expired.
type flashClearMsg struct{}

// opTickMsg redraws elapsed times while requests are in flight.
type opTickMsg struct{}

// note says something in the status line for a while and keeps it in the Logs pane.
func (m *model) note(level, text string) {
	now := m.now()
	m.logs.add(logEntry{at: now, kind: logClient, level: level, text: text})
	m.setFlash(text)
}

// say shows a session note (note).
func (m *model) say(n session.Note) { m.note(string(n.Level), n.Text) }

// setFlash shows text in the status bar for flashFor, and queues the redraw that takes it
// away then: without it an idle screen would keep an expired note (an old error) in view.
func (m *model) setFlash(text string) {
	m.flash, m.flashUntil = text, m.now().Add(flashFor)
	m.pending = append(m.pending, tea.Tick(flashFor, func(time.Time) tea.Msg { return flashClearMsg{} }))
}

// takePending returns the queued Cmds, and a redraw tick while requests are in flight.
func (m *model) takePending() tea.Cmd {
	cmds := m.pending
	m.pending = nil
	if !m.ticking && (m.ops.Running() > 0 || m.pinging) {
		m.ticking = true
		cmds = append(cmds, tea.Tick(250*time.Millisecond, func(time.Time) tea.Msg { return opTickMsg{} }))
	}
	return tea.Batch(cmds...)
}

// era is the era the session speaks (legacy until the handshake says otherwise).
func (m *model) era() mcpclient.Era {
	if m.server.init != nil && m.server.init.Era != "" {
		return m.server.init.Era
	}
	return mcpclient.EraLegacy
}

// caps are the server's capabilities (zero before the handshake).
func (m *model) caps() mcpclient.ServerCapabilities {
	if m.server.init == nil {
		return mcpclient.ServerCapabilities{}
	}
	return m.server.init.Caps
}

// Messages of the lists.
type (
	resourcesListedMsg struct {
		res      []mcpclient.Resource
		tmpls    []mcpclient.ResourceTemplate
		warnings []string
		err      error
		tmplErr  error
	}
	promptsListedMsg struct {
		prompts  []mcpclient.Prompt
		warnings []string
		err      error
	}
)

// afterConnect lists everything the server offers (Live.Connected says what) and, in the
// modern era, opens the subscriptions/listen stream.
func (m *model) afterConnect() tea.Cmd {
	if !m.c.canSend() {
		return m.recordedConnected()
	}
	first, listTasksToo := m.sess.Connected(session.Handshake{Result: m.server.init})
	var cmds []tea.Cmd
	for _, l := range first {
		cmds = append(cmds, listCmd(m.ctx, m.sess, l))
	}
	caps := m.caps()
	if caps.Resources != nil {
		m.resources.status = "listing resources…"
	} else {
		m.resources.status = "the server offers no resources (no resources capability)"
		m.resources.list.empty = m.resources.status
	}
	if caps.Prompts != nil {
		m.prompts.status = "listing prompts…"
	} else {
		m.prompts.status = "the server offers no prompts (no prompts capability)"
		m.prompts.list.empty = m.prompts.status
	}
	if listTasksToo {
		cmds = append(cmds, listTasks(m.ctx, m.sess))
	}
	if m.era() == mcpclient.EraModern {
		cmds = append(cmds, m.startListen())
	}
	return tea.Batch(cmds...)
}

// relist sends the listings the session asks for (list_changed, or one more after a burst).
func (m *model) relist(ls ...session.List) tea.Cmd {
	var cmds []tea.Cmd
	for _, l := range ls {
		cmds = append(cmds, listCmd(m.ctx, m.sess, l))
	}
	return tea.Batch(cmds...)
}

// refresh lists one kind again at the user's request (r), clearing its storm guard.
func (m *model) refresh(l session.List) tea.Cmd {
	if m.sess == nil || !m.sess.Lists().UserRefresh(l) {
		return nil
	}
	return m.relist(l)
}

// listed closes a listing: says what changed, and lists again if asked meanwhile.
func (m *model) listed(l session.List, n int, err error) tea.Cmd {
	if m.sess == nil {
		return nil
	}
	again, note := m.sess.Lists().Listed(l, n, err)
	if note != nil {
		m.say(*note)
	}
	if again {
		return m.relist(l)
	}
	return nil
}

// toolsListed is the tools part of toolsListedMsg handling (refresh bookkeeping).
func (m *model) toolsListed(msg toolsListedMsg) tea.Cmd {
	return m.listed(session.Tools, len(msg.tools), msg.err)
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
	gen, ctx, f, ok := m.sess.OpenListen(subs)
	if !ok {
		return nil
	}
	s := m.sess
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

// resourcesListed takes resources/list and resources/templates/list.
func (m *model) resourcesListed(msg resourcesListedMsg) tea.Cmd {
	p := m.resources
	p.warnings, p.errs = msg.warnings, nil
	if msg.err != nil {
		p.errs = append(p.errs, "resources/list failed: "+block(msg.err.Error()))
	}
	if msg.tmplErr != nil {
		p.errs = append(p.errs, "resources/templates/list failed: "+block(msg.tmplErr.Error()))
	}
	for _, w := range msg.warnings {
		m.server.warnings = append(m.server.warnings, w)
	}
	p.setLists(msg.res, msg.tmpls)
	p.setSize(m.lay.body)
	return m.listed(session.Resources, len(msg.res)+len(msg.tmpls), msg.err)
}

// promptsListed takes prompts/list.
func (m *model) promptsListed(msg promptsListedMsg) tea.Cmd {
	p := m.prompts
	p.warnings, p.errs = msg.warnings, nil
	if msg.err != nil {
		p.errs = append(p.errs, "prompts/list failed: "+block(msg.err.Error()))
	}
	m.server.warnings = append(m.server.warnings, msg.warnings...)
	p.setPrompts(msg.prompts)
	p.setSize(m.lay.body)
	return m.listed(session.Prompts, len(msg.prompts), msg.err)
}

// resourceRead finishes a resources/read op.
func (m *model) resourceRead(msg resourceReadMsg) {
	o := m.ops.Finish(msg.op, msg.err, m.now())
	m.resources.readDone(msg)
	if o != nil && msg.err != nil {
		m.dropInputDialogs(o.Method, o.Target)
	}
}

// promptGot finishes a prompts/get op.
func (m *model) promptGot(msg promptGotMsg) {
	o := m.ops.Finish(msg.op, msg.err, m.now())
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
	if m.sess == nil {
		return
	}
	if n := m.sess.Stream().Ended(msg.gen, msg.err); n != nil {
		m.say(*n)
	}
}

// logLevelSet takes the answer to logging/setLevel (or the modern _meta level).
func (m *model) logLevelSet(msg logLevelMsg) {
	if msg.err == nil {
		m.logs.serverLevel = msg.level
	}
	if m.sess != nil {
		m.say(m.sess.LogLevelNote(msg.level, msg.err))
	}
}

// pinged takes the ping's round trip.
func (m *model) pinged(msg pingMsg) {
	m.pinging, m.pingSeen = false, true
	m.ping, m.pingErr = msg.rtt, msg.err
	m.say(session.PingNote(msg.rtt, msg.err))
}

// resourceSaved says where a resource's contents went.
func (m *model) resourceSaved(msg savedMsg) {
	if msg.err != nil {
		m.resources.saved = "not saved: " + msg.err.Error()
		m.note("error", m.resources.saved)
	} else {
		m.resources.saved = fmt.Sprintf("saved %s to %s", count(msg.n, "byte", "bytes"), msg.path)
		m.note("info", m.resources.saved)
	}
}

// rootsResolved adds the roots resolved from paths; added later, the server hears of it.
func (m *model) rootsResolved(msg rootsResolvedMsg) tea.Cmd {
	m.roots.Add(msg.roots, msg.errs)
	for _, e := range msg.errs {
		m.note("warning", e)
	}
	if !msg.initial && len(msg.roots) > 0 {
		return m.rootsChanged()
	}
	return nil
}

// rootsNotified notes how notifications/roots/list_changed went.
func (m *model) rootsNotified(msg rootsNotifiedMsg) { m.say(session.RootsNotifiedNote(msg.err)) }

// formByID finds an open argument form.
func (m *model) formByID(id int) *argsForm {
	for _, f := range []*argsForm{m.resources.form, m.prompts.form} {
		if f != nil && f.id == id {
			return f
		}
	}
	return nil
}

// serverRequests opens a dialog per request the features cover, and answers the others
// at once (-32601, or -32602 for an undeclared elicitation mode), in arrival order.
func (m *model) serverRequests(reqs []*session.Inbound) tea.Cmd {
	var cmds []tea.Cmd
	for _, r := range reqs {
		if e := m.features.Supports(r.Method, r.Params); e != nil {
			refused := session.Refusal{Req: r, Err: e}
			m.say(refused.Note())
			cmds = append(cmds, answer(r, nil, e, "refused"))
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

// during names the request of ours a server request belongs to: for a modern input
// request the request whose input_required result carried it; in the legacy era whatever
// is in flight.
func (m *model) during(r *session.Inbound) string {
	if r.Modern() {
		if i, ok := m.tl.index(r.Seq); ok {
			if j, ok := m.tl.index(m.tl.evs[i].pair); ok {
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
	for _, o := range m.ops.Sorted() {
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

// rootsChanged tells a legacy server the roots changed (notifications/roots/list_changed);
// modern servers ask again when they need them.
func (m *model) rootsChanged() tea.Cmd {
	if m.sess == nil || !m.sess.RootsChanged() {
		return nil
	}
	return notifyRoots(m.sess)
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
		o, ctx := m.ops.Start(m.ctx, "resources/read", a.read, m.now())
		m.resources.startRead(a.key, a.read, o.ID)
		return readResource(ctx, m.sess, o.ID, a.key, a.read)
	case a.subscribe != "":
		if m.era() == mcpclient.EraModern {
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
		return subscribe(m.ctx, m.sess, a.subscribe, a.on)
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
	o, ctx := m.ops.Start(m.ctx, "prompts/get", a.get, m.now())
	m.prompts.startGet(a.get, a.args, o.ID)
	return getPrompt(ctx, m.sess, o.ID, a.get, a.args)
}

// cancelFocused cancels the request in flight of the focused pane (ctrl+x): an op, a task
// call (tasks/cancel), or the tool call.
func (m *model) cancelFocused() tea.Cmd {
	if c, ok := m.panes[m.focus].(opCanceler); ok {
		if o := c.runningOp(); o != nil {
			m.ops.Cancel(o.ID)
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
	for _, o := range m.ops.Sorted() {
		if o.Running() {
			m.ops.Cancel(o.ID)
			return nil
		}
	}
	return nil
}

// abandon cancels what is still running when the program ends (Run's cleanup): the ops,
// the listen stream, and the open server requests (answered -32603, session.Quitting).
func (m *model) abandon() {
	m.ops.CancelAll()
	if m.sess != nil {
		m.sess.Stream().Stop()
	}
	open := make([]*session.Inbound, 0, len(m.overlay.requests))
	for _, d := range m.overlay.requests {
		open = append(open, d.base().req)
	}
	session.Quitting(open)
	m.overlay.requests = nil
}
