package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// spawnFailedText starts the dead-server text of a command that could not be spawned.
const spawnFailedText = "could not be started"

// stderrShown is how many last stderr lines the dead-server panel shows.
const stderrShown = 12

// observeLife updates the session facts from a lifecycle event.
func (s *serverInfo) observeLife(l *mcpclient.LifeInfo) {
	switch l.Kind {
	case mcpclient.LifeStarted:
		s.pid = l.PID
	case mcpclient.LifeSpawnFailed:
		s.state = mcpclient.StateDead
		s.dead = spawnFailedText
		if l.Err != nil {
			s.dead += ": " + l.Err.Error()
		}
	case mcpclient.LifeInitialized:
		if s.state == mcpclient.StateStarting {
			s.state = mcpclient.StateReady
		}
	case mcpclient.LifeStdoutClosed:
		if s.dead == "" {
			s.dead = "closed its stdout (pid " + strconv.Itoa(l.PID) + " still running)"
		}
		s.state = mcpclient.StateDead
	case mcpclient.LifeExited:
		e := mcpclient.ExitError{PID: l.PID, ExitCode: l.ExitCode, Signal: l.Signal}
		s.dead = e.How()
		if s.closing {
			s.state = mcpclient.StateClosed
		} else {
			s.state = mcpclient.StateDead
		}
	case mcpclient.LifeShutdown:
		s.closing = true
	case mcpclient.LifeNote:
		s.observeAuthNote(l.Text)
		if t, ok := strings.CutPrefix(l.Text, mcpclient.ListenNote); ok &&
			(strings.HasPrefix(t, "reconnect failed") || strings.HasPrefix(t, "could not open") || strings.Contains(t, "not reconnecting")) {
			s.streamLost = true
		}
		if t, ok := strings.CutPrefix(l.Text, mcpclient.FramingAutoNote); ok {
			s.framing = t
		}
		var v *mcpclient.ViolationError
		if s.strict == nil && errors.As(l.Err, &v) {
			s.strict = v
		}
	}
}

// strictStop is the violation a --strict session stopped at, from the lifecycle note or
// the handshake's error; nil when none.
func (s *serverInfo) strictStop() *mcpclient.ViolationError {
	if s.strict != nil {
		return s.strict
	}
	var v *mcpclient.ViolationError
	if errors.As(s.initErr, &v) {
		return v
	}
	return nil
}

// stateText is the connection state in words for the status bar. An opened trace with
// lines cut or unreadable says so next to it, whatever the recorded end (4 Server says
// which lines).
func (s *serverInfo) stateText() string {
	t := s.connText()
	if s.recorded && s.incomplete && !strings.Contains(t, "incomplete") {
		t += " · trace incomplete (4 Server says why)"
	}
	return t
}

// connText is the connection state in words, as the session or the recording left it.
func (s *serverInfo) connText() string {
	switch {
	case s.strictStop() != nil:
		return "stopped by --strict"
	case s.dead != "" && s.closing:
		return "closed"
	case s.dead != "":
		return "dead: " + s.dead
	case s.initErr != nil:
		return "handshake failed"
	case s.closing:
		return "closing"
	case s.recorded && s.eventsClosed && s.incomplete:
		// A trace without the server's exit: the recording was cut off (4 Server says how).
		return "recording ends here, incomplete (no exit recorded; 4 Server says why)"
	case s.recorded && s.eventsClosed:
		return "recording ends here (no exit recorded)"
	case s.recorded:
		// The recorded states go by as the trace is read: none of them is live.
		return "reading the trace…"
	}
	if s.streamLost && s.state == mcpclient.StateReady {
		return s.state.String() + " · GET stream lost (3 Wire says why)"
	}
	return s.state.String()
}

// failed reports whether the dead-server panel should be shown.
func (s *serverInfo) failed() bool {
	return (s.dead != "" && !s.closing) || s.initErr != nil || s.strictStop() != nil
}

// deadPanel says in plain words what happened to the server: how it ended, the command
// line, and its last stderr lines.
func (m *model) deadPanel(w int) []string {
	st := m.c.st
	s := &m.server
	if !s.failed() {
		return nil
	}
	inner := max(w-4, 10)
	var body []string
	v := s.strictStop()
	switch {
	case v != nil:
		// The server did not fail: --strict stopped the session, and mcp-inspect the server.
		body = append(body, wrapStyled(st.Error, fmt.Sprintf("--strict stopped the session at the first protocol violation (event #%d): %s", v.Seq, clean(v.Problem.Text)), inner)...)
		if r := mcpclient.Rule(v.Problem.Code); r != "" {
			body = append(body, wrapStyled(st.Muted, "rule: "+clean(r), inner)...)
		}
		stopped := "mcp-inspect then stopped the server"
		if s.dead != "" {
			stopped += " (after that it " + clean(s.dead) + ")"
		}
		body = append(body, wrapStyled(st.Muted, stopped+"; run without --strict to keep going and count violations", inner)...)
	case s.dead != "":
		body = append(body, wrapStyled(st.Error, "server "+clean(s.dead), inner)...)
	}
	// A server that never started had no handshake: the client's "exited with code -1" for it
	// would only mislead.
	if s.initErr != nil && v == nil && (s.dead == "" || !strings.Contains(s.initErr.Error(), s.dead)) && !strings.HasPrefix(s.dead, spawnFailedText) {
		body = append(body, wrapStyled(st.Error, "handshake failed: "+block(s.initErr.Error()), inner)...)
	}
	if len(m.argv) > 0 {
		body = append(body, wrapStyled(st.Muted, "command: "+clean(m.quoting.Join(m.argv)), inner)...)
	}
	if env := envText(m.envKeys); env != "" {
		body = append(body, wrapStyled(st.Muted, env, inner)...)
	}
	tail := m.tl.stderrTail(stderrShown)
	if len(tail) > 0 {
		body = append(body, "", st.Title.Render("last stderr lines"))
		for _, l := range tail {
			body = append(body, wrapStyled(st.Stderr, clean(l), inner)...)
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
	s := &m.server
	out := m.deadPanel(w)
	add := func(l ...string) { out = append(out, l...) }
	if s.init == nil {
		if m.handshaking() {
			add(st.Muted.Render(m.waitingText()))
		}
	} else {
		in := s.init
		add(st.Title.Render("server"))
		add(wrap(fmt.Sprintf("  name:     %s", clean(in.ServerInfo.Name)), w)...)
		if in.ServerInfo.Title != "" {
			add(wrap("  title:    "+clean(in.ServerInfo.Title), w)...)
		}
		add(wrap("  version:  "+clean(in.ServerInfo.Version), w)...)
		add(m.protocolLines(w)...)
		if s.framing != "" {
			add(wrapStyled(st.Warning, "  framing:  ⚠ "+clean(s.framing), w)...)
		}
		if s.pid > 0 {
			// An HTTP server has no process of ours: no pid line rather than "pid 0".
			add(fmt.Sprintf("  pid:      %d", s.pid))
		}
		add("", st.Title.Render("capabilities"))
		if lines, ok := m.panes[paneServer].(*serverPane).capsLines(in.Capabilities, w, len(out)); ok {
			add(lines...)
		} else if _, ok := prettyJSON(in.Capabilities); ok {
			add(jsonOrText(st, in.Capabilities, w)...)
		} else {
			add(st.Muted.Render("(none)"))
		}
		if mt, ok := findings.Instructions(in.Instructions); ok {
			add("", st.Title.Render("instructions")+st.Muted.Render(fmt.Sprintf(" (%d chars, for the model)", mt.Chars)))
			add(wrap(block(in.Instructions), w)...)
			for _, l := range mt.Lint {
				add(wrapStyled(st.Warning, "⚠ steering? "+clean(l), w)...)
			}
		}
	}
	add(m.serverMoreLines(w)...)
	if len(s.warnings) > 0 {
		add("", st.Title.Render("warnings"))
		for _, wn := range s.warnings {
			add(wrapStyled(st.Warning, "⚠ "+clean(wn), w)...)
		}
	}
	if s.toolsErr != nil {
		add("")
		add(wrapStyled(st.Error, "tools/list failed: "+block(s.toolsErr.Error()), w)...)
	}
	if len(m.argv) > 0 || len(m.envKeys) > 0 {
		add("", st.Title.Render("command"))
		if len(m.argv) > 0 {
			add(wrap("  "+clean(m.quoting.Join(m.argv)), w)...)
		}
		if env := envText(m.envKeys); env != "" {
			add(wrap("  "+env, w)...)
		}
	}
	if m.keep.path != "" {
		add("", st.Title.Render("session"))
		add(wrap("  recording to "+clean(m.keep.path), w)...)
		if m.keep.save != nil {
			add(st.Muted.Render("  S saves it under a name"))
		}
	}
	add("", st.Title.Render(fmt.Sprintf("stderr (%d lines, last %d)", len(m.tl.stderr), min(len(m.tl.stderr), 50))))
	for _, l := range m.tl.stderrTail(50) {
		add(wrapStyled(st.Stderr, clean(l), w)...)
	}
	return out
}

// serverMoreLines is the Server tab's part about eras and the client: what server/discover
// said (modern), the client capabilities offered, the roots, the log level and the ping.
func (m *model) serverMoreLines(w int) []string {
	st := m.c.st
	var out []string
	add := func(l ...string) { out = append(out, l...) }
	in := m.server.init
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
		if m.sess != nil && m.sess.Stream().On() {
			add(st.Success.Render("  subscriptions/listen open (list changes, resource updates)"))
		}
	default:
		add("  legacy (initialize handshake, " + clean(in.ProtocolVersion) + ")")
	}
	switch {
	case m.server.expired != "":
		add(st.Warning.Render("  session " + clean(m.server.expired) + " expired (HTTP 404)"))
	case m.server.sessionID != "":
		add("  session: " + clean(m.server.sessionID) + " (Mcp-Session-Id)")
	}
	if !m.c.canSend() {
		// Offline or attached the client is not this mcp-inspect: no offers, no R or P.
		return append(out, m.seenClientLines(w)...)
	}
	add("", st.Title.Render("client (mcp-inspect) offers"))
	add(wrap("  capabilities: "+string(m.features.Capabilities()), w)...)
	if in != nil && in.Era == mcpclient.EraModern && !m.features.NoTasks {
		// Modern requests also declare the tasks extension (mcpclient adds it; --no-tasks drops it).
		add(wrap("  extensions: "+mcpclient.TasksExtension+" (a tools/call may be answered with a task)", w)...)
	}
	if len(m.roots.List) == 0 {
		add("  roots: none (R adds some)")
	}
	for _, r := range m.roots.List {
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
	case m.pinging:
		add("  ping: waiting…")
	case m.pingErr != nil:
		add(wrapStyled(st.Error, "  ping failed: "+clean(m.pingErr.Error()), w)...)
	case m.pingSeen:
		add(fmt.Sprintf("  ping: %s round trip (P again)", m.ping.Round(10*time.Microsecond)))
	default:
		add(st.Muted.Render("  ping: P measures the round trip"))
	}
	return out
}
