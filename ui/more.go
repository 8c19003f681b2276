package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// listState coalesces list refreshes: a list_changed while a listing is in flight asks
// for one more listing after it, never a pile of them.
type listState struct {
	inFlight bool
	dirty    bool
	// changed is set when the listing in flight was caused by list_changed (say so).
	changed bool
	// recent holds the times of the latest list_changed notifications, to notice a server
	// that answers every listing with another list_changed (case B02 does: left alone, the
	// two would list forever); paused stops automatic re-listing until the user lists again.
	recent []time.Time
	paused bool
}

// listChangedBurst and listChangedWindow: this many list_changed of one kind within the
// window pause automatic re-listing.
const (
	listChangedBurst  = 5
	listChangedWindow = 2 * time.Second
)

// userListed clears the storm guard: the user asked for a listing.
func (st *listState) userListed() {
	st.paused = false
	st.recent = nil
}

// newPanes builds the panes (m's common bag exists) and their array, in tab order.
func (m *Model) newPanes(opts Options) {
	c := m.c
	m.features, m.requests, m.rootPaths = opts.Features, opts.Requests, opts.Roots
	m.ops, m.callTasks, m.dialogGuard = newOpTable(), map[int]string{}, 400*time.Millisecond
	ids := &formIDs{}
	m.resources = newResourcesPane(c, m.ops, ids)
	m.prompts = newPromptsPane(c, m.ops, ids)
	m.logs = newLogsPane(c)
	m.tasks = newTasksPane(c)
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
func (m *Model) note(level, text string) {
	now := m.now()
	m.logs.add(logEntry{at: now, kind: logClient, level: level, text: text})
	m.setFlash(text)
}

// setFlash shows text in the status bar for flashFor, and queues the redraw that takes it
// away then: without it an idle screen would keep an expired note (an old error) in view.
func (m *Model) setFlash(text string) {
	m.flash, m.flashUntil = text, m.now().Add(flashFor)
	m.pending = append(m.pending, tea.Tick(flashFor, func(time.Time) tea.Msg { return flashClearMsg{} }))
}

// takePending returns the queued Cmds, and a redraw tick while requests are in flight.
func (m *Model) takePending() tea.Cmd {
	cmds := m.pending
	m.pending = nil
	if !m.ticking && (m.ops.inFlight() > 0 || m.pinging) {
		m.ticking = true
		cmds = append(cmds, tea.Tick(250*time.Millisecond, func(time.Time) tea.Msg { return opTickMsg{} }))
	}
	return tea.Batch(cmds...)
}

// era is the era the session speaks (legacy until the handshake says otherwise).
func (m *Model) era() mcpclient.Era {
	if m.server.init != nil && m.server.init.Era != "" {
		return m.server.init.Era
	}
	return mcpclient.EraLegacy
}

// caps are the server's capabilities (zero before the handshake).
func (m *Model) caps() mcpclient.ServerCapabilities {
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

func listResources(ctx context.Context, s Session) tea.Cmd {
	return func() tea.Msg {
		res, w, err := s.ListResources(ctx)
		tmpls, w2, terr := s.ListResourceTemplates(ctx)
		return resourcesListedMsg{res: res, tmpls: tmpls, warnings: append(w, w2...), err: err, tmplErr: terr}
	}
}

func listPrompts(ctx context.Context, s Session) tea.Cmd {
	return func() tea.Msg {
		ps, w, err := s.ListPrompts(ctx)
		return promptsListedMsg{prompts: ps, warnings: w, err: err}
	}
}

// afterConnect lists everything the server offers and, in the modern era, opens the
// subscriptions/listen stream.
func (m *Model) afterConnect() tea.Cmd {
	if !m.c.canSend() {
		return m.recordedConnected()
	}
	caps := m.caps()
	m.toolsList.inFlight = true
	cmds := []tea.Cmd{listTools(m.ctx, m.sess)}
	if caps.Resources != nil {
		m.resList.inFlight = true
		m.resources.status = "listing resources…"
		cmds = append(cmds, listResources(m.ctx, m.sess))
	} else {
		m.resources.status = "the server offers no resources (no resources capability)"
		m.resources.list.empty = m.resources.status
	}
	if caps.Prompts != nil {
		m.promptList.inFlight = true
		m.prompts.status = "listing prompts…"
		cmds = append(cmds, listPrompts(m.ctx, m.sess))
	} else {
		m.prompts.status = "the server offers no prompts (no prompts capability)"
		m.prompts.list.empty = m.prompts.status
	}
	if taskCapList(caps.Tasks) {
		cmds = append(cmds, listTasks(m.ctx, m.sess))
	}
	if m.era() == mcpclient.EraModern {
		cmds = append(cmds, m.startListen())
	}
	return tea.Batch(cmds...)
}

// taskCapList reports whether a tasks capability offers tasks/list.
func taskCapList(raw json.RawMessage) bool {
	var t struct {
		List json.RawMessage `json:"list"`
	}
	return json.Unmarshal(raw, &t) == nil && t.List != nil
}

// autoRefresh answers a list_changed of one kind: it lists again (coalesced by refresh),
// unless the server is sending them in a storm, which pauses it with a note.
func (m *Model) autoRefresh(what string, at time.Time) tea.Cmd {
	st := m.listStateFor(what)
	// Offline and attached nothing lists again: no storm to pause, no note.
	if st == nil || st.paused || !m.c.canSend() {
		return nil
	}
	st.recent = append(st.recent, at)
	if len(st.recent) > listChangedBurst {
		st.recent = st.recent[len(st.recent)-listChangedBurst:]
	}
	if len(st.recent) == listChangedBurst && at.Sub(st.recent[0]) < listChangedWindow {
		st.paused = true
		m.note("warning", fmt.Sprintf("the server sent notifications/%s/list_changed %d times within %s (it may answer every listing with another one): automatic re-listing of %s is paused; r lists again", what, listChangedBurst, listChangedWindow, what))
		return nil
	}
	return m.refresh(what)
}

// listStateFor is the refresh bookkeeping of one kind: "tools", "resources" or "prompts".
func (m *Model) listStateFor(what string) *listState {
	switch what {
	case "tools":
		return &m.toolsList
	case "resources":
		return &m.resList
	case "prompts":
		return &m.promptList
	}
	return nil
}

// refresh lists one kind again after list_changed (or the r key), coalescing bursts.
func (m *Model) refresh(what string) tea.Cmd {
	if !m.c.canSend() || m.server.init == nil {
		return nil
	}
	var st *listState
	var cmd tea.Cmd
	switch what {
	case "tools":
		st, cmd = &m.toolsList, listTools(m.ctx, m.sess)
	case "resources":
		st, cmd = &m.resList, listResources(m.ctx, m.sess)
	case "prompts":
		st, cmd = &m.promptList, listPrompts(m.ctx, m.sess)
	default:
		return nil
	}
	st.changed = true
	if st.inFlight {
		st.dirty = true
		return nil
	}
	st.inFlight = true
	return cmd
}

// listed closes a listing: says what changed, and lists again if asked meanwhile.
func (m *Model) listed(what string, n int, err error) tea.Cmd {
	st := m.listStateFor(what)
	st.inFlight = false
	if st.changed {
		st.changed = false
		if err != nil {
			m.note("warning", fmt.Sprintf("%s list changed; listing it again failed: %s", what, err))
		} else {
			m.note("info", fmt.Sprintf("%s list changed: listed again, %s", what, count(n, strings.TrimSuffix(what, "s"), what)))
		}
	}
	if st.dirty {
		st.dirty = false
		return m.refresh(what)
	}
	return nil
}

// toolsListed is the tools part of toolsListedMsg handling (refresh bookkeeping).
func (m *Model) toolsListed(msg toolsListedMsg) tea.Cmd {
	return m.listed("tools", len(msg.tools), msg.err)
}

// observeEvent follows one timeline event for the panes beyond the call: logs, list_changed,
// resource updates, task status, server cancels, late responses.
func (m *Model) observeEvent(ev *mcpclient.Event) tea.Cmd {
	if ev.Kind == mcpclient.KindBatch && ev.Batch != nil {
		return m.observeBatch(ev)
	}
	m.ops.observe(ev)
	if l := ev.Life; l != nil && (l.Kind == mcpclient.LifeExited || l.Kind == mcpclient.LifeStdoutClosed) && m.c.canSend() {
		m.tasksServerGone(l)
	}
	if l := ev.Life; l != nil && (l.Kind == mcpclient.LifeExited || l.Kind == mcpclient.LifeStdoutClosed) && len(m.overlay.requests) > 0 {
		m.note("warning", fmt.Sprintf("the server is gone: %d server request(s) closed unanswered", len(m.overlay.requests)))
		m.overlay.requests = nil
	}
	if ev.Msg == nil || ev.Dir != mcpclient.ServerToClient {
		return nil
	}
	if ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse {
		if m.server.dead != "" && m.c.canSend() && m.call.afterExit(ev) {
			m.note("warning", fmt.Sprintf("response after the server's exit: %s (request #%d) was answered by a process that kept the server's stdout open; shown in 2 Call and on the wire (#%d), not used", ev.Method, ev.Pair, ev.Seq))
		}
		for _, p := range ev.Problems {
			switch p.Code {
			case "after-cancel":
				if ev.Method == "subscriptions/listen" {
					continue // the stream's final result, after we closed it to open a new one
				}
				m.note("warning", fmt.Sprintf("response after cancel: %s (request #%d) answered after you cancelled it; shown on the wire (#%d), not used", ev.Method, ev.Pair, ev.Seq))
				m.call.lateResponse(ev)
			case "after-timeout":
				m.note("warning", fmt.Sprintf("late response: %s (request #%d) answered after it had timed out; shown on the wire (#%d), not used", ev.Method, ev.Pair, ev.Seq))
				m.call.lateResponse(ev)
			}
		}
		return nil
	}
	if ev.Kind != mcpclient.KindNotification {
		return nil
	}
	method := ev.Msg.Method
	notice := func(text string) {
		m.logs.add(logEntry{seq: ev.Seq, at: ev.Time, kind: logNotice, level: "info", text: text})
	}
	switch method {
	case "notifications/message":
		m.logs.add(logMessage(ev))
	case "notifications/progress":
		// Drawn on the request it belongs to (Call tab, or the pane of the op).
	case "notifications/tools/list_changed":
		notice(method)
		return m.autoRefresh("tools", ev.Time)
	case "notifications/prompts/list_changed":
		notice(method)
		return m.autoRefresh("prompts", ev.Time)
	case "notifications/resources/list_changed":
		notice(method)
		return m.autoRefresh("resources", ev.Time)
	case "notifications/resources/updated":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(ev.Msg.Params, &p)
		notice(method + " " + p.URI)
		if m.resources.markUpdated(p.URI, ev.Time) {
			m.setFlash("resource updated: " + p.URI + " (5 Resources)")
		} else {
			m.note("info", "resource updated: "+p.URI+" (not in the list: a sub-resource?)")
		}
	case "notifications/tasks/status":
		notice(method)
		if t, ok := taskFromNotification(ev.Msg.Params); ok {
			return m.taskStatus(t, false)
		}
	case "notifications/tasks":
		if t, ok := mcpclient.ParseTaskNotification(ev.Msg); ok {
			notice(method + " " + t.TaskID + " " + t.Status)
			return m.taskNotified(*t)
		}
		notice(method + " " + compactJSON(ev.Msg.Params))
	case "notifications/cancelled":
		notice(method + " " + compactJSON(ev.Msg.Params))
		m.serverCancelled(ev.Msg.Params)
	default:
		notice(method + " " + compactJSON(ev.Msg.Params))
	}
	return nil
}

// observeBatch feeds each element of a JSON-RPC batch frame (JSON-RPC 2.0 §6; MCP
// 2025-03-26) to observeEvent, in order, as if it had come alone: a notifications/message
// inside a batch reaches Logs, a list_changed lists again. Each element carries the
// batch's Seq (its frame on the wire).
func (m *Model) observeBatch(ev *mcpclient.Event) tea.Cmd {
	var cmds []tea.Cmd
	for _, el := range ev.Batch.Elems {
		one := mcpclient.Event{Seq: ev.Seq, Time: ev.Time, Dir: ev.Dir, Kind: el.Kind, Raw: el.Raw,
			Size: int64(len(el.Raw)), Offset: ev.Offset, Line: ev.Line,
			Msg: el.Msg, Problems: el.Problems, Pair: el.Pair, Method: el.Method}
		if one.Kind == mcpclient.KindNotification {
			m.call.observe(&one) // progress of a call in flight
		}
		if c := m.observeEvent(&one); c != nil {
			cmds = append(cmds, c)
		}
	}
	return tea.Batch(cmds...)
}

// compactJSON writes raw JSON on one line (as given when it does not parse).
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// serverCancelled closes the dialog of a server request the server cancelled.
func (m *Model) serverCancelled(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == nil {
		return
	}
	for i, d := range m.overlay.requests {
		if r := d.base().req; r.id != nil && compactJSON(r.id) == compactJSON(p.RequestID) {
			m.overlay.remove(d)
			m.note("warning", fmt.Sprintf("the server cancelled its %s (id %s): the dialog is closed unanswered, as the spec asks", r.method, compactJSON(r.id)))
			if i == 0 && len(m.overlay.requests) > 0 {
				m.pending = append(m.pending, m.overlay.requests[0].focus())
			}
			return
		}
	}
}

// startListen (re)opens the modern subscriptions/listen stream with the list changes the
// server offers and the resources subscribed to (MCP 2026-07-28 basic/patterns/subscriptions).
func (m *Model) startListen() tea.Cmd {
	if m.listenCancel != nil {
		m.listenCancel()
		m.listenCancel = nil
	}
	caps := m.caps()
	var f mcpclient.ListenFilter
	f.ToolsListChanged = caps.Tools != nil && caps.Tools.ListChanged
	f.PromptsListChanged = caps.Prompts != nil && caps.Prompts.ListChanged
	f.ResourcesListChanged = caps.Resources != nil && caps.Resources.ListChanged
	for uri, on := range m.resources.subs {
		if on {
			f.ResourceSubscriptions = append(f.ResourceSubscriptions, uri)
		}
	}
	sortStrings(f.ResourceSubscriptions)
	m.listenOn = false
	if !f.ToolsListChanged && !f.PromptsListChanged && !f.ResourcesListChanged && len(f.ResourceSubscriptions) == 0 {
		return nil
	}
	m.listenGen++
	ctx, cancel := context.WithCancel(m.ctx)
	m.listenCancel, m.listenOn = cancel, true
	gen, s := m.listenGen, m.sess
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

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
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

func subscribe(ctx context.Context, s Session, uri string, on bool) tea.Cmd {
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

func setLogLevel(ctx context.Context, s Session, level string) tea.Cmd {
	return func() tea.Msg { return logLevelMsg{level: level, err: s.SetLogLevel(ctx, level)} }
}

func ping(ctx context.Context, s Session) tea.Cmd {
	return func() tea.Msg {
		rtt, err := s.Ping(ctx)
		return pingMsg{rtt: rtt, err: err}
	}
}

func notifyRoots(s Session) tea.Cmd {
	return func() tea.Msg { return rootsNotifiedMsg{err: s.NotifyRootsChanged()} }
}

// answered notes how answering a server request went.
func (m *Model) answered(msg answeredMsg) {
	if msg.err != nil {
		m.note("error", fmt.Sprintf("answering %s failed: %s", msg.method, msg.err))
	} else {
		m.note("info", fmt.Sprintf("%s: %s", msg.method, msg.what))
	}
}

// resourcesListed takes resources/list and resources/templates/list.
func (m *Model) resourcesListed(msg resourcesListedMsg) tea.Cmd {
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
	return m.listed("resources", len(msg.res)+len(msg.tmpls), msg.err)
}

// promptsListed takes prompts/list.
func (m *Model) promptsListed(msg promptsListedMsg) tea.Cmd {
	p := m.prompts
	p.warnings, p.errs = msg.warnings, nil
	if msg.err != nil {
		p.errs = append(p.errs, "prompts/list failed: "+block(msg.err.Error()))
	}
	m.server.warnings = append(m.server.warnings, msg.warnings...)
	p.setPrompts(msg.prompts)
	p.setSize(m.lay.body)
	return m.listed("prompts", len(msg.prompts), msg.err)
}

// resourceRead finishes a resources/read op.
func (m *Model) resourceRead(msg resourceReadMsg) {
	o := m.ops.finish(msg.op, msg.err, m.now())
	m.resources.readDone(msg)
	if o != nil && msg.err != nil {
		m.dropInputDialogs(o.method, o.target)
	}
}

// promptGot finishes a prompts/get op.
func (m *Model) promptGot(msg promptGotMsg) {
	o := m.ops.finish(msg.op, msg.err, m.now())
	m.prompts.got(msg)
	if o != nil && msg.err != nil {
		m.dropInputDialogs(o.method, o.target)
	}
}

// subscribed takes the answer to resources/subscribe or unsubscribe.
func (m *Model) subscribed(msg subscribedMsg) {
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
func (m *Model) listenEnded(msg listenEndedMsg) {
	if msg.gen != m.listenGen {
		return
	}
	m.listenOn = false
	switch {
	case errors.Is(msg.err, context.Canceled):
	case msg.err != nil:
		m.note("warning", "subscriptions/listen ended: "+msg.err.Error())
	default:
		m.note("info", "the server ended the subscriptions/listen stream")
	}
}

// logLevelSet takes the answer to logging/setLevel (or the modern _meta level).
func (m *Model) logLevelSet(msg logLevelMsg) {
	if msg.err != nil {
		m.note("error", fmt.Sprintf("setting the log level to %s failed: %s", msg.level, msg.err))
		return
	}
	m.logs.serverLevel = msg.level
	if m.era() == mcpclient.EraModern {
		m.note("info", "log level "+msg.level+": sent in each request's _meta from now on (modern era)")
	} else {
		m.note("info", "logging/setLevel "+msg.level+" accepted")
	}
}

// pinged takes the ping's round trip.
func (m *Model) pinged(msg pingMsg) {
	m.pinging, m.pingSeen = false, true
	m.ping, m.pingErr = msg.rtt, msg.err
	if msg.err != nil {
		m.note("error", "ping failed: "+msg.err.Error())
	} else {
		m.note("info", "ping: "+msg.rtt.Round(10*time.Microsecond).String()+" round trip")
	}
}

// resourceSaved says where a resource's contents went.
func (m *Model) resourceSaved(msg savedMsg) {
	if msg.err != nil {
		m.resources.saved = "not saved: " + msg.err.Error()
		m.note("error", m.resources.saved)
	} else {
		m.resources.saved = fmt.Sprintf("saved %s to %s", count(msg.n, "byte", "bytes"), msg.path)
		m.note("info", m.resources.saved)
	}
}

// rootsResolved adds the roots resolved from paths; added later, the server hears of it.
func (m *Model) rootsResolved(msg rootsResolvedMsg) tea.Cmd {
	m.roots = append(m.roots, msg.roots...)
	m.rootNotes = append(m.rootNotes, msg.errs...)
	for _, e := range msg.errs {
		m.note("warning", e)
	}
	if !msg.initial && len(msg.roots) > 0 {
		return m.rootsChanged()
	}
	return nil
}

// rootsNotified notes how notifications/roots/list_changed went.
func (m *Model) rootsNotified(msg rootsNotifiedMsg) {
	if msg.err != nil {
		m.note("error", "notifications/roots/list_changed failed: "+msg.err.Error())
	} else {
		m.note("info", "sent notifications/roots/list_changed")
	}
}

// taskPoll polls a followed task again unless it ended or following it stopped.
func (m *Model) taskPoll(msg taskPollMsg) tea.Cmd {
	e := m.tasks.tasks[msg.id]
	if e == nil || !m.c.canSend() {
		return nil
	}
	e.polling = false
	if e.task.Terminal() || e.pollErr != nil {
		// Ended, or following it stopped (a failed tasks/get, the server's death).
		return nil
	}
	return getTask(m.ctx, m.sess, msg.id, true)
}

// taskGot takes tasks/get's answer.
func (m *Model) taskGot(msg taskGotMsg) tea.Cmd {
	if msg.err != nil {
		text := fmt.Sprintf("tasks/get %s failed: %s", msg.id, msg.err)
		if e := m.tasks.tasks[msg.id]; e != nil {
			e.polling = false
			if msg.poll && !e.task.Terminal() {
				e.pollErr = msg.err
				m.tasks.rebuild()
				text += " · polling stopped (8 Tasks: enter tries again)"
			}
		}
		m.note("error", text)
		return nil
	}
	return m.taskStatus(*msg.task, msg.poll)
}

// taskCancelled takes tasks/cancel's answer.
func (m *Model) taskCancelled(msg taskCancelledMsg) tea.Cmd {
	if msg.err != nil {
		m.note("error", fmt.Sprintf("tasks/cancel %s failed: %s", msg.id, msg.err))
		return nil
	}
	m.note("info", "tasks/cancel "+msg.id+" accepted")
	if msg.task != nil && msg.task.TaskID != "" {
		return m.taskStatus(*msg.task, false)
	}
	return nil
}

// tasksListed takes tasks/list.
func (m *Model) tasksListed(msg tasksListedMsg) {
	m.tasks.warns = msg.warns
	if msg.err != nil {
		m.tasks.note = "tasks/list failed: " + msg.err.Error()
		return
	}
	m.tasks.note = "tasks/list: " + count(len(msg.tasks), "task", "tasks")
	for _, t := range msg.tasks {
		m.tasks.upsert(t, m.now())
	}
}

// formByID finds an open argument form.
func (m *Model) formByID(id int) *argsForm {
	for _, f := range []*argsForm{m.resources.form, m.prompts.form} {
		if f != nil && f.id == id {
			return f
		}
	}
	return nil
}

// serverRequests opens a dialog per request the features cover, and answers the others
// at once (-32601, or -32602 for an undeclared elicitation mode).
func (m *Model) serverRequests(reqs []*inbound) tea.Cmd {
	var cmds []tea.Cmd
	for _, r := range reqs {
		if e := m.features.supports(r.method, r.params); e != nil {
			m.note("warning", fmt.Sprintf("answered %s with %d at once: %s", r.method, e.Code, e.Message))
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
			m.setFlash(fmt.Sprintf("%s queued: %d server requests waiting", r.method, len(m.overlay.requests)))
		}
	}
	return tea.Batch(cmds...)
}

// during names the request of ours a server request belongs to: for a modern input
// request the request whose input_required result carried it; in the legacy era whatever
// is in flight.
func (m *Model) during(r *inbound) string {
	if r.modern() {
		if i, ok := m.tl.index(r.seq); ok {
			if j, ok := m.tl.index(m.tl.evs[i].pair); ok {
				if ev, ok := m.tl.full(j); ok && ev.Msg != nil {
					return fmt.Sprintf("%s %s (request #%d)", ev.Msg.Method, requestTarget(ev.Msg.Params), ev.Seq)
				}
			}
		}
		return ""
	}
	var parts []string
	for _, run := range m.call.running() {
		parts = append(parts, "tools/call "+run.tool)
	}
	for _, o := range m.ops.sorted() {
		if o.running() {
			parts = append(parts, o.method+" "+o.target)
		}
	}
	return strings.Join(parts, ", ")
}

// dropInputDialogs closes modern input dialogs whose request ended (cancelled, failed).
func (m *Model) dropInputDialogs(method, target string) {
	keep := m.overlay.requests[:0]
	dropped := 0
	for _, rd := range m.overlay.requests {
		d := rd.base()
		if d.req.modern() && d.during == "" {
			d.during = m.during(d.req)
		}
		if d.req.modern() && strings.HasPrefix(d.during, method+" "+target+" (") {
			dropped++
			continue
		}
		keep = append(keep, rd)
	}
	m.overlay.requests = keep
	if dropped > 0 {
		m.note("info", fmt.Sprintf("%d input request(s) of %s %s closed: the request ended", dropped, method, target))
		if len(m.overlay.requests) > 0 {
			m.pending = append(m.pending, m.overlay.requests[0].focus())
		}
	}
}

// rootsChanged tells a legacy server the roots changed (notifications/roots/list_changed);
// modern servers ask again when they need them.
func (m *Model) rootsChanged() tea.Cmd {
	if !m.c.canSend() || m.features.NoRoots || m.era() != mcpclient.EraLegacy || m.server.init == nil {
		return nil
	}
	return notifyRoots(m.sess)
}

// resourceAction runs what the Resources pane asked for.
func (m *Model) resourceAction(a *resourceAction) tea.Cmd {
	if a == nil || !m.c.canSend() {
		return nil
	}
	switch {
	case a.refresh:
		m.resList.changed = false
		m.resList.userListed()
		if m.resList.inFlight {
			return nil
		}
		m.resList.inFlight = true
		return listResources(m.ctx, m.sess)
	case a.read != "":
		o, ctx := m.ops.start(m.ctx, "resources/read", a.read, m.now())
		m.resources.startRead(a.key, a.read, o.id)
		return readResource(ctx, m.sess, o.id, a.key, a.read)
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
func (m *Model) promptAction(a *promptAction) tea.Cmd {
	if a == nil || !m.c.canSend() {
		return nil
	}
	if a.refresh {
		m.promptList.changed = false
		m.promptList.userListed()
		if m.promptList.inFlight {
			return nil
		}
		m.promptList.inFlight = true
		return listPrompts(m.ctx, m.sess)
	}
	o, ctx := m.ops.start(m.ctx, "prompts/get", a.get, m.now())
	m.prompts.startGet(a.get, a.args, o.id)
	return getPrompt(ctx, m.sess, o.id, a.get, a.args)
}

// taskAction runs what the Tasks pane asked for.
func (m *Model) taskAction(a *taskAction) tea.Cmd {
	if a == nil || !m.c.canSend() {
		return nil
	}
	switch {
	case a.list && m.era() == mcpclient.EraModern:
		m.tasks.note = "the modern tasks extension (io.modelcontextprotocol/tasks) has no tasks/list: this pane shows the tasks your tool calls created"
	case a.list:
		m.tasks.note = "listing tasks…"
		return listTasks(m.ctx, m.sess)
	case a.get != "":
		return getTask(m.ctx, m.sess, a.get, false)
	case a.result != "":
		if e := m.tasks.tasks[a.result]; e != nil {
			e.fetching, e.err = true, nil
		}
		return fetchTaskResult(m.ctx, m.sess, a.result)
	case a.cancel != "":
		return cancelTask(m.ctx, m.sess, a.cancel)
	}
	return nil
}

// taskRequired reports whether a tool must be called as a task
// (execution.taskSupport "required", MCP 2025-11-25 server/tools).
func (m *Model) taskRequired(name string) bool {
	t := m.toolNamed(name)
	if t == nil || len(t.Execution) == 0 {
		return false
	}
	var e struct {
		TaskSupport string `json:"taskSupport"`
	}
	return json.Unmarshal(t.Execution, &e) == nil && e.TaskSupport == "required"
}

// taskCreated follows a tools/call sent as a task: the task is shown and polled, and the
// call waits for its result.
func (m *Model) taskCreated(msg taskCreatedMsg) tea.Cmd {
	if msg.err != nil {
		m.call.finish(callDoneMsg{id: msg.callID, resp: msg.resp, err: msg.err}, m.now())
		return nil
	}
	e := m.tasks.upsert(*msg.task, m.now())
	e.tool, e.callID, e.created = msg.tool, msg.callID, msg.resp
	m.tasks.rebuild()
	m.callTasks[msg.callID] = msg.task.TaskID
	m.call.setTask(msg.callID, msg.task)
	m.note("info", taskRunsNote(msg.tool, msg.task.TaskID, msg.task.Status))
	return m.followTask(e)
}

// followTask polls a task of ours until it is terminal or needs input, then fetches its
// result (tasks/result blocks until the end, and carries the server's input requests).
func (m *Model) followTask(e *taskEntry) tea.Cmd {
	if e.modern || e.task.Modern() {
		return m.followModern(e)
	}
	if e.callID == 0 || e.fetching || e.result != nil || !m.c.canSend() {
		return nil
	}
	if e.task.Terminal() || e.task.Status == "input_required" {
		e.fetching = true
		return fetchTaskResult(m.ctx, m.sess, e.task.TaskID)
	}
	if e.polling {
		return nil
	}
	return schedulePoll(e)
}

// taskStatus records a task's status from tasks/get, tasks/cancel or a notification.
func (m *Model) taskStatus(t mcpclient.Task, poll bool) tea.Cmd {
	e := m.tasks.tasks[t.TaskID]
	if e != nil {
		e.pollErr = nil // the task is followed again
	}
	e = m.tasks.upsert(t, m.now())
	m.call.setTask(e.callID, &t)
	if poll {
		e.polling = false
	}
	return m.followTask(e)
}

// taskResult stores tasks/result and, for a task of our tools/call, finishes the call.
func (m *Model) taskResult(msg taskResultMsg) tea.Cmd {
	e := m.tasks.tasks[msg.id]
	if e == nil {
		return nil
	}
	e.fetching = false
	e.result, e.err = msg.resp, msg.err
	if msg.err != nil {
		m.note("error", fmt.Sprintf("tasks/result %s failed: %s", msg.id, msg.err))
	}
	if e.callID == 0 {
		return nil
	}
	done := callDoneMsg{id: e.callID, resp: msg.resp, err: msg.err}
	if msg.err == nil && msg.resp != nil {
		var res mcpclient.CallToolResult
		if err := json.Unmarshal(msg.resp.Msg.Result, &res); err != nil {
			done.err = fmt.Errorf("tasks/result is not a CallToolResult: %w", err)
		} else {
			done.res = &res
		}
	}
	m.call.finish(done, m.now())
	m.taskCallEnded(e)
	// A final status poll, so the list shows how it ended.
	if !e.task.Terminal() && m.c.canSend() {
		return getTask(m.ctx, m.sess, msg.id, false)
	}
	return nil
}

// cancelFocused cancels the request in flight of the focused pane (ctrl+x): an op, a task
// call (tasks/cancel), or the tool call.
func (m *Model) cancelFocused() tea.Cmd {
	var o *op
	switch m.focus {
	case paneResources:
		o = m.resources.runningOp()
	case panePrompts:
		o = m.prompts.runningOp()
	}
	if o != nil {
		m.ops.cancelOp(o.id)
		return nil
	}
	if run := m.call.cancelTarget(); run != nil {
		if id, ok := m.callTasks[run.id]; ok && m.c.canSend() {
			if e := m.tasks.tasks[id]; e != nil && e.modern {
				// Cooperative (ext-tasks §Task Cancellation): the call ends when the task does.
				m.note("info", "tasks/cancel sent for task "+id+": the call ends when the task does (cancellation is cooperative)")
				return cancelTask(m.ctx, m.sess, id)
			}
			// A task: tasks/cancel, and the call is freed at once; the Tasks tab follows it.
			m.call.finish(callDoneMsg{id: run.id, err: context.Canceled}, m.now())
			m.note("info", "tasks/cancel sent for task "+id)
			return cancelTask(m.ctx, m.sess, id)
		}
		m.call.cancelCall(run)
		return nil
	}
	for _, o := range m.ops.sorted() {
		if o.running() {
			m.ops.cancelOp(o.id)
			return nil
		}
	}
	return nil
}

// abandon cancels what is still running when the program ends (Run's cleanup).
func (m *Model) abandon() {
	for _, o := range m.ops.all {
		if o.running() && o.cancel != nil {
			o.cancel()
		}
	}
	if m.listenCancel != nil {
		m.listenCancel()
	}
	for _, d := range m.overlay.requests {
		_ = d.base().req.respond(nil, &mcpclient.RPCError{Code: -32603, Message: "mcp-inspect is quitting"})
	}
	m.overlay.requests = nil
}
