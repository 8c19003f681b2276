package mcpclient

// The Client's side of the HTTP seam: starting and ending an HTTP session, sending a frame
// through the transport, and taking back what arrives in bodies and SSE frames.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// connectHTTP sets up an HTTP session. Nothing is sent until the first request: the
// handshake (Connect) is the first POST.
func (c *Client) connectHTTP() error {
	c.argv = []string{c.cfg.URL}
	u, err := url.Parse(c.cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		if err == nil {
			err = errNoTransport
		}
		err = &SpawnError{Argv: c.argv, Err: fmt.Errorf("%q is not a server URL: %w", c.cfg.URL, err)}
		c.state = StateDead
		c.dead = &ExitError{ExitCode: -1}
		c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeSpawnFailed, Err: err, Text: err.Error()}})
		c.closeQueues()
		close(c.exitDone)
		return err
	}
	switch c.cfg.Transport {
	case TransportSSE:
		c.tr = newLegacySSE(c)
	default:
		c.cfg.Transport = TransportHTTP
		c.tr = newStreamable(c)
	}
	c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeStarted, Text: fmt.Sprintf("connecting to %s (%s)", c.cfg.URL, c.transportName())}})
	return nil
}

func (c *Client) transportName() string {
	if c.cfg.Transport == TransportSSE {
		return "HTTP+SSE, 2024-11-05"
	}
	return "Streamable HTTP"
}

// URL is the remote server's endpoint, "" for a stdio session.
func (c *Client) URL() string { return c.cfg.URL }

// TransportKind says how the server is reached.
func (c *Client) TransportKind() Transport {
	if c.cfg.URL == "" {
		return TransportStdio
	}
	return c.cfg.Transport
}

// sendHTTPLocked records a client frame and hands it to the transport. Its Raw is the
// exact body POSTed (no newline: HTTP frames the message).
func (c *Client) sendHTTPLocked(b []byte, known Kind, knownMsg *Message) error {
	raw := append([]byte(nil), b...)
	kind, msg, seq := c.recordSentLocked(raw, known, knownMsg, ClassifyBody, time.Time{})
	f := outFrame{seq: seq, body: raw, msg: msg, kind: kind, era: c.era}
	if c.era == EraModern {
		f.version = c.modernVersion
	}
	c.tr.send(f)
	return nil
}

// ClassifyBody classifies a message that HTTP framed (a POST body, a JSON response body, an
// SSE event's data): like Classify, without the stdio rule that a frame ends with a newline.
func ClassifyBody(raw []byte) (Kind, *Message, []Problem) {
	if bytes.HasSuffix(raw, []byte("\n")) {
		k, m, ps := Classify(raw)
		return k, m, bodyProblems(ps)
	}
	line := make([]byte, len(raw)+1)
	copy(line, raw)
	line[len(raw)] = '\n'
	k, m, ps := Classify(line)
	return k, m, bodyProblems(ps)
}

// bodyProblems leaves out the problems of stdio's line framing: an HTTP body or an SSE
// event's data is one message whatever newlines it holds (a pretty-printed JSON body, data
// over several data: lines, CRLF line ends are all fine there).
func bodyProblems(ps []Problem) []Problem {
	stdio := func(p Problem) bool { return p.Code == CodeMultiline || p.Code == CodeCRLF || p.Code == CodeNoNewline }
	if !slices.ContainsFunc(ps, stdio) {
		return ps
	}
	return slices.DeleteFunc(slices.Clone(ps), stdio)
}

// handleBody takes one message from an HTTP body or SSE frame as a server frame.
func (c *Client) handleBody(raw []byte, exchange uint64) {
	c.mu.Lock()
	c.bodyOff += int64(len(raw))
	c.bodyLine++
	off, line := c.bodyOff-int64(len(raw)), c.bodyLine
	c.mu.Unlock()
	c.handleFrame(Frame{Raw: raw, Size: int64(len(raw)), Offset: off, Line: line, Exchange: exchange})
}

// waitRoomHTTP is an HTTP stream reader's backpressure (see eventQueue): called after an
// SSE frame was read and before it is handled, it waits while the event queues are over
// their bound, unless the frame holds the response to a pending request, which pairs at
// once whatever the backlog, or is empty (the stream's end: nothing to queue). It returns
// early once ctx is done (the stream's request cancelled, the session closing). Nothing
// more is read from the stream meanwhile, so the connection's buffers fill and TCP holds
// the server's writes back.
func (c *Client) waitRoomHTTP(ctx context.Context, fr *SSEFrame) {
	if len(fr.Raw) == 0 || !c.needsRoom() || (fr.Dispatches() && c.answersPending(fr.Data)) {
		return
	}
	c.q.waitRoomCtx(ctx)
	if c.obs != nil {
		c.obs.waitRoomCtx(ctx)
	}
}

// needsRoom reports whether waitRoom would wait now.
func (c *Client) needsRoom() bool {
	return c.q.needsRoom() || (c.obs != nil && c.obs.needsRoom())
}

// answersPending reports whether data is a response to a request still awaiting one.
func (c *Client) answersPending(data string) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal([]byte(data), &m) != nil || m.Method != "" || m.ID == nil || string(m.ID) == "null" {
		return false
	}
	return c.isPending(m.ID)
}

// isPending reports whether the request with this id still awaits its response.
func (c *Client) isPending(id json.RawMessage) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.pending[idKey(id)]
	return ok
}

// failRequest fails a pending request with err (an HTTP failure of its POST).
func (c *Client) failRequest(id json.RawMessage, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pending[idKey(id)]
	if !ok {
		return
	}
	c.dropLocked(p)
	p.ch <- reqOutcome{err: err}
}

// problem puts a transport problem on the timeline, counted like a frame's, and stops a
// --strict session on a Warning.
func (c *Client) problem(p Problem) {
	ev := Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, Text: p.Text}, Problems: []Problem{p}}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stampLocked(&ev)
	c.emitLocked(ev)
	if c.cfg.Strict {
		c.checkStrictLocked(ev)
	}
}

// closeHTTP ends an HTTP session: answers in flight are let finish, the transport stops
// its streams and DELETEs the session, pending requests fail with ErrClosed.
func (c *Client) closeHTTP() {
	for deadline := time.Now().Add(c.cfg.ShutdownGrace); c.answering.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(2 * time.Millisecond)
	}
	c.mu.Lock()
	c.state = StateClosed
	c.mu.Unlock()
	c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeShutdown, Text: "ending the HTTP session"}})
	c.tr.close()
	c.mu.Lock()
	for _, p := range c.pending {
		p.ch <- reqOutcome{err: ErrClosed}
		c.dropLocked(p)
	}
	c.dead = &ExitError{ExitCode: 0}
	c.emitLocked(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeExited, Text: "HTTP session ended"}})
	c.mu.Unlock()
	c.closeQueues()
	close(c.exitDone)
	if c.obs != nil {
		waitAny(c.obs.done, 2*time.Second)
	}
}

// failAllPending fails every pending request with err (an HTTP+SSE stream that ended).
func (c *Client) failAllPending(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.pending {
		p.ch <- reqOutcome{err: err}
		c.dropLocked(p)
	}
}

// sseFallback switches a Streamable HTTP session to HTTP+SSE when Config.SSEFallback is set
// and initialize was answered 400, 404 or 405: the backward-compatibility check of MCP
// 2025-11-25 basic/transports §Backwards Compatibility. It reports whether it switched.
func (c *Client) sseFallback(err error) bool {
	var he *HTTPStatusError
	if !c.cfg.SSEFallback || c.cfg.Transport != TransportHTTP || !errors.As(err, &he) {
		return false
	}
	switch he.StatusCode {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
	default:
		return false
	}
	c.note(fmt.Sprintf("POST initialize was answered %s: trying the HTTP+SSE transport of 2024-11-05 (GET for an endpoint event)", he.Status))
	old := c.tr
	old.close()
	c.mu.Lock()
	c.cfg.Transport = TransportSSE
	c.tr = newLegacySSE(c)
	c.mu.Unlock()
	return true
}

// SessionID is the Streamable HTTP session id the server gave in its initialize response
// (Mcp-Session-Id), "" for stdio, HTTP+SSE, a stateless server, or before initialize.
func (c *Client) SessionID() string {
	c.mu.Lock()
	tr := c.tr
	c.mu.Unlock()
	s, ok := tr.(*streamable)
	if !ok {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessionID
}

// emitHTTP emits an HTTPOut or HTTPIn event with its byte offset and number in its
// direction's running stream (as the trace reader derives them).
func (c *Client) emitHTTP(ev Event) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := 0
	if ev.Dir == HTTPIn {
		i = 1
	}
	ev.Offset = c.httpOff[i]
	c.httpLine[i]++
	ev.Line = c.httpLine[i]
	c.httpOff[i] += ev.Size
	return c.emitLocked(ev)
}

// FallbackError is a failed handshake over both remote transports (--transport auto): the
// Streamable HTTP POST's error, which started the fallback, and the HTTP+SSE transport's.
// Both are reported: the first is most often the one that explains the server. Unwrap
// gives both, Streamable first.
type FallbackError struct {
	Streamable, SSE error
}

func (e *FallbackError) Error() string {
	return "Streamable HTTP: " + e.Streamable.Error() + "; then the HTTP+SSE fallback (2024-11-05): " + e.SSE.Error()
}

func (e *FallbackError) Unwrap() []error { return []error{e.Streamable, e.SSE} }
