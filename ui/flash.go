package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/session"
)

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
	m.flash = flashState{text: text, until: m.now().Add(flashFor)}
	m.pending = append(m.pending, m.c.tick(flashFor, func(time.Time) tea.Msg { return flashClearMsg{} }))
}

// takePending returns the queued Cmds, and a redraw tick while requests are in flight.
func (m *model) takePending() tea.Cmd {
	cmds := m.pending
	m.pending = nil
	if !m.ticking && (m.sess.Inflight().Running() > 0 || m.state().Ping.Waiting) {
		m.ticking = true
		cmds = append(cmds, m.c.tick(250*time.Millisecond, func(time.Time) tea.Msg { return opTickMsg{} }))
	}
	return tea.Batch(cmds...)
}

// flashFor is how long a transient status line stays.
const flashFor = 6 * time.Second
