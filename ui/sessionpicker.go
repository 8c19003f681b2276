package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
)

// SessionRow is one kept session the picker lists: what cmd reads of its trace header and
// its first bytes (trace.Summarize).
type SessionRow struct {
	// Path is the trace file; Server the command line or URL it recorded.
	Path   string
	Server string
	// Start is when the session began; Duration from its first event to its last.
	Start    time.Time
	Duration time.Duration
	// Size is the trace's size in bytes.
	Size int64
	// Calls counts tools/call requests; Violations the protocol problems found.
	Calls, Violations int
	// Partial says the counts cover the start of a large trace only (shown with a +).
	Partial bool
}

// Line is the row as one line of text, the columns the picker shows: start time (local),
// duration, size, calls, violations, server. cmd prints it without a terminal.
func (r SessionRow) Line() string {
	plus := ""
	if r.Partial {
		plus = "+"
	}
	return fmt.Sprintf("%s  %8s  %9s  %5s  %5s  %s", r.Start.Local().Format("2006-01-02 15:04:05"),
		r.Duration.Round(time.Second), jsontext.ByteSize(r.Size), fmt.Sprint(r.Calls)+plus, fmt.Sprint(r.Violations)+plus, r.Server)
}

// sessionsMsg brings the kept sessions read in a Cmd (Options.ListSessions).
type sessionsMsg struct {
	rows []SessionRow
	err  error
}

// openSessionAct asks the root to end this TUI and open the trace at path (Result.Open).
type openSessionAct struct{ path string }

// sessionPicker lists the kept sessions over the body; typing filters them (by any column),
// ↑/↓ move, enter opens the selected one, esc closes.
type sessionPicker struct {
	c     *common
	input *textinput.Model
	rows  []SessionRow
	// shown are the indices of the rows that match the filter; cursor indexes shown.
	shown  []int
	cursor int
	// loading is set until the rows arrive; err is why they could not be read.
	loading bool
	err     string
	w, h    int
}

// newSessionPicker is a picker waiting for its rows (setRows).
func newSessionPicker(c *common, width int) (*sessionPicker, tea.Cmd) {
	ti, cmd := newLinePrompt(c.st, "filter: ", "", max(width-12, 10))
	ti.Placeholder = "server, date, path…"
	return &sessionPicker{c: c, input: ti, loading: true}, cmd
}

// setRows gives the picker its rows (newest first) and applies the filter.
func (p *sessionPicker) setRows(rows []SessionRow, err error) {
	p.rows, p.loading = rows, false
	if err != nil {
		p.err = err.Error()
	}
	p.refilter()
}

// refilter keeps the rows whose line or path holds every word of the filter (any case).
func (p *sessionPicker) refilter() {
	words := strings.Fields(strings.ToLower(p.input.Value()))
	p.shown = p.shown[:0]
	for i, r := range p.rows {
		hay := strings.ToLower(r.Line() + " " + r.Path)
		ok := true
		for _, w := range words {
			if !strings.Contains(hay, w) {
				ok = false
				break
			}
		}
		if ok {
			p.shown = append(p.shown, i)
		}
	}
	p.cursor = min(p.cursor, max(len(p.shown)-1, 0))
}

// handleKey: enter opens the selected session, esc closes, ↑/↓ move, the rest edits the
// filter.
func (p *sessionPicker) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	k := p.c.keys
	switch {
	case key.Matches(msg, k.List.FilterUp):
		p.cursor = max(p.cursor-1, 0)
		return nil, nil
	case key.Matches(msg, k.List.FilterDown):
		p.cursor = min(p.cursor+1, max(len(p.shown)-1, 0))
		return nil, nil
	}
	outcome, cmd := promptKey(k, p.input, msg)
	switch outcome {
	case promptDismissed:
		return closeAct{}, nil
	case promptConfirmed:
		if len(p.shown) == 0 {
			return nil, nil
		}
		return openSessionAct{p.rows[p.shown[p.cursor]].Path}, nil
	}
	p.refilter()
	return nil, cmd
}

func (p *sessionPicker) setSize(w, h int) { p.w, p.h = w, h }
func (p *sessionPicker) focus() tea.Cmd   { return p.input.Focus() }
func (p *sessionPicker) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	return updateLine(p.input, msg), true
}
func (p *sessionPicker) bindings(k *keyMap) []key.Binding {
	return []key.Binding{k.List.FilterUp, k.List.FilterDown, k.Dialog.Confirm, k.Dialog.Dismiss}
}

// view draws the filter, the column heads and the rows that fit, the selected one marked.
func (p *sessionPicker) view() string {
	st := p.c.st
	var b strings.Builder
	b.WriteString(st.Title.Render("kept sessions") + "\n\n" + p.input.View() + "\n\n")
	switch {
	case p.loading:
		return b.String() + st.Muted.Render("reading the sessions…")
	case p.err != "":
		return b.String() + st.Error.Render("cannot read the sessions: "+clean(p.err))
	case len(p.rows) == 0:
		return b.String() + st.Muted.Render("no kept sessions")
	}
	b.WriteString(st.Muted.Render(fmt.Sprintf("%-19s  %8s  %9s  %5s  %5s  %s", "started", "duration", "size", "calls", "viol.", "server")) + "\n")
	room := max(p.h-8, 1)
	first := max(p.cursor-room+1, 0)
	for i := first; i < len(p.shown) && i < first+room; i++ {
		line := clean(p.rows[p.shown[i]].Line())
		if p.w > 2 {
			line = ansi.Truncate(line, p.w-2, "…")
		}
		if i == p.cursor {
			b.WriteString(st.Selection.Render("▸ "+line) + "\n")
		} else {
			b.WriteString("  " + line + "\n")
		}
	}
	b.WriteString("\n" + st.Muted.Render(fmt.Sprintf("%d of %d · ↑/↓ move · enter opens · esc closes", len(p.shown), len(p.rows))))
	return b.String()
}

// keptSessions is the root's state of the session picker.
type keptSessions struct {
	// list reads the kept sessions (Options.ListSessions); nil: no picker.
	list func() ([]SessionRow, error)
	// only says the picker is the whole TUI (open without a trace): closing it quits.
	only bool
	// open is the trace chosen, for Result.Open.
	open string
}

// openSessionPicker opens the picker over the body and reads the sessions in a Cmd.
func (m *model) openSessionPicker() tea.Cmd {
	if m.kept.list == nil || openDialog[*sessionPicker](m) != nil {
		return nil
	}
	p, focus := newSessionPicker(m.c, m.width)
	m.overlay.push(p)
	p.setSize(m.lay.body.w, m.lay.body.h)
	list := m.kept.list
	return tea.Batch(focus, func() tea.Msg {
		rows, err := list()
		return sessionsMsg{rows: rows, err: err}
	})
}

// pickAtStart opens the picker at start when it is the whole TUI.
func (m *model) pickAtStart() tea.Cmd {
	if !m.kept.only {
		return nil
	}
	return m.openSessionPicker()
}
