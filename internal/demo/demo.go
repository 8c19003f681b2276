// Package demo is the MCP server that `mcp-inspect demo` inspects: the mcp-inspect binary
// spawns itself through a hidden subcommand, which calls Serve on its stdin and stdout.
//
// It is a small but complete legacy-era stdio server (MCP 2024-11-05 … 2025-11-25), written
// to be read and poked at by someone learning the protocol: tools with every kind of
// argument, structured output, a tool error, an image, progress and cancellation, logging
// with logging/setLevel, static and templated resources, and prompts with arguments. It uses
// only the standard library.
package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

// Identity of the demo server, as sent in the initialize result's serverInfo.
const (
	ServerName    = "mcp-inspect-demo"
	ServerTitle   = "mcp-inspect demo server"
	ServerVersion = "1.0.0"
)

// LatestProtocolVersion is the version the demo answers with when the client asks for one
// it does not support (MCP 2025-11-25 basic/lifecycle §Version Negotiation).
const LatestProtocolVersion = "2025-11-25"

// SupportedProtocolVersions are the legacy-era revisions the demo speaks, oldest first. A
// client asking for one of them gets it echoed back in the initialize result.
func SupportedProtocolVersions() []string {
	return []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}
}

const instructions = "The demo server bundled with mcp-inspect. Everything works offline and is safe to call. " +
	"Start with echo or add; call slow to watch progress notifications and cancel it half way; " +
	"call log after logging/setLevel to see which messages get through; call create_issue and " +
	"then read the resource it links to (demo://issues/{number})."

// Serve runs the demo MCP server on the given stdio streams until in reaches EOF.
//
// Framing is newline-delimited JSON-RPC 2.0 (MCP basic/transports §stdio): one message per
// line on in and on out, lines of any length, "\r\n" accepted. Diagnostics (one line per
// request, cancellations, protocol mistakes of the client) go to errw, never to out.
// Each tools/call runs in its own goroutine, so a slow tool never holds up other requests;
// every other request is answered at once, in arrival order. Every frame is written to out
// with a single Write call under a lock, so frames never interleave.
//
// Serve returns nil when in reaches EOF, after in-flight calls have finished (slow calls are
// cancelled and answered with an error). It returns the error if reading in or writing out
// fails, and context.Cause(ctx) if ctx is done first; in that case a goroutine may stay
// blocked reading in until in is closed.
func Serve(ctx context.Context, in io.Reader, out io.Writer, errw io.Writer) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s := &server{
		out:      stdioserver.NewWriter(out),
		log:      log.New(errw, "mcp-inspect-demo: ", 0),
		fail:     cancel,
		inflight: map[string]*inflight{},
		logLevel: 0, // debug: until the client sets a level, every message is sent
	}
	s.log.Printf("ready: speaking MCP %s (newest) on stdio", LatestProtocolVersion)

	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := stdioserver.ReadLine(r)
			if err != nil {
				readErr <- err
				return
			}
			select {
			case lines <- line:
			case <-ctx.Done():
				return
			}
		}
	}()

	for {
		select {
		case line := <-lines:
			s.handleLine(ctx, line)
		case err := <-readErr:
			s.shutdown(errStdinEOF)
			if errors.Is(err, io.EOF) {
				s.log.Printf("stdin closed: exiting")
				return nil
			}
			return fmt.Errorf("demo: reading stdin: %w", err)
		case <-ctx.Done():
			s.shutdown(context.Cause(ctx))
			return context.Cause(ctx)
		}
	}
}

// server is the state of one demo session.
type server struct {
	out  *stdioserver.Writer
	log  *log.Logger
	fail context.CancelCauseFunc // stops Serve when out is broken
	wg   sync.WaitGroup

	mu              sync.Mutex
	protocolVersion string
	initialized     bool
	logLevel        int // index into logLevels: the least severe level still sent
	inflight        map[string]*inflight
	issues          []issue
}

// inflight is a request being handled.
type inflight struct {
	method string
	cancel context.CancelCauseFunc

	// mu orders notifications/cancelled against the request's own output: once cancelled
	// is set, nothing more is written for the request (no progress, no response).
	mu        sync.Mutex
	cancelled bool
}

// markCancelled records a notifications/cancelled and stops the handler.
func (c *inflight) markCancelled() {
	c.mu.Lock()
	c.cancelled = true
	c.mu.Unlock()
	c.cancel(errCancelled)
}

// stopReason is why a request's context was cancelled; constants, so no mutable globals.
type stopReason string

func (r stopReason) Error() string { return string(r) }

const (
	errCancelled stopReason = "cancelled by the client"
	errStdinEOF  stopReason = "the server is shutting down: stdin was closed"
)

// request is what a handler gets.
type request struct {
	id     json.RawMessage
	method string
	params json.RawMessage
	call   *inflight
}

// emit runs write unless the request was cancelled, and reports whether it ran.
func (s *server) emit(call *inflight, write func() error) bool {
	call.mu.Lock()
	defer call.mu.Unlock()
	if call.cancelled {
		return false
	}
	s.send(write)
	return true
}

func (s *server) send(write func() error) {
	if err := write(); err != nil {
		s.fail(fmt.Errorf("demo: writing stdout: %w", err))
	}
}

func (s *server) respondError(id json.RawMessage, code int, msg string, data any) {
	s.send(func() error { return s.out.RespondError(id, code, msg, data) })
}

// notify sends a notification on behalf of a request, unless that request was cancelled.
func (s *server) notify(call *inflight, method string, params any) bool {
	return s.emit(call, func() error { return s.out.Notify(method, params) })
}

// version returns the negotiated protocol version, or the latest before initialize.
func (s *server) version() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.protocolVersion == "" {
		return LatestProtocolVersion
	}
	return s.protocolVersion
}

// atLeast reports whether the negotiated revision is v or newer. Revisions are dates, so
// they compare as strings.
func (s *server) atLeast(v string) bool { return s.version() >= v }

func (s *server) handleLine(ctx context.Context, line []byte) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		s.log.Printf("ignoring an empty line")
		return
	}
	if !utf8.Valid(line) {
		s.log.Printf("parse error: the line is not valid UTF-8 (JSON-RPC messages MUST be UTF-8)")
		s.respondError(nil, stdioserver.CodeParseError, "Parse error: invalid UTF-8", nil)
		return
	}
	if trimmed[0] == '[' {
		// Batches existed only in 2025-03-26 and were removed in 2025-06-18.
		s.log.Printf("rejecting a JSON-RPC batch")
		s.respondError(nil, stdioserver.CodeInvalidRequest, "Invalid Request: batches are not supported", nil)
		return
	}
	msg, err := stdioserver.Parse(line)
	if err != nil {
		s.log.Printf("parse error: %v", err)
		s.respondError(nil, stdioserver.CodeParseError, "Parse error", nil)
		return
	}
	if msg.JSONRPC != "2.0" {
		s.log.Printf("invalid request: jsonrpc is %q, want \"2.0\"", msg.JSONRPC)
		s.respondError(msg.ID, stdioserver.CodeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`, nil)
		return
	}
	switch {
	case msg.IsRequest():
		s.startRequest(ctx, msg)
	case msg.IsNotification():
		s.handleNotification(msg)
	case msg.IsResponse():
		s.log.Printf("ignoring a response (id %s): the demo server sends no requests", msg.ID)
	default:
		s.log.Printf("invalid request: no method, result or error")
		s.respondError(msg.ID, stdioserver.CodeInvalidRequest, "Invalid Request", nil)
	}
}

func (s *server) startRequest(ctx context.Context, msg *stdioserver.Message) {
	if string(msg.ID) == "null" {
		s.respondError(nil, stdioserver.CodeInvalidRequest, "Invalid Request: id must not be null", nil)
		return
	}
	key := stdioserver.IDKey(msg.ID)
	s.mu.Lock()
	if prev, dup := s.inflight[key]; dup {
		s.mu.Unlock()
		s.log.Printf("rejecting %s: id %s is still in use by %s", msg.Method, key, prev.method)
		s.respondError(msg.ID, stdioserver.CodeInvalidRequest,
			fmt.Sprintf("Invalid Request: id %s is already in use by a request in progress", key), nil)
		return
	}
	rctx, cancel := context.WithCancelCause(ctx)
	call := &inflight{method: msg.Method, cancel: cancel}
	s.inflight[key] = call
	s.mu.Unlock()

	s.log.Printf("%s (id %s)", msg.Method, key)
	req := &request{id: msg.ID, method: msg.Method, params: msg.Params, call: call}
	run := func() {
		defer cancel(nil)
		result, err := s.handle(rctx, req)
		s.mu.Lock()
		delete(s.inflight, key)
		s.mu.Unlock()
		// After notifications/cancelled the receiver SHOULD NOT respond (MCP
		// basic/utilities/cancellation); emit skips the write then.
		if err != nil {
			var rpcErr *stdioserver.Error
			if !errors.As(err, &rpcErr) {
				rpcErr = &stdioserver.Error{Code: stdioserver.CodeInternalError, Message: err.Error()}
			}
			s.emit(call, func() error {
				return s.out.Send(struct {
					JSONRPC string             `json:"jsonrpc"`
					ID      json.RawMessage    `json:"id"`
					Error   *stdioserver.Error `json:"error"`
				}{"2.0", req.id, rpcErr})
			})
			return
		}
		s.emit(call, func() error { return s.out.Respond(req.id, result) })
	}
	if msg.Method != "tools/call" {
		// Everything but a tool call answers at once. Running it in order keeps the
		// session's state predictable: a request pipelined right after initialize or
		// logging/setLevel sees its effect.
		run()
		return
	}
	s.wg.Go(run)
}

// shutdown cancels what is still running and waits for it.
func (s *server) shutdown(cause error) {
	s.mu.Lock()
	for _, c := range s.inflight {
		c.cancel(cause)
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *server) handleNotification(msg *stdioserver.Message) {
	switch msg.Method {
	case "notifications/initialized":
		s.mu.Lock()
		s.initialized = true
		s.mu.Unlock()
		s.log.Printf("client sent notifications/initialized: session ready")
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason"`
		}
		if err := json.Unmarshal(msg.Params, &p); err != nil || p.RequestID == nil {
			s.log.Printf("ignoring notifications/cancelled without a requestId")
			return
		}
		key := stdioserver.IDKey(p.RequestID)
		s.mu.Lock()
		call, ok := s.inflight[key]
		s.mu.Unlock()
		switch {
		case !ok:
			s.log.Printf("ignoring notifications/cancelled for id %s: no such request in progress", key)
		case call.method == "initialize":
			s.log.Printf("ignoring notifications/cancelled for initialize, which MUST NOT be cancelled")
		default:
			call.markCancelled()
			s.log.Printf("cancelled request %s (%s): %s", key, call.method, orDefault(p.Reason, "no reason given"))
		}
	default:
		s.log.Printf("ignoring notification %s", msg.Method)
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func invalidParams(format string, args ...any) error {
	return &stdioserver.Error{Code: stdioserver.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// decodeParams decodes request params into v; missing params decode as {}.
func decodeParams(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return invalidParams("Invalid params: %v", err)
	}
	return nil
}

// checkCursor rejects any cursor: the demo's lists fit in one page, so it never hands one out
// (MCP basic/utilities/pagination: an invalid cursor SHOULD give -32602).
func checkCursor(raw json.RawMessage) error {
	var p struct {
		Cursor *string `json:"cursor"`
	}
	if err := decodeParams(raw, &p); err != nil {
		return err
	}
	if p.Cursor != nil {
		return invalidParams("Invalid cursor %q: this list has a single page", *p.Cursor)
	}
	return nil
}

func (s *server) handle(ctx context.Context, req *request) (any, error) {
	switch req.method {
	case "initialize":
		return s.initialize(req)
	case "ping":
		return struct{}{}, nil
	case "tools/list":
		if err := checkCursor(req.params); err != nil {
			return nil, err
		}
		return map[string]any{"tools": s.toolList()}, nil
	case "tools/call":
		return s.callTool(ctx, req)
	case "resources/list":
		if err := checkCursor(req.params); err != nil {
			return nil, err
		}
		return map[string]any{"resources": s.resourceList()}, nil
	case "resources/templates/list":
		if err := checkCursor(req.params); err != nil {
			return nil, err
		}
		return map[string]any{"resourceTemplates": resourceTemplates()}, nil
	case "resources/read":
		return s.readResource(req)
	case "prompts/list":
		if err := checkCursor(req.params); err != nil {
			return nil, err
		}
		return map[string]any{"prompts": s.promptList()}, nil
	case "prompts/get":
		return s.getPrompt(req)
	case "logging/setLevel":
		return s.setLevel(req)
	}
	s.log.Printf("method not found: %s", req.method)
	return nil, &stdioserver.Error{Code: stdioserver.CodeMethodNotFound, Message: "Method not found: " + req.method}
}

// initializeResult is an InitializeResult (MCP 2025-11-25 basic/lifecycle). Structs rather
// than maps keep the spec's field order on the wire.
type initializeResult struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    serverCapabilities `json:"capabilities"`
	ServerInfo      implementation     `json:"serverInfo"`
	Instructions    string             `json:"instructions,omitempty"`
}

type serverCapabilities struct {
	Tools     listChanged `json:"tools"`
	Resources struct{}    `json:"resources"`
	Prompts   struct{}    `json:"prompts"`
	Logging   struct{}    `json:"logging"`
}

type listChanged struct {
	ListChanged bool `json:"listChanged"`
}

type implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// initialize answers the legacy handshake (MCP 2025-11-25 basic/lifecycle §Initialization).
func (s *server) initialize(req *request) (any, error) {
	var p struct {
		ProtocolVersion string          `json:"protocolVersion"`
		ClientInfo      *implementation `json:"clientInfo"`
	}
	if err := decodeParams(req.params, &p); err != nil {
		return nil, err
	}
	version := LatestProtocolVersion
	if slices.Contains(SupportedProtocolVersions(), p.ProtocolVersion) {
		version = p.ProtocolVersion
	}
	client := "an unnamed client"
	if p.ClientInfo != nil {
		client = p.ClientInfo.Name + " " + p.ClientInfo.Version
	}
	s.log.Printf("initialize from %s: requested %q, answering %s", client, p.ProtocolVersion, version)
	s.mu.Lock()
	s.protocolVersion = version
	s.mu.Unlock()
	return initializeResult{
		ProtocolVersion: version,
		Capabilities:    serverCapabilities{Tools: listChanged{ListChanged: true}},
		ServerInfo:      implementation{Name: ServerName, Title: ServerTitle, Version: ServerVersion},
		Instructions:    instructions,
	}, nil
}

// logLevels are the RFC 5424 severities MCP uses, least severe first
// (MCP 2025-11-25 server/utilities/logging).
func logLevels() []string {
	return []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
}

func (s *server) setLevel(req *request) (any, error) {
	var p struct {
		Level string `json:"level"`
	}
	if err := decodeParams(req.params, &p); err != nil {
		return nil, err
	}
	i := slices.Index(logLevels(), p.Level)
	if i < 0 {
		return nil, invalidParams("Invalid log level %q: want one of %v", p.Level, logLevels())
	}
	s.mu.Lock()
	s.logLevel = i
	s.mu.Unlock()
	s.log.Printf("log level set to %s", p.Level)
	return struct{}{}, nil
}
