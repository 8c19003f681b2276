package mcpclient

// Streamable HTTP (MCP 2025-03-26 … 2025-11-25 basic/transports §Streamable HTTP, and
// 2026-07-28 basic/transports/streamable-http): every client message is a POST; the answer is
// 202, one JSON body, or an SSE stream that carries related messages and then the response.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Header names of the Streamable HTTP transport.
const (
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderProtocolVersion = "MCP-Protocol-Version"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	HeaderParamPrefix     = "Mcp-Param-"
	HeaderLastEventID     = "Last-Event-ID"
)

// maxReconnects bounds the GET reconnections of one stream that bring no new event.
const maxReconnects = 5

// listenWait bounds how long the first request after initialize waits for the GET stream's
// response head (a server may hold it back until its first event).
const listenWait = time.Second

// defaultRetry is the reconnection delay when the server gave no `retry:`.
const defaultRetry = time.Second

// streamable is the Streamable HTTP transport of one Client.
type streamable struct {
	c      *Client
	url    string
	hc     *http.Client
	header http.Header // the user's headers (-H, bearer), sent on every request
	// bare is hc without the authorization layer, for redirects to another origin
	// (httpredirect.go); redirects remembers the hops already noted.
	bare      *http.Client
	redirects map[string]bool
	// dropped is the session the server last forgot, until a new initialize replaces it.
	dropped string
	// acks are the statuses other than 202 the server acknowledged notifications and
	// responses with, each noted once.
	acks map[int]bool

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	out     *outQueue
	sendEnd chan struct{}

	mu         sync.Mutex
	sessionID  string
	protocol   string // negotiated legacy version, sent after initialize
	listening  bool
	toolParams map[string][]paramBinding     // modern: tool name → x-mcp-header bindings
	inflight   map[string]context.CancelFunc // request POSTs (and their resumption) by id key
}

// paramBinding is one x-mcp-header annotation: the argument path and the header suffix.
type paramBinding struct {
	path   []string
	header string
}

// Noter is implemented by a WrapTransport layer that has something to tell the user, such
// as an authorization URL to open: the client hands it a function that shows a note as a
// lifecycle event on the wire (and in the trace), so nothing is printed over a TUI.
type Noter interface {
	SetNote(note func(text string))
}

// Notes of an authorization layer that a UI reads back: AuthorizeNote+SERVER+AuthorizeNoteURL+URL
// asks the user to open URL; NoBrowserNote starts the note that no browser could be opened.
const (
	AuthorizeNote    = "mcp-inspect: authorize access to "
	AuthorizeNoteURL = " in a browser: "
	NoBrowserNote    = "mcp-inspect: could not open a browser"
)

// BodyRecorder is implemented by a WrapTransport layer that sends requests of its own (an
// authorization layer's metadata, registration and token requests): the client hands it a
// function that records a response body it read as an HTTPIn KindHTTPBody event, after the
// response's head.
type BodyRecorder interface {
	SetBodyRecorder(record func(body []byte))
}

func newHTTPClient(c *Client) *http.Client {
	var rt http.RoundTripper = &recordingTransport{c: c, next: newTapTransport()}
	if c.cfg.WrapTransport != nil {
		rt = c.cfg.WrapTransport(rt)
		if n, ok := rt.(Noter); ok {
			n.SetNote(c.note)
		}
		if br, ok := rt.(BodyRecorder); ok {
			br.SetBodyRecorder(func(b []byte) {
				c.emitHTTP(Event{Dir: HTTPIn, Kind: KindHTTPBody, Raw: b, Size: int64(len(b))})
			})
		}
	}
	return &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func newStreamable(c *Client) *streamable {
	t := &streamable{c: c, url: c.cfg.URL, hc: newHTTPClient(c), header: c.cfg.Header, sendEnd: make(chan struct{}), toolParams: map[string][]paramBinding{}, inflight: map[string]context.CancelFunc{}}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	t.out = newOutQueue()
	go t.sender()
	return t
}

func (t *streamable) send(f outFrame) {
	t.out.push(f)
}

// sender POSTs the frames in order. A notification or response is sent before the next
// frame goes (so notifications/initialized reaches the server before the next request);
// requests run concurrently once their POST is started.
func (t *streamable) sender() {
	defer close(t.sendEnd)
	for {
		batch := t.out.take()
		if batch == nil {
			return
		}
		for _, f := range batch {
			if f.kind == KindRequest {
				t.wg.Add(1)
				go func() {
					defer t.wg.Done()
					t.post(f)
				}()
				continue
			}
			t.post(f)
			if f.msg != nil && f.msg.Method == "notifications/cancelled" {
				t.abort(f.msg.Params)
			}
		}
	}
}

// abort closes the stream of a cancelled request (MCP 2026-07-28: closing the SSE stream is
// the cancellation; in the legacy era notifications/cancelled said it, and the stream is no
// longer needed).
func (t *streamable) abort(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == nil {
		return
	}
	t.mu.Lock()
	cancel := t.inflight[idKey(p.RequestID)]
	t.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (t *streamable) close() {
	t.out.close()
	// What is queued (a last notifications/cancelled) goes out, unless the server hangs.
	if !waitAny(t.sendEnd, t.c.cfg.ShutdownGrace) {
		t.cancel()
		<-t.sendEnd
	}
	t.cancel()
	t.wg.Wait()
	t.mu.Lock()
	sid := t.sessionID
	t.mu.Unlock()
	if sid == "" {
		return
	}
	// MCP 2025-11-25 basic/transports §Session Management: DELETE ends the session; 405
	// means the server does not allow it.
	ctx, cancel := context.WithTimeout(context.Background(), t.c.cfg.ShutdownGrace)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, t.url, nil)
	if err != nil {
		return
	}
	t.setCommon(req.Header, false)
	resp, err := t.do(req, nil)
	if err != nil {
		t.c.note("DELETE of the session failed: " + err.Error())
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
}

// setCommon sets the headers every request carries: the user's, the session id and the
// protocol version once known.
func (t *streamable) setCommon(h http.Header, modern bool) {
	for k, vs := range t.header {
		h[k] = append([]string(nil), vs...)
	}
	if h.Get("User-Agent") == "" {
		h.Set("User-Agent", t.c.cfg.ClientInfo.Name+"/"+t.c.cfg.ClientInfo.Version)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sessionID != "" && !modern {
		h.Set(HeaderSessionID, t.sessionID)
	}
	if t.protocol != "" && !modern {
		h.Set(HeaderProtocolVersion, t.protocol)
	}
}

// label names a frame's request for errors.
func (f *outFrame) label() string {
	if f.msg == nil || f.kind != KindRequest {
		return ""
	}
	return fmt.Sprintf("request id %s (%s)", f.msg.ID, f.msg.Method)
}

// post sends one frame and handles the answer (answer).
func (t *streamable) post(f outFrame) {
	ctx := t.ctx
	if f.kind == KindRequest && f.msg != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(t.ctx)
		key := idKey(f.msg.ID)
		t.mu.Lock()
		t.inflight[key] = cancel
		t.mu.Unlock()
		defer func() {
			t.mu.Lock()
			delete(t.inflight, key)
			t.mu.Unlock()
			cancel()
		}()
	}
	req, err := http.NewRequestWithContext(carrying(ctx, f.seq, t.url), http.MethodPost, t.url, bytes.NewReader(f.body))
	if err != nil {
		t.fail(f, err)
		return
	}
	modern := f.era == EraModern
	t.setCommon(req.Header, modern)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if modern {
		t.setModernHeaders(req.Header, f)
	}
	t.mu.Lock()
	sid := t.sessionID
	t.mu.Unlock()
	resp, err := t.do(req, f.body)
	if err != nil {
		var rerr *RedirectError
		switch {
		case ctx.Err() != nil:
		case errors.As(err, &rerr):
			t.fail(f, rerr)
		default:
			t.fail(f, &ConnectError{Method: "POST", URL: t.url, Err: err})
		}
		return
	}
	defer resp.Body.Close()
	t.sessionHeaders(f, resp, sid, modern)
	t.answer(ctx, f, resp, sid)
}

// answer handles a POST's answer by its status and Content-Type (MCP 2025-11-25
// basic/transports §Sending Messages to the Server): 202 for what is not a request, an SSE
// stream or a JSON body for a request, 404 for an expired session, anything else an error.
func (t *streamable) answer(ctx context.Context, f outFrame, resp *http.Response, sid string) {
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode == http.StatusAccepted:
		if f.kind == KindRequest {
			t.c.problem(Problem{Warning, CodeHTTPStatus, "the server answered a request with 202 Accepted; a request's POST must return its response (JSON or SSE)"})
			t.fail(f, &HTTPStatusError{Method: "POST", URL: t.url, StatusCode: resp.StatusCode, Status: resp.Status, Header: resp.Header, Sent: sentHeader(resp), Request: f.label()})
		}
		t.drainBody(resp, false)
	case resp.StatusCode/100 == 2 && ct == "text/event-stream":
		if f.kind != KindRequest {
			t.c.problem(Problem{Warning, CodeHTTPStatus, fmt.Sprintf("the server answered a %s POST with an SSE stream; notifications and responses get 202 Accepted", f.kind)})
		}
		last, retry, _, _ := t.readSSE(ctx, resp.Body, f, nil)
		if ee := t.c.emitEncoded(resp); ee != nil {
			if f.kind == KindRequest {
				t.fail(f, ee) // a stream that does not decode is not resumed
			}
			return
		}
		if f.kind == KindRequest && t.c.isPending(f.msg.ID) && ctx.Err() == nil {
			t.resume(ctx, f, last, retry)
		}
	case resp.StatusCode/100 == 2 && f.kind != KindRequest && ct != "text/event-stream":
		t.ackAnswer(f, resp)
	case resp.StatusCode/100 == 2 && ct == "application/json":
		t.jsonAnswer(f, resp, sid)
	case resp.StatusCode/100 == 2:
		body := t.drainBody(resp, true)
		if f.kind == KindRequest {
			t.c.problem(Problem{Warning, CodeHTTPContentType, fmt.Sprintf("the answer to a request has Content-Type %q; it must be application/json or text/event-stream", resp.Header.Get("Content-Type"))})
			t.fail(f, &HTTPStatusError{Method: "POST", URL: t.url, StatusCode: resp.StatusCode, Status: resp.Status, Header: resp.Header, Sent: sentHeader(resp), Body: body, Request: f.label()})
		}
	case resp.StatusCode == http.StatusNotFound && sid != "":
		t.drainBody(resp, true)
		t.dropSession(f, &SessionExpiredError{SessionID: sid, Request: f.label()})
	default:
		t.errorAnswer(f, resp, ct, sid)
	}
}

// jsonAnswer reads a 2xx application/json answer: bounded by MaxMessage (the head of an
// oversize body is kept and the request fails at once, case B03), shown as received, and
// its message handled as a server frame.
func (t *streamable) jsonAnswer(f outFrame, resp *http.Response, sid string) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(t.c.cfg.MaxMessage)+1))
	if ee := t.c.emitEncoded(resp); ee != nil {
		if f.kind == KindRequest {
			t.fail(f, ee)
		}
		return
	}
	if len(body) > t.c.cfg.MaxMessage {
		n, _ := io.Copy(io.Discard, resp.Body)
		t.c.handleFrame(Frame{Raw: body[:t.c.cfg.MaxMessage], Size: int64(len(body)) + n, Oversize: true, Exchange: exchangeOf(resp.Body)})
		if f.kind == KindRequest && t.c.isPending(f.msg.ID) {
			t.fail(f, &OversizeError{Request: f.label(), Size: int64(len(body)) + n, Limit: t.c.cfg.MaxMessage})
		}
		return
	}
	if err != nil && f.kind == KindRequest {
		t.fail(f, &ConnectError{Method: "POST", URL: t.url, Err: err})
		return
	}
	// The body as received is the wire; the message in it is a server frame too.
	t.c.emitHTTP(Event{Dir: HTTPIn, Kind: KindHTTPBody, Raw: body, Size: int64(len(body)), Pair: exchangeOf(resp.Body)})
	if tb := bytes.TrimSpace(body); len(tb) > 0 && !json.Valid(tb) && (bytes.HasPrefix(tb, []byte("data:")) || bytes.HasPrefix(tb, []byte("event:")) || bytes.HasPrefix(tb, []byte("id:"))) {
		t.c.problem(Problem{Warning, CodeHTTPContentType, "the body is an SSE stream, but Content-Type says application/json"})
	}
	if f.kind != KindRequest {
		t.c.problem(Problem{Warning, CodeHTTPStatus, fmt.Sprintf("the server answered a %s POST with %s and a JSON body; it should be 202 Accepted", f.kind, resp.Status)})
	}
	if len(bytes.TrimSpace(body)) > 0 {
		t.noteResult(f, body) // before the caller gets the answer and sends the next request
		t.c.handleBody(body, exchangeOf(resp.Body))
	}
	if f.kind == KindRequest && t.c.isPending(f.msg.ID) {
		if said, ok := droppedSession(resp.StatusCode, body); ok && sid != "" {
			t.dropSession(f, &SessionExpiredError{SessionID: sid, Request: f.label(), Status: resp.StatusCode, Said: said})
			return
		}
		t.fail(f, fmt.Errorf("%s: the JSON body of the answer held no response to it", f.label()))
	}
}

// errorAnswer takes an HTTP error: a JSON-RPC error in its body answers the request
// (2026-07-28: 400 with -32020 or -32022); otherwise the request fails with the status.
func (t *streamable) errorAnswer(f outFrame, resp *http.Response, ct, sid string) {
	body := t.readBody(resp)
	if len(body) > 0 {
		t.c.emitHTTP(Event{Dir: HTTPIn, Kind: KindHTTPBody, Raw: body, Size: int64(len(body)), Pair: exchangeOf(resp.Body)})
	}
	if ct == "application/json" || json.Valid(bytes.TrimSpace(body)) {
		if k, m, _ := Classify(append(append([]byte(nil), body...), '\n')); k.IsMessage() && m.ID != nil {
			t.c.handleBody(body, exchangeOf(resp.Body))
			if f.kind != KindRequest || !t.c.isPending(f.msg.ID) {
				return
			}
		}
	}
	if said, ok := droppedSession(resp.StatusCode, body); ok && sid != "" {
		t.dropSession(f, &SessionExpiredError{SessionID: sid, Request: f.label(), Status: resp.StatusCode, Said: said})
		return
	}
	t.fail(f, &HTTPStatusError{Method: "POST", URL: t.url, StatusCode: resp.StatusCode, Status: resp.Status, Header: resp.Header, Sent: sentHeader(resp), Body: body[:min(len(body), 4096)], Request: f.label()})
}

// checkStream flags a response on the wrong stream: a request's POST stream carries only
// that request's response, and the GET stream none (except when resuming one, which reads
// with the request's frame) (MCP 2025-11-25 basic/transports §Sending Messages to the Server,
// §Listening for Messages from the Server).
func (t *streamable) checkStream(f outFrame, data []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(data, &m) != nil || m.Method != "" || m.ID == nil || string(m.ID) == "null" {
		return
	}
	switch {
	case f.msg == nil:
		t.c.problem(Problem{Warning, CodeHTTPWrongStream, fmt.Sprintf("the response to id %s came on the GET stream; a response goes on the POST stream of its request", m.ID)})
	case f.kind == KindRequest && idKey(m.ID) != idKey(f.msg.ID):
		t.c.problem(Problem{Warning, CodeHTTPWrongStream, fmt.Sprintf("the response to id %s came on the stream of request id %s", m.ID, f.msg.ID)})
	}
}

// readBody reads a non-streamed body (up to MaxMessage bytes).
func (t *streamable) readBody(resp *http.Response) []byte {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, int64(t.c.cfg.MaxMessage)))
	t.c.emitEncoded(resp)
	return b
}

// drainBody reads and discards a body, showing it when show is set and it is not empty.
func (t *streamable) drainBody(resp *http.Response, show bool) []byte {
	b := t.readBody(resp)
	if show && len(b) > 0 {
		t.c.emitHTTP(Event{Dir: HTTPIn, Kind: KindHTTPBody, Raw: b, Size: int64(len(b)), Pair: exchangeOf(resp.Body)})
	}
	return b
}

// fail fails the frame's request with err, or notes err for a notification or response.
func (t *streamable) fail(f outFrame, err error) {
	if f.kind == KindRequest && f.msg != nil {
		t.c.failRequest(f.msg.ID, err)
		return
	}
	t.c.note("sending " + f.kind.String() + " failed: " + err.Error())
}

// readSSE reads an event stream to its end: each frame an event, each message in it a
// server frame. Between frames it waits for room in the event queues (waitRoomHTTP) until
// ctx, the stream's, is done. busy, when set, is called with true once a frame has arrived
// and with false when the next one is awaited (the resumption's quiet timer runs only
// then). It returns the stream's last event id, the reconnection delay and why it ended
// (io.EOF when the server closed it); answered is set when the response to f came on it.
func (t *streamable) readSSE(ctx context.Context, body io.Reader, f outFrame, busy func(bool)) (last string, retry time.Duration, answered bool, err error) {
	exchange := exchangeOf(body)
	f.ex = exchange
	retry = time.Duration(-1)
	pending := f.kind == KindRequest && t.c.isPending(f.msg.ID)
	var tail *sseTail
	if pending {
		// A response event whose blank line never comes is taken while the stream is open.
		tail = t.watchStall(f, body)
		defer tail.stop()
		body = tail
	}
	r := NewSSEReader(body)
	for first := true; ; first = false {
		fr, err := r.Next()
		if tail != nil {
			tail.consumed(len(fr.Raw))
		}
		if busy != nil {
			busy(true)
		}
		t.c.waitRoomHTTP(ctx, &fr)
		if first && bytes.HasPrefix(bytes.TrimSpace(fr.Raw), []byte("{")) {
			t.c.problem(Problem{Warning, CodeHTTPContentType, "the body is JSON, but Content-Type says text/event-stream"})
		}
		if len(fr.Raw) > 0 {
			t.c.emitHTTP(Event{Dir: HTTPIn, Kind: KindSSEFrame, Raw: fr.Raw, Size: int64(len(fr.Raw)), Offset: fr.Offset, Pair: exchange})
		}
		if fr.HasRetry {
			retry = time.Duration(fr.Retry) * time.Millisecond
		}
		if fr.Dispatches() && len(fr.Data) > t.c.cfg.MaxMessage && (fr.Event == "" || fr.Event == "message") {
			t.c.handleFrame(Frame{Raw: []byte(fr.Data[:t.c.cfg.MaxMessage]), Size: int64(len(fr.Data)), Oversize: true, Exchange: exchange})
		} else if fr.Dispatches() && fr.Data != "" && (fr.Event == "" || fr.Event == "message") {
			// (A response taken already from the open event, watchStall, whose end came late,
			// is not handled twice.)
			if data := []byte(fr.Data); tail == nil || !tail.wasTaken() || !answers(data, f) {
				t.checkStream(f, data)
				t.noteResult(f, data) // before the caller gets the answer and sends the next request
				t.c.handleBody(data, exchange)
			}
		} else if fr.Unterminated && f.kind == KindRequest && t.c.isPending(f.msg.ID) {
			t.unterminated(f, &fr)
		}
		answered = answered || pending && !t.c.isPending(f.msg.ID)
		if err != nil {
			return r.LastEventID(), retry, answered, err
		}
		if busy != nil {
			busy(false)
		}
	}
}

// setModernHeaders sets the 2026-07-28 headers mirrored from the body: MCP-Protocol-Version
// (equal to _meta's), Mcp-Method, Mcp-Name and Mcp-Param-*.
func (t *streamable) setModernHeaders(h http.Header, f outFrame) {
	if f.version != "" {
		h.Set(HeaderProtocolVersion, f.version)
	}
	if f.msg == nil || f.msg.Method == "" {
		return
	}
	h.Set(HeaderMethod, f.msg.Method)
	var p struct {
		Name      *string                    `json:"name"`
		URI       *string                    `json:"uri"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(f.msg.Params, &p)
	switch f.msg.Method {
	case "tools/call", "prompts/get":
		if p.Name != nil {
			h.Set(HeaderName, headerValue(*p.Name))
		}
	case "resources/read":
		if p.URI != nil {
			h.Set(HeaderName, headerValue(*p.URI))
		}
	}
	if f.msg.Method != "tools/call" || p.Name == nil {
		return
	}
	t.mu.Lock()
	binds := t.toolParams[*p.Name]
	t.mu.Unlock()
	for _, b := range binds {
		if v, ok := paramValue(p.Arguments, b.path); ok {
			h.Set(HeaderParamPrefix+b.header, headerValue(v))
		}
	}
}

// paramValue finds an argument by path and formats it for a header: strings as they are,
// booleans and integers as JSON; null, absent, fractional numbers and structures give none.
func paramValue(args map[string]json.RawMessage, path []string) (string, bool) {
	cur := args
	for i, k := range path {
		raw, ok := cur[k]
		if !ok {
			return "", false
		}
		if i < len(path)-1 {
			cur = nil
			if json.Unmarshal(raw, &cur) != nil {
				return "", false
			}
			continue
		}
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return "", false
		}
		switch x := v.(type) {
		case string:
			return x, true
		case bool:
			return strconv.FormatBool(x), true
		case float64:
			if x != float64(int64(x)) || x > 1<<53-1 || x < -(1<<53-1) {
				return "", false
			}
			return strconv.FormatInt(int64(x), 10), true
		}
		return "", false
	}
	return "", false
}

// headerValue encodes a value for an Mcp-Name or Mcp-Param header: as it is when it is
// visible ASCII without surrounding blanks, else in the =?base64?…?= form (MCP 2026-07-28
// basic/transports/streamable-http §Custom Headers).
func headerValue(s string) string {
	plain := !(strings.HasPrefix(s, "=?base64?") && strings.HasSuffix(s, "?="))
	if s != "" && (s[0] == ' ' || s[0] == '\t' || s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		plain = false
	}
	for i := 0; i < len(s) && plain; i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			plain = false
		}
	}
	if plain {
		return s
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}

// noteResult learns from the response to f what later requests need: the negotiated
// protocol version (initialize) and the x-mcp-header bindings (tools/list).
func (t *streamable) noteResult(f outFrame, data []byte) {
	if f.msg == nil {
		return
	}
	switch f.msg.Method {
	case "tools/list":
		t.noteTools(data)
	case "initialize":
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(data, &m) == nil && idKey(m.ID) == idKey(f.msg.ID) && m.Result.ProtocolVersion != "" {
			t.mu.Lock()
			// MCP-Protocol-Version exists from 2025-06-18 on; 2025-03-26 servers ignore it.
			t.protocol = m.Result.ProtocolVersion
			t.mu.Unlock()
		}
	}
}

// noteTools keeps the x-mcp-header bindings of each tool in a tools/list result.
func (t *streamable) noteTools(data []byte) {
	var m struct {
		Result struct {
			Tools []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if json.Unmarshal(data, &m) != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tool := range m.Result.Tools {
		if ValidateHeaderAnnotations(tool.InputSchema) != nil {
			continue // a client must not call it; no headers are mirrored for it
		}
		if b := headerBindings(tool.InputSchema, nil); len(b) > 0 {
			t.toolParams[tool.Name] = b
		}
	}
}

// headerBindings collects the x-mcp-header annotations of a schema's properties.
func headerBindings(schema json.RawMessage, prefix []string) []paramBinding {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var out []paramBinding
	for name, prop := range s.Properties {
		path := append(append([]string(nil), prefix...), name)
		var p struct {
			Header string `json:"x-mcp-header"`
		}
		if json.Unmarshal(prop, &p) == nil && p.Header != "" {
			out = append(out, paramBinding{path: path, header: p.Header})
		}
		out = append(out, headerBindings(prop, path)...)
	}
	return out
}

// errNoTransport is returned by Start for a URL with an unknown scheme.
var errNoTransport = errors.New("the URL must start with http:// or https://")

// ValidateHeaderAnnotations checks a tool input schema's x-mcp-header annotations (MCP
// 2026-07-28 server/tools §x-mcp-header): each on a property of type string, integer or
// boolean, a non-empty header-name token, no two equal ignoring case. A client drops a tool
// whose annotations are invalid from tools/list (HTTP only); nil when valid or none.
func ValidateHeaderAnnotations(schema json.RawMessage) error {
	return validateHeaderProps(schema, "", map[string]bool{})
}

func validateHeaderProps(schema json.RawMessage, prefix string, seen map[string]bool) error {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	for name, prop := range s.Properties {
		path := prefix + name
		var p struct {
			Header json.RawMessage `json:"x-mcp-header"`
			Type   json.RawMessage `json:"type"`
		}
		if json.Unmarshal(prop, &p) != nil {
			continue
		}
		if p.Header != nil {
			var h string
			if json.Unmarshal(p.Header, &h) != nil || h == "" {
				return fmt.Errorf("property %q: x-mcp-header must be a non-empty string", path)
			}
			for i := 0; i < len(h); i++ {
				if !isTChar(h[i]) {
					return fmt.Errorf("property %q: x-mcp-header %q holds %q, not allowed in a header name", path, h, h[i])
				}
			}
			var typ string
			_ = json.Unmarshal(p.Type, &typ)
			if typ != "string" && typ != "integer" && typ != "boolean" {
				return fmt.Errorf("property %q: x-mcp-header needs type string, integer or boolean, not %s", path, p.Type)
			}
			k := strings.ToLower(h)
			if seen[k] {
				return fmt.Errorf("property %q: x-mcp-header %q is used twice (case-insensitive)", path, h)
			}
			seen[k] = true
		}
		if err := validateHeaderProps(prop, path+".", seen); err != nil {
			return err
		}
	}
	return nil
}

// isTChar reports an RFC 9110 token character.
func isTChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
