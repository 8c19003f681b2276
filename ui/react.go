package ui

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// observeEvent follows one timeline event: the session observes it (Session.Observe: its
// state, the in-flight table, list refresh and its storm guard, tasks, a server's cancel,
// late responses, the server's end; recorded, what the event stands for) and the panes
// draw it and its reaction.
func (m *model) observeEvent(ev *mcpclient.Event) tea.Cmd {
	if ev.Kind == mcpclient.KindBatch && ev.Batch != nil {
		return m.observeBatch(ev)
	}
	r := m.observe(ev)
	cmd := m.recordedAnswer(r)
	if r.Gone != nil {
		m.serverGone(r.Gone)
	}
	if l := ev.Life; l != nil && l.Kind == mcpclient.LifeNote && strings.HasPrefix(l.Text, mcpclient.BufferedNote) {
		// Said where the user is looking (the status line, the Logs pane), with the key.
		text := l.Text
		if m.restart.enabled {
			text += " · " + m.c.keys.Global.RestartUnbuffered.Help().Key + " restarts it with " + unbufferedEnv
		}
		m.say(session.Note{Level: session.Warning, Text: text})
	}
	if ev.Dir == mcpclient.Stderr {
		m.logs.stderrFrame(ev)
		return cmd
	}
	if ev.Msg == nil || ev.Dir != mcpclient.ServerToClient {
		return cmd
	}
	if ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse {
		if m.state().Dead != "" && m.c.canSend() && m.call.afterExit(ev) {
			m.say(session.AfterExitNote(ev))
		}
		m.sayAll(r.Notes)
		if r.Late {
			m.call.lateResponse(ev)
		}
		return cmd
	}
	if ev.Kind != mcpclient.KindNotification {
		return cmd
	}
	m.drawNotification(ev)
	m.sayAll(r.Notes)
	if relist := m.relistLater(r.Relist); relist != nil {
		cmd = tea.Batch(cmd, relist)
	}
	if len(r.Tasks) == 0 && r.Cancelled == nil {
		return cmd // the common case (a flood of notifications): no slice to allocate
	}
	cmds := []tea.Cmd{cmd}
	for _, st := range r.Tasks {
		if e := m.tasks.all.Get(st.TaskID); e != nil {
			m.showTask(e.Task)
		}
		cmds = append(cmds, m.taskStep(st, false))
	}
	if r.Cancelled != nil {
		m.serverCancelled(r.Cancelled)
	}
	return tea.Batch(cmds...)
}

// observe is m.sess.Observe(ev) on the concrete session: through the interface, escape
// analysis must take ev as leaking, and addEvents' event would move to the heap, one
// allocation per event under a flood (BenchmarkKeyUnderFlood, BenchmarkOpenMillionUI).
func (m *model) observe(ev *mcpclient.Event) session.Reaction {
	switch s := m.sess.(type) {
	case *session.Live:
		return s.Observe(ev)
	case *session.Recorded:
		return s.Observe(ev)
	}
	panic("ui: a session that is neither live nor recorded")
}

// sayAll shows session notes in order.
func (m *model) sayAll(notes []session.Note) {
	for _, n := range notes {
		m.say(n)
	}
}

// serverGone stops following the tasks and closes the server's open requests unanswered
// when the server exits or closes its stdout.
func (m *model) serverGone(l *mcpclient.LifeInfo) {
	if m.c.canSend() {
		m.tasksServerGone(l)
	}
	if len(m.overlay.requests) > 0 {
		m.say(session.ServerGoneNote(len(m.overlay.requests)))
		m.overlay.requests = nil
	}
}

// drawNotification shows a server notification in the Logs pane (and a resource update
// in the Resources pane).
func (m *model) drawNotification(ev *mcpclient.Event) {
	method := ev.Msg.Method
	notice := func(text string) {
		m.logs.add(logEntry{seq: ev.Seq, at: ev.Time, kind: logNotice, level: "info", text: text})
	}
	if _, ok := session.ListChangedOf(method); ok {
		notice(method)
		return
	}
	switch method {
	case "notifications/message":
		m.logs.add(logMessage(ev))
	case "notifications/progress":
		// Drawn on the request it belongs to (Call tab, or the pane of the op).
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
	case "notifications/tasks":
		if t, ok := mcpclient.ParseTaskNotification(ev.Msg); ok {
			notice(method + " " + t.TaskID + " " + t.Status)
			return
		}
		notice(method + " " + jsontext.Compact(ev.Msg.Params))
	default:
		notice(method + " " + jsontext.Compact(ev.Msg.Params))
	}
}

// observeBatch feeds each element of a JSON-RPC batch frame (session.BatchEvents) to
// observeEvent, in order, as if it had come alone: a notifications/message inside a batch
// reaches Logs, a list_changed lists again.
func (m *model) observeBatch(ev *mcpclient.Event) tea.Cmd {
	var cmds []tea.Cmd
	for _, one := range session.BatchEvents(ev) {
		if one.Kind == mcpclient.KindNotification {
			m.call.observe(&one) // progress of a call in flight
		}
		if c := m.observeEvent(&one); c != nil {
			cmds = append(cmds, c)
		}
	}
	return tea.Batch(cmds...)
}

// serverCancelled closes the dialog of a server request the server cancelled.
func (m *model) serverCancelled(params json.RawMessage) {
	open := make([]*session.Inbound, len(m.overlay.requests))
	for i, d := range m.overlay.requests {
		open[i] = d.base().req
	}
	i, note, ok := session.ServerCancelled(params, open)
	if !ok {
		return
	}
	m.overlay.remove(m.overlay.requests[i])
	m.say(note)
	if i == 0 && len(m.overlay.requests) > 0 {
		m.pending = append(m.pending, m.overlay.requests[0].focus())
	}
}
