package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// waitTickMsg redraws the handshake's elapsed time while it waits.
type waitTickMsg struct{}

// waitTick schedules the next redraw of the handshake wait, while there is one.
func (m *model) waitTick() tea.Cmd {
	if !m.handshaking() {
		return nil
	}
	m.tools.status = m.waitingText()
	return m.c.tick(time.Second, func(time.Time) tea.Msg { return waitTickMsg{} })
}

// handshaking reports whether the handshake is still waiting for its answer.
func (m *model) handshaking() bool {
	return m.c.canSend() && m.state().Init == nil && m.state().InitErr == nil && !m.state().Failed()
}

// waitingText says how long the handshake has waited, and for how long it may; during
// the --era auto probe, that it is the probe and that --era legacy skips it.
func (m *model) waitingText() string {
	waited := int(m.now().Sub(m.launch.started).Seconds())
	if m.probing() {
		// Short, to fit the Tools list; probeLines beside it says how long it may wait.
		return fmt.Sprintf("--era auto probe… %ds · --era legacy skips it", waited)
	}
	s := fmt.Sprintf("waiting for the handshake… %ds", waited)
	if m.state().Silence != "" {
		s = fmt.Sprintf("silent server (see beside) · %ds", waited) // short: the list is narrow
	}
	if m.launch.timeout > 0 {
		s += fmt.Sprintf(" (timeout %s)", m.launch.timeout)
	}
	if a := m.authText(); a != "" {
		s = a + " · " + s
	}
	return s
}

// probing reports whether the handshake waits for the --era auto server/discover probe:
// auto was asked for and no initialize (the fallback) was sent yet.
func (m *model) probing() bool {
	if m.launch.eraAsk != mcpclient.EraAuto || !m.handshaking() {
		return false
	}
	init, ok := m.tl.methodIdx["initialize"]
	if !ok {
		return true
	}
	for _, i := range m.tl.messages {
		if e := m.tl.evs.at(int(i)); e.method == init && e.dir == mcpclient.ClientToServer && e.kind == mcpclient.KindRequest {
			return false
		}
	}
	return true
}

// probeLines explain the --era auto probe while it waits (beside the Tools pane's waiting
// line): what it is, how long it waits, and the flags that skip it. Nil when not probing.
func (m *model) probeLines(w int) []string {
	if !m.probing() {
		return nil
	}
	st := m.c.st
	waited := m.now().Sub(m.launch.started).Truncate(time.Second)
	out := wrapStyled(st.Title, "finding out the server's era (--era auto)", w)
	out = append(out, wrapWords("mcp-inspect sent server/discover (MCP 2026-07-28) and waits for the answer: a modern server answers it; for a legacy one mcp-inspect falls back to initialize.", w)...)
	limit := "the request timeout"
	if m.launch.timeout > 0 {
		limit = m.launch.timeout.String()
	}
	out = append(out, "")
	out = append(out, wrapWords(fmt.Sprintf("waited %s. A server that has written nothing yet may still be starting, so the probe waits up to %s for it (--timeout); once the server writes something, it gives up %s after its last output.",
		waited, limit, mcpclient.DefaultProbeTimeout), w)...)
	out = append(out, "")
	for _, l := range wrapWords("--era legacy (initialize) or --era modern (server/discover only) skips the probe.", w) {
		out = append(out, st.Accent.Render(l))
	}
	out = append(out, st.Muted.Render("3 Wire shows the probe."), "")
	return out
}

// wrapWords wraps plain text at spaces only (ansi.Wrap also breaks at hyphens, which cuts
// flags like --timeout in two); a word longer than w is cut by fit when drawn.
func wrapWords(s string, w int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case ansi.StringWidth(line)+1+ansi.StringWidth(word) <= w:
			line += " " + word
		default:
			out = append(out, line)
			line = word
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// envText lists the variables the user set for the server, values masked:
// "env: KEY1=*** KEY2=***" ("" when there are none).
func envText(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = clean(k) + "=***"
	}
	return "env: " + strings.Join(parts, " ")
}

// authText asks the user to authorize while the handshake waits on it ("" otherwise);
// the URL is the server's text, escaped.
func (m *model) authText() string {
	if m.state().AuthURL == "" || !m.handshaking() {
		return ""
	}
	how := "opened with $BROWSER or the system's opener"
	if m.state().NoBrowser {
		how = "printed: no browser could be opened, open it by hand"
	}
	return "authorize in your browser: " + clean(m.state().AuthURL) + " (" + how + ")"
}

// silenceLines say, beside the Tools pane's waiting line, what is likely of a stdio server
// that says nothing (mcpclient.SilenceNote) and what to do; nil while it is not silent.
func (m *model) silenceLines(w int) []string {
	s := m.state()
	if s.Silence == "" || !m.handshaking() {
		return nil
	}
	st := m.c.st
	out := wrapStyled(st.Warning, "the server says nothing", w)
	out = append(out, wrapWords(s.Silence, w)...)
	out = append(out, "")
	if m.restart.enabled && !strings.Contains(s.Silence, "Content-Length framed") {
		for _, l := range wrapWords(m.c.keys.Global.RestartFramed.Help().Key+" restarts it with --framing content-length · "+m.c.keys.Global.RestartUnbuffered.Help().Key+" with "+unbufferedEnv+" · E edits the command", w) {
			out = append(out, st.Accent.Render(l))
		}
	}
	out = append(out, st.Muted.Render("3 Wire shows what was sent; 4 Server its stderr."), "")
	return out
}
