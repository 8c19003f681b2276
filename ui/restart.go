package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Result is how the TUI ended, beyond an error.
type Result struct {
	// Restart is the command line the user asked to restart the server with (the E key),
	// as left in the edit prompt: the argv the UI was shown (Options.Argv, so redacted
	// tokens appear as the caller redacted them; the caller maps them back to the real
	// values). Nil when the user quit without asking for a restart; never empty otherwise.
	// The caller stops the old server, starts Restart, and runs the UI again.
	Restart []string
	// Open is the kept session's trace the user chose in the session picker: the caller
	// opens it in a new TUI (as mcp-inspect open TRACE). "" otherwise.
	Open string
	// Roots are the roots offered when the restart was asked for (as edited with R):
	// file:// URIs or paths, for the next session's Options.Roots. Nil without a restart.
	Roots []string
	// Framing is the framing the restart asked for (the L key on a silent server:
	// mcpclient.FramingContentLength); "" keeps the session's.
	Framing mcpclient.Framing
	// Env are NAME=value pairs the restart adds to the server's environment (the U key:
	// PYTHONUNBUFFERED=1); nil adds none.
	Env []string
}

// restartState is whether the server can be restarted (the E key) and what was asked.
type restartState struct {
	// enabled is Options.Restartable: the caller can start the server again.
	enabled bool
	// asked is the request Run returns once the program has quit; framing, when set, the
	// framing it asks for.
	asked   []string
	framing mcpclient.Framing
	env     []string
}

// unbufferedEnv is what the U key adds to a server's environment: Python flushes stdout
// after each write with it (the commonest block-buffered server); others ignore it.
const unbufferedEnv = "PYTHONUNBUFFERED=1"

// restartUnbuffered restarts a stdio server with PYTHONUNBUFFERED=1 (the U key): offered
// when its answers came late, together or only at exit, or when it says nothing (both only
// ever said of a stdio server).
func (m *model) restartUnbuffered() tea.Cmd {
	s := m.state()
	switch {
	case !m.restart.enabled:
		m.note("warning", "restart: not available here (offline or attached)")
		return nil
	case s.Buffered == "" && s.Silence == "":
		m.note("warning", "U restarts a stdio server whose stdout is buffered with "+unbufferedEnv+"; nothing says this one's is")
		return nil
	}
	m.restart.asked, m.restart.env, m.quitting = m.launch.argv, []string{unbufferedEnv}, true
	return tea.Quit
}

// restartFramed restarts a silent stdio server with --framing content-length (the L key):
// the course's first server, framed LSP-style, says nothing to newline JSON.
func (m *model) restartFramed() tea.Cmd {
	switch {
	case !m.restart.enabled:
		m.note("warning", "restart: not available here (offline or attached)")
		return nil
	case m.state().Silence == "" || !m.handshaking():
		m.note("warning", "L restarts a silent stdio server with --framing content-length; this one is not silent")
		return nil
	}
	m.restart.asked, m.restart.framing, m.quitting = m.launch.argv, mcpclient.FramingContentLength, true
	return tea.Quit
}

// restartPrompt is the edit-and-restart dialog (the E key): the command line to start.
type restartPrompt struct {
	c     *common
	input *textinput.Model
	// quoting reads the typed command line; envKeys are the -e names kept.
	quoting shellwords.Quoting
	envKeys []string
	// err is why the typed command line was refused (bad quoting, empty).
	err string
}

// openRestartPrompt opens the command-line prompt, prefilled with the current command.
func (m *model) openRestartPrompt() tea.Cmd {
	if !m.restart.enabled {
		m.note("warning", "restart: not available here (offline or attached)")
		return nil
	}
	ti, cmd := newLinePrompt(m.c.st, "command: ", m.launch.quoting.Join(m.launch.argv), max(m.width-14, 10))
	m.overlay.push(&restartPrompt{c: m.c, input: ti, quoting: m.launch.quoting, envKeys: m.launch.envKeys})
	return cmd
}

// restartKey handles the prompt: enter restarts with the command line as typed, read in
// the UI's quoting (sh's quotes and $VAR, or cmd.exe's %VAR% and CommandLineToArgvW's
// words), esc closes.
func (p *restartPrompt) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	outcome, cmd := promptKey(p.c.keys, p.input, msg)
	switch outcome {
	case promptDismissed:
		return closeAct{}, nil
	case promptConfirmed:
		argv, err := p.quoting.Split(p.input.Value())
		if err != nil {
			p.err = err.Error()
			return nil, nil
		}
		return restartAct{argv}, nil
	default:
		p.err = ""
	}
	return nil, cmd
}

func (p *restartPrompt) setSize(int, int) {}
func (p *restartPrompt) focus() tea.Cmd   { return p.input.Focus() }
func (p *restartPrompt) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	return updateLine(p.input, msg), true
}
func (p *restartPrompt) bindings(k *keyMap) []key.Binding {
	return k.offered("line")
}

// view draws the prompt over the body.
func (p *restartPrompt) view() string {
	st := p.c.st
	out := st.Title.Render("restart the server") + "\n\n" + p.input.View() + "\n\n"
	if p.err != "" {
		out += st.Error.Render(p.err) + "\n\n"
	}
	var lines []string
	lines = append(lines, "enter stops the server (if it still runs) and starts this command in a new session · esc cancels")
	if len(p.envKeys) > 0 {
		lines = append(lines, "environment kept: "+strings.Join(p.envKeys, ", ")+" (values as given with -e)")
	}
	lines = append(lines, "the current session stays in its trace; the new one is recorded separately")
	return out + st.Muted.Render(strings.Join(lines, "\n"))
}
