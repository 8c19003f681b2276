package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"mvdan.cc/sh/v3/shell"
)

// RestartRequest is what Run returns (as its error) when the user asked to restart the
// server, after a crash or to pick up a new build (cases B09, B10: "offer edit command /
// retry"). The caller stops the old server, starts Argv, and runs the UI again.
type RestartRequest struct {
	// Argv is the command line to start, as the user left it in the edit prompt: the argv
	// the UI was shown (Options.Argv, so redacted tokens appear as the caller redacted them;
	// the caller maps them back to the real values). Never empty.
	Argv []string
}

// Error says what was asked, so a caller that does not restart still reports something true.
func (r *RestartRequest) Error() string {
	return "restart requested: " + ShellJoin(r.Argv)
}

// restartState is the edit-and-restart prompt (the E key) while it is open.
type restartState struct {
	// enabled is Options.Restartable: the caller can start the server again.
	enabled bool
	prompt  *textinput.Model
	// err is why the typed command line was refused (bad quoting, empty).
	err string
	// asked is the request Run returns once the program has quit.
	asked *RestartRequest
}

// openRestartPrompt opens the command-line prompt, prefilled with the current command.
func (m *Model) openRestartPrompt() tea.Cmd {
	if !m.restart.enabled {
		m.note("warning", "restart: not available here (offline or attached)")
		return nil
	}
	var cmd tea.Cmd
	m.restart.prompt, cmd = newLinePrompt(m.c.st, "command: ", ShellJoin(m.argv), max(m.width-14, 10))
	m.restart.err = ""
	return cmd
}

// restartKey handles the prompt: enter restarts with the command line as typed (shell
// words: quotes and $VAR as in sh), esc closes.
func (m *Model) restartKey(msg tea.KeyPressMsg) tea.Cmd {
	outcome, cmd := promptKey(m.c.keys, m.restart.prompt, msg)
	switch outcome {
	case promptDismissed:
		m.restart.prompt = nil
	case promptConfirmed:
		argv, err := splitCommand(m.restart.prompt.Value())
		if err != nil {
			m.restart.err = err.Error()
			return nil
		}
		m.restart.prompt = nil
		m.restart.asked = &RestartRequest{Argv: argv}
		m.quitting = true
		return tea.Quit
	default:
		m.restart.err = ""
	}
	return cmd
}

// splitCommand reads a command line the way sh does (quotes, escapes, $VAR from the
// environment), without running anything.
func splitCommand(line string) ([]string, error) {
	argv, err := shell.Fields(line, nil)
	if err != nil {
		return nil, fmt.Errorf("cannot read the command line: %v", err)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("the command line is empty")
	}
	return argv, nil
}

// restartView draws the prompt over the body.
func (m *Model) restartView() string {
	st := m.c.st
	out := st.Title.Render("restart the server") + "\n\n" + m.restart.prompt.View() + "\n\n"
	if m.restart.err != "" {
		out += st.Error.Render(m.restart.err) + "\n\n"
	}
	var lines []string
	lines = append(lines, "enter stops the server (if it still runs) and starts this command in a new session · esc cancels")
	if len(m.envKeys) > 0 {
		lines = append(lines, "environment kept: "+strings.Join(m.envKeys, ", ")+" (values as given with -e)")
	}
	lines = append(lines, "the current session stays in its trace; the new one is recorded separately")
	return out + st.Muted.Render(strings.Join(lines, "\n"))
}
