package session

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// State is what a session knows of its server besides the listings, live or recorded: the
// handshake (MCP 2025-11-25 basic/lifecycle; server/discover in 2026-07-28), the process's
// or connection's lifecycle as its lifecycle events tell it, the HTTP session id
// (Streamable HTTP, Mcp-Session-Id), the authorization a handshake waits on, and the last
// ping. A session's Observe keeps it; its owner reads it and may add Warnings. It belongs
// to the goroutine that calls Observe.
type State struct {
	// Init is the latest handshake answer (nil before one); InitErr why the handshake
	// failed (nil when it did not).
	Init    *mcpclient.InitializeResult
	InitErr error
	// ToolsErr is why the last tools/list failed (nil when it did not).
	ToolsErr error
	// Warnings are what the session found wrong with the server so far, in order: the
	// handshake's, the listings', a trace's lost lines.
	Warnings []string
	// PID is the server process's id (0 when none: HTTP, or not started yet).
	PID int
	// Conn is the connection state (starting, ready, dead, closed).
	Conn mcpclient.State
	// Dead says in words how the server ended or why it could not start ("" while alive).
	Dead string
	// Closing is set once the owner began the shutdown (LifeShutdown).
	Closing bool
	// StreamLost is set when an HTTP session's GET stream ended for good: requests may
	// still work, server-initiated messages cannot come.
	StreamLost bool
	// Strict is the violation a --strict session stopped at (the server was then
	// stopped); nil when none.
	Strict *mcpclient.ViolationError
	// EventsClosed is set when the timeline ended (a trace read to its end, a tap gone).
	EventsClosed bool
	// FromTrace is set for a session read from a trace file; Incomplete when the reader
	// found lines cut or unreadable.
	FromTrace, Incomplete bool
	// SessionID is the HTTP session's Mcp-Session-Id after the last handshake ("" when
	// none); Expired is the id the server answered 404 to, until a new handshake succeeds.
	SessionID, Expired string
	// AuthURL is the OAuth authorization URL the handshake waits on; NoBrowser is set when
	// no browser could be opened for it.
	AuthURL   string
	NoBrowser bool
	// Framing is what a --framing auto session did about a server's Content-Length framing
	// (the lifecycle note without its prefix); "" when nothing.
	Framing string
	// Silence is what the client said of a stdio server that says nothing
	// (mcpclient.SilenceNote, without the prefix); "" when nothing.
	Silence string
	// Buffered is what the client said of a server whose answers came late, together or
	// only at its stdin's close (mcpclient.BufferedNote, without the prefix); "" when nothing.
	Buffered string
	// Ping is the last ping (legacy era; the 2026-07-28 revision removed it).
	Ping Ping
}

// Ping is the state of the user's ping: one in flight (Waiting), and the last answer's
// round trip (RTT) or error once one came (Seen).
type Ping struct {
	Waiting bool
	Seen    bool
	RTT     time.Duration
	Err     error
}

// NewState is the state of a session whose server is starting.
func NewState() State { return State{Conn: mcpclient.StateStarting} }

// Era is the handshake's era (EraLegacy before one).
func (s *State) Era() mcpclient.Era {
	if s.Init != nil && s.Init.Era != "" {
		return s.Init.Era
	}
	return mcpclient.EraLegacy
}

// Caps are the server's capabilities (zero before the handshake).
func (s *State) Caps() mcpclient.ServerCapabilities {
	if s.Init == nil {
		return mcpclient.ServerCapabilities{}
	}
	return s.Init.Caps
}

// Handshook records a handshake's outcome: its error, or its answer with its warnings and
// the session id it opened (a new session clears an expired one).
func (s *State) Handshook(h Handshake) {
	if h.Err != nil || h.Result == nil {
		if h.Err != nil {
			s.InitErr = h.Err
		}
		return
	}
	s.Init, s.SessionID, s.Expired = h.Result, h.SessionID, ""
	s.Warnings = append(s.Warnings, h.Result.Warnings...)
	if s.Conn == mcpclient.StateStarting {
		s.Conn = mcpclient.StateReady
	}
}

// SpawnFailedText starts Dead for a command that could not be started.
const SpawnFailedText = "could not be started"

// ObserveLife follows one lifecycle event: the process started, exited or closed its
// stdout, the owner shut it down, or a note of the transport (the GET stream lost, the
// framing probe, authorization, a --strict stop).
func (s *State) ObserveLife(l *mcpclient.LifeInfo) {
	switch l.Kind {
	case mcpclient.LifeStarted:
		s.PID = l.PID
	case mcpclient.LifeSpawnFailed:
		s.Conn, s.Dead = mcpclient.StateDead, SpawnFailedText
		if l.Err != nil {
			s.Dead += ": " + l.Err.Error()
		}
	case mcpclient.LifeInitialized:
		if s.Conn == mcpclient.StateStarting {
			s.Conn = mcpclient.StateReady
		}
	case mcpclient.LifeStdoutClosed:
		if s.Dead == "" {
			s.Dead = "closed its stdout (pid " + strconv.Itoa(l.PID) + " still running)"
		}
		s.Conn = mcpclient.StateDead
	case mcpclient.LifeExited:
		e := mcpclient.ExitError{PID: l.PID, ExitCode: l.ExitCode, Signal: l.Signal}
		s.Dead, s.Conn = e.How(), mcpclient.StateDead
		if s.Closing {
			s.Conn = mcpclient.StateClosed
		}
	case mcpclient.LifeShutdown:
		s.Closing = true
	case mcpclient.LifeNote:
		s.observeNote(l)
	}
}

// observeNote takes the transport's notes that change what the session can do.
func (s *State) observeNote(l *mcpclient.LifeInfo) {
	text := l.Text
	switch {
	case strings.HasPrefix(text, mcpclient.AuthorizeNote):
		if i := strings.Index(text, mcpclient.AuthorizeNoteURL); i >= 0 {
			s.AuthURL, s.NoBrowser = text[i+len(mcpclient.AuthorizeNoteURL):], false
		}
	case strings.HasPrefix(text, mcpclient.NoBrowserNote):
		s.NoBrowser = true
	}
	if l.Cond == mcpclient.NoteStreamLost {
		s.StreamLost = true
	}
	if t, ok := strings.CutPrefix(text, mcpclient.FramingAutoNote); ok {
		s.Framing = t
	}
	if t, ok := strings.CutPrefix(text, mcpclient.SilenceNote); ok {
		s.Silence = t
	}
	if t, ok := strings.CutPrefix(text, mcpclient.BufferedNote); ok {
		s.Buffered = t
	}
	var v *mcpclient.ViolationError
	if s.Strict == nil && errors.As(l.Err, &v) {
		s.Strict = v
	}
}

// StrictStop is the violation a --strict session stopped at, from the lifecycle note or
// the handshake's error; nil when none.
func (s *State) StrictStop() *mcpclient.ViolationError {
	if s.Strict != nil {
		return s.Strict
	}
	var v *mcpclient.ViolationError
	if errors.As(s.InitErr, &v) {
		return v
	}
	return nil
}

// Failed reports whether the session ended in a failure its owner should explain: the
// server died (not at the owner's shutdown), the handshake failed, or --strict stopped it.
func (s *State) Failed() bool {
	return (s.Dead != "" && !s.Closing) || s.InitErr != nil || s.StrictStop() != nil
}

// ProtocolWarning reports whether the negotiated protocol version deserves a warning: a
// version mcp-inspect does not know, or a handshake warning about the protocol.
func (s *State) ProtocolWarning() bool {
	if s.Init == nil {
		return false
	}
	if !mcpclient.KnownProtocolVersion(s.Init.ProtocolVersion) {
		return true
	}
	for _, w := range s.Init.Warnings {
		if strings.Contains(strings.ToLower(w), "protocol") {
			return true
		}
	}
	return false
}
