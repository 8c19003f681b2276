package ui

import (
	"errors"
	"fmt"
	"sort"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// The modern tasks extension io.modelcontextprotocol/tasks in the UI (ext-tasks
// specification/draft/tasks.md). A modern tools/call answered with a CreateTaskResult does
// not finish the call: the call shows the task, the Tasks pane follows it (tasks/get every
// pollIntervalMs, and notifications/tasks on a subscriptions/listen with its taskIds), an
// input_required task asks the user through the same dialogs as a multi round-trip request
// and sends each answer with tasks/update, and when the task ends its inline result (or
// error) becomes the call's result.

// taskListenEndedMsg says the subscriptions/listen stream of one task ended.
type taskListenEndedMsg struct {
	id  string
	err error
}

// updateTasksExt handles the extension's own messages; ok is false for others.
func (m *model) updateTasksExt(msg tea.Msg) (tea.Cmd, bool) {
	msg2, ok := msg.(taskListenEndedMsg)
	if !ok {
		return nil, false
	}
	if n := m.tasks.all.ListenEnded(msg2.id, msg2.err); n != nil {
		m.say(*n)
	}
	return nil, true
}

// modernTaskLines are the extension's fields in the Tasks pane's detail.
func modernTaskLines(st *themes.Styles, e *session.Task, w int) []string {
	t := e.Task
	var out []string
	switch {
	case t.TTLMs != nil:
		out = append(out, fmt.Sprintf("ttl:      %d ms", *t.TTLMs))
	default:
		out = append(out, "ttl:      unlimited (ttlMs null or absent)")
	}
	if t.PollIntervalMs != nil {
		out = append(out, fmt.Sprintf("poll:     every %d ms (pollIntervalMs)", *t.PollIntervalMs))
	}
	if len(t.InputRequests) > 0 {
		keys := make([]string, 0, len(t.InputRequests))
		for k := range t.InputRequests {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out = append(out, "", st.Title.Render("input requests"))
		for _, k := range keys {
			state := "not asked yet"
			if e.Asked[k] {
				state = "asked: answer in the dialog (sent with tasks/update)"
			}
			out = append(out, wrap(fmt.Sprintf("  %s: %s — %s", clean(k), clean(t.InputRequests[k].Method), state), w)...)
		}
	}
	return out
}

// modernOutcomeLines show a terminal task's inline result or error.
func modernOutcomeLines(st *themes.Styles, t mcpclient.Task, w int) []string {
	if !t.Terminal() {
		return nil
	}
	res, err := t.Outcome()
	if err != nil {
		return append([]string{""}, errorLines(st, err, w)...)
	}
	out := []string{"", st.Title.Render("result (inline)")}
	if pretty, ok := jsontext.Indent(res); ok {
		out = append(out, wrap(block(pretty), w)...)
	}
	return out
}

// taskCancelled reports whether err is the end of a task that reached the cancelled status.
func taskCancelled(err error) bool {
	var ce *mcpclient.TaskCancelledError
	return errors.As(err, &ce)
}
