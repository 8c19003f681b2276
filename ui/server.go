package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// stderrShown is how many last stderr lines the dead-server panel shows.
const stderrShown = 12

// stateText is the connection state in words for the status bar. An opened trace with
// lines cut or unreadable says so next to it, whatever the recorded end (4 Server says
// which lines).
func stateText(s *session.State) string {
	t := connText(s)
	if s.FromTrace && s.Incomplete && !strings.Contains(t, "incomplete") {
		t += " · trace incomplete (4 Server says why)"
	}
	return t
}

// connText is the connection state in words, as the session or the recording left it.
func connText(s *session.State) string {
	switch {
	case s.StrictStop() != nil:
		return "stopped by --strict"
	case s.Dead != "" && s.Closing:
		return "closed"
	case s.Dead != "":
		return "dead: " + s.Dead
	case s.InitErr != nil:
		return "handshake failed"
	case s.Closing:
		return "closing"
	case s.FromTrace && s.EventsClosed && s.Incomplete:
		// A trace without the server's exit: the recording was cut off (4 Server says how).
		return "recording ends here, incomplete (no exit recorded; 4 Server says why)"
	case s.FromTrace && s.EventsClosed:
		return "recording ends here (no exit recorded)"
	case s.FromTrace:
		// The recorded states go by as the trace is read: none of them is live.
		return "reading the trace…"
	}
	if s.StreamLost && s.Conn == mcpclient.StateReady {
		return s.Conn.String() + " · GET stream lost (3 Wire says why)"
	}
	return s.Conn.String()
}

// toolsBanner is what the Tools pane shows above the tool, w wide: the dead-server panel
// once the session failed, else the era probe's lines.
func (m *model) toolsBanner(w int) []string {
	if m.state().Failed() {
		return m.deadPanel(w)
	}
	if lines := m.silenceLines(w); lines != nil {
		return lines
	}
	return m.probeLines(w)
}

// deadPanel says in plain words what happened to the server: how it ended, the command
// line, and its last stderr lines.
func (m *model) deadPanel(w int) []string {
	st := m.c.st
	s := m.state()
	if !s.Failed() {
		return nil
	}
	inner := max(w-4, 10)
	var body []string
	v := s.StrictStop()
	switch {
	case v != nil:
		// The server did not fail: --strict stopped the session, and mcp-inspect the server.
		body = append(body, wrapStyled(st.Error, fmt.Sprintf("--strict stopped the session at the first protocol violation (event #%d): %s", v.Seq, clean(v.Problem.Text)), inner)...)
		if r := mcpclient.Rule(v.Problem.Code); r != "" {
			body = append(body, wrapStyled(st.Muted, "rule: "+clean(r), inner)...)
		}
		stopped := "mcp-inspect then stopped the server"
		if s.Dead != "" {
			stopped += " (after that it " + clean(s.Dead) + ")"
		}
		body = append(body, wrapStyled(st.Muted, stopped+"; run without --strict to keep going and count violations", inner)...)
	case s.Dead != "":
		body = append(body, wrapStyled(st.Error, "server "+clean(s.Dead), inner)...)
	}
	// A server that never started had no handshake: the client's "exited with code -1" for it
	// would only mislead.
	if s.InitErr != nil && v == nil && (s.Dead == "" || !strings.Contains(s.InitErr.Error(), s.Dead)) && !strings.HasPrefix(s.Dead, session.SpawnFailedText) {
		body = append(body, wrapStyled(st.Error, "handshake failed: "+block(s.InitErr.Error()), inner)...)
	}
	if len(m.launch.argv) > 0 {
		body = append(body, wrapStyled(st.Muted, "command: "+clean(m.launch.quoting.Join(m.launch.argv)), inner)...)
	}
	if env := envText(m.launch.envKeys); env != "" {
		body = append(body, wrapStyled(st.Muted, env, inner)...)
	}
	tail := m.tl.stderrTail(stderrShown)
	if len(tail) > 0 {
		body = append(body, "", st.Title.Render("last stderr lines"))
		for _, l := range tail {
			body = append(body, wrapStyled(st.Stderr, clean(m.c.maskText(l)), inner)...)
		}
	} else {
		body = append(body, st.Muted.Render("(nothing on stderr)"))
	}
	if m.restart.enabled {
		body = append(body, "", st.Accent.Render("E")+st.Muted.Render(" edits the command and restarts the server (E then enter restarts it as it is)"))
	}
	box := st.Panel.Width(w).Render(strings.Join(body, "\n"))
	return append(strings.Split(box, "\n"), "")
}

// serverLines is the Server tab: identity, protocol, capabilities, instructions, warnings.
func (m *model) serverLines(w int) []string {
	st := m.c.st
	s := m.state()
	out := m.deadPanel(w)
	add := func(l ...string) { out = append(out, l...) }
	if s.Init == nil {
		if m.handshaking() {
			add(st.Muted.Render(m.waitingText()))
		}
	} else {
		in := s.Init
		add(st.Title.Render("server"))
		add(wrap(fmt.Sprintf("  name:     %s", clean(in.ServerInfo.Name)), w)...)
		if in.ServerInfo.Title != "" {
			add(wrap("  title:    "+clean(in.ServerInfo.Title), w)...)
		}
		add(wrap("  version:  "+clean(in.ServerInfo.Version), w)...)
		add(m.protocolLines(w)...)
		if s.Framing != "" {
			add(wrapStyled(st.Warning, "  framing:  ⚠ "+clean(s.Framing), w)...)
		}
		if s.Buffered != "" {
			add(wrapStyled(st.Warning, "  stdout:   ⚠ buffered: "+clean(s.Buffered), w)...)
			if m.restart.enabled {
				add(wrapStyled(st.Accent, "            "+m.c.keys.Global.RestartUnbuffered.Help().Key+" restarts it with "+unbufferedEnv, w)...)
			}
		}
		if n := m.tl.crlf; n > 0 {
			add(wrapStyled(st.Warning, fmt.Sprintf("  lines:    %s end in \\r\\n, from #%d on (MCP frames end with \\n; most clients cope, strict ones do not)", jsontext.Count(n, "stdout line", "stdout lines"), m.tl.crlfFirst), w)...)
		}
		if s.PID > 0 {
			// An HTTP server has no process of ours: no pid line rather than "pid 0".
			add(fmt.Sprintf("  pid:      %d", s.PID))
		}
		add("", st.Title.Render("capabilities"))
		if lines, ok := m.panes[paneServer].(*serverPane).capsLines(in.Capabilities, w, len(out)); ok {
			add(lines...)
		} else if _, ok := jsontext.Indent(in.Capabilities); ok {
			add(jsonOrText(st, in.Capabilities, w)...)
		} else {
			add(st.Muted.Render("(none)"))
		}
		if mt, ok := findings.Instructions(in.Instructions); ok {
			add("", st.Title.Render("instructions")+st.Muted.Render(fmt.Sprintf(" (%d chars, for the model)", mt.Chars)))
			add(m.c.md.lines(in.Instructions, w)...)
			for _, l := range mt.Lint {
				add(wrapStyled(st.Warning, "⚠ steering? "+clean(l), w)...)
			}
		}
	}
	add(m.serverMoreLines(w)...)
	if len(s.Warnings) > 0 {
		add("", st.Title.Render("warnings"))
		for _, wn := range s.Warnings {
			add(wrapStyled(st.Warning, "⚠ "+clean(wn), w)...)
		}
	}
	if s.ToolsErr != nil {
		add("")
		add(wrapStyled(st.Error, "tools/list failed: "+block(s.ToolsErr.Error()), w)...)
	}
	if len(m.launch.argv) > 0 || len(m.launch.envKeys) > 0 {
		add("", st.Title.Render("command"))
		if len(m.launch.argv) > 0 {
			add(wrap("  "+clean(m.launch.quoting.Join(m.launch.argv)), w)...)
		}
		if env := envText(m.launch.envKeys); env != "" {
			add(wrap("  "+env, w)...)
		}
	}
	if m.recording.path != "" {
		add("", st.Title.Render("session"))
		add(wrap("  recording to "+clean(m.recording.path), w)...)
		if m.recording.save != nil {
			add(st.Muted.Render("  S saves it under a name"))
		}
	}
	// Lines as the terminal shows them (a progress bar's redraws are one line), not frames.
	n := m.tl.tail.Count()
	add("", st.Title.Render(fmt.Sprintf("stderr (%d lines, last %d)", n, min(n, 50))))
	for _, l := range m.tl.stderrTail(50) {
		add(wrapStyled(st.Stderr, clean(m.c.maskText(l)), w)...)
	}
	return out
}

// serverMoreLines is the Server tab's part about eras and the client: what server/discover
// said (modern), the client capabilities offered, the roots, the log level and the ping.
func (m *model) serverMoreLines(w int) []string {
	st := m.c.st
	var out []string
	add := func(l ...string) { out = append(out, l...) }
	in := m.state().Init
	if in == nil {
		return nil
	}
	add("", st.Title.Render("era"))
	switch in.Era {
	case mcpclient.EraModern:
		add("  modern (2026-07-28): stateless, no initialize; every request carries _meta")
		if d := in.Discover; d != nil {
			add(wrap("  server/discover supportedVersions: "+clean(strings.Join(d.SupportedVersions, ", ")), w)...)
			if d.TTLMs != nil {
				add(fmt.Sprintf("  ttlMs: %d", *d.TTLMs))
			}
			if d.CacheScope != "" {
				add("  cacheScope: " + clean(d.CacheScope))
			}
			if len(d.Meta) > 0 {
				b, _ := json.Marshal(d.Meta)
				add("  _meta:")
				for _, l := range jsonOrText(st, b, max(w-4, 10)) {
					add("    " + l)
				}
			}
		}
		if s := m.sender(); s != nil && s.Stream().On() {
			add(st.Success.Render("  subscriptions/listen open (list changes, resource updates)"))
		}
	default:
		add("  legacy (initialize handshake, " + clean(in.ProtocolVersion) + ")")
	}
	switch {
	case m.state().Expired != "":
		add(st.Warning.Render("  session " + clean(m.state().Expired) + " expired (the server forgot it: see the wire)"))
	case m.state().SessionID != "":
		add("  session: " + clean(m.state().SessionID) + " (Mcp-Session-Id)")
	}
	if !m.c.canSend() {
		// Offline or attached the client is not this mcp-inspect: no offers, no R or P.
		return append(out, m.seenClientLines(w)...)
	}
	add("", st.Title.Render("client (mcp-inspect) offers"))
	add(wrap("  capabilities: "+string(m.sess.Features().Capabilities()), w)...)
	if in != nil && in.Era == mcpclient.EraModern && !m.sess.Features().NoTasks {
		// Modern requests also declare the tasks extension (mcpclient adds it; --no-tasks drops it).
		add(wrap("  extensions: "+mcpclient.TasksExtension+" (a tools/call may be answered with a task)", w)...)
	}
	if len(m.sess.Roots().List) == 0 {
		add("  roots: none (R adds some)")
	}
	for _, r := range m.sess.Roots().List {
		add(wrap("  root: "+clean(r.URI), w)...)
	}
	level := "not set (the server decides)"
	if m.logs.serverLevel != "" {
		level = m.logs.serverLevel
	}
	add("  log level: " + level + " (7 Logs, l)")
	switch {
	case in.Era == mcpclient.EraModern:
		add(st.Muted.Render("  ping: not in the modern era"))
	case m.state().Ping.Waiting:
		add("  ping: waiting…")
	case m.state().Ping.Err != nil:
		add(wrapStyled(st.Error, "  ping failed: "+clean(m.state().Ping.Err.Error()), w)...)
	case m.state().Ping.Seen:
		add(fmt.Sprintf("  ping: %s round trip (P again)", m.state().Ping.RTT.Round(10*time.Microsecond)))
	default:
		add(st.Muted.Render("  ping: P measures the round trip"))
	}
	return out
}
