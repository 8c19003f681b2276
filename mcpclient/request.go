package mcpclient

// Sending requests and notifications, waiting for responses (timeouts, progress,
// cancellation), and building params.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// ErrClosed is returned for requests made after Close.
var ErrClosed = errors.New("session closed")

// RequestOptions tune one request.
type RequestOptions struct {
	// NoProgressToken leaves params._meta.progressToken out (initialize never carries one).
	NoProgressToken bool
	// Timeout overrides Config.Timeout for this request.
	Timeout time.Duration
	// NoTimeout waits for the response however long it takes (subscriptions/listen).
	NoTimeout bool
	// OnSent, when set, is called once the request is written, with its event Seq and id,
	// before the response is awaited (the UI uses it to find its own request on the wire).
	OnSent func(seq uint64, id json.RawMessage)
	// ParamsMarshaled says params is a json.RawMessage exactly as json.Marshal returned it
	// (valid, compact, HTML-escaped): the client then does not check it again, saving a
	// scan per request for a caller that sends the same params many times (bench call).
	// Other bytes with it set may go on the wire as they are.
	ParamsMarshaled bool
}

// MaxInputRounds bounds the multi round-trip retries of one request (MCP 2026-07-28
// basic/patterns/mrtr), so a server that always asks again cannot loop forever.
const MaxInputRounds = 16

// Response is what came back for a request: the envelope, the response event's Seq, the
// request's Seq, and the round-trip time.
type Response struct {
	Msg        *Message
	Seq        uint64
	RequestSeq uint64
	Elapsed    time.Duration
}

// Request sends a JSON-RPC request and waits for its response. params may be nil, a
// json.RawMessage or any value that marshals to a JSON object; a progressToken equal to the
// request id is added under params._meta (MCP basic/utilities/progress) so progress can reset
// the timeout, and in the modern era the required _meta keys too (MCP 2026-07-28
// basic/index §_meta). A modern result with resultType "input_required" is answered through
// Config.OnServerRequest, one ServerRequest per input request, and the request is retried
// with a new id, inputResponses and the echoed requestState; the final response is returned.
// Errors: *RPCError for an error response, *ExitError when the server is or becomes gone,
// *TimeoutError, ctx.Err() when ctx ends (then notifications/cancelled is sent, except for
// initialize), *InputError when input was needed and not given.
func (c *Client) Request(ctx context.Context, method string, params any, opt *RequestOptions) (*Response, error) {
	if opt == nil {
		opt = &RequestOptions{}
	}
	resp, err := c.roundTrip(ctx, method, params, opt)
	for round := 1; err == nil && c.Era() == EraModern; round++ {
		ir, ok := ParseInputRequired(resp.Msg.Result)
		if !ok {
			break
		}
		if round > MaxInputRounds {
			return resp, &InputError{Method: method, Reason: fmt.Sprintf("the server asked for input %d times; giving up", MaxInputRounds)}
		}
		answers, aerr := c.answerInputs(ctx, resp.Seq, ir)
		if aerr != nil {
			return resp, aerr
		}
		params, err = withInputResponses(params, answers, ir.RequestState)
		if err != nil {
			return resp, err
		}
		resp, err = c.roundTrip(ctx, method, params, opt)
	}
	return resp, err
}

// roundTrip sends one request and waits for its response (one try: Request retries it for
// modern input requests).
func (c *Client) roundTrip(ctx context.Context, method string, params any, opt *RequestOptions) (*Response, error) {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	withToken := !opt.NoProgressToken && method != "initialize"
	var b []byte
	var idRaw, pb json.RawMessage
	vouch := false
	if c.era != EraModern {
		if rf, ok := appendRequestFrame(id, method, params, withToken, opt.ParamsMarshaled); ok {
			// The frame with its newline; b is it without, and frameLocked's append puts
			// the newline back in place.
			b, idRaw, pb, vouch = rf.frame[:len(rf.frame)-1], rf.id, rf.params, withToken
		}
	}
	if b == nil {
		var err error
		if b, idRaw, pb, err = c.encodeRequestLocked(id, method, params, withToken); err != nil {
			c.mu.Unlock()
			return nil, err
		}
	}
	p := c.newPendingLocked()
	p.method, p.num, p.params = method, id, params
	p.sent = time.Now() // also the request event's time: one clock read for both
	// Built here, so its kind and envelope are known: no need to parse it back.
	p.msg = &Message{JSONRPC: "2.0", ID: idRaw, Method: method, Params: pb}
	if c.cfg.Framing == FramingAuto {
		p.body = b
	}
	if vouch {
		c.pairer.vouch(pb)
	}
	if err := c.writeMsgLocked(b, KindRequest, p.msg, p.sent); err != nil {
		c.mu.Unlock()
		if ee, ok := err.(*ExitError); ok {
			cp := *ee
			cp.Pending = p.label()
			cp.NotSent = true
			return nil, &cp
		}
		return nil, err
	}
	// Registered under the hold of c.mu the write was made in, which handling a response
	// needs too: a fast response still finds its request. The key is the Pairer's (one
	// string per request, not two).
	p.id = c.pairer.requestKey(idRaw)
	c.pending[p.id] = p
	p.seq = c.seq
	c.watchHeldLocked(p)
	c.mu.Unlock()
	if opt.OnSent != nil {
		opt.OnSent(p.seq, idRaw)
	}
	return c.wait(ctx, p, opt)
}

// newPendingLocked returns an empty pendingReq with its channels: the spare one when a
// request has left it, else a new one.
func (c *Client) newPendingLocked() *pendingReq {
	p := c.spare.Swap(nil)
	if p == nil {
		return &pendingReq{ch: make(chan reqOutcome, 1), progress: make(chan struct{}, 1)}
	}
	select {
	case <-p.progress: // a progress signal nobody looked at
	default:
	}
	*p = pendingReq{ch: p.ch, progress: p.progress}
	return p
}

// recycle leaves p, answered, for the next request. Only a response makes it reusable
// (an outcome with one): the response's router took p out of the tables and sent its one
// outcome under c.mu, which newPendingLocked holds too, so nothing uses p any more
// (watchHeldLocked keeps copies).
func (c *Client) recycle(p *pendingReq, o reqOutcome) {
	if o.resp != nil {
		c.spare.Store(p)
	}
}

// encodeRequestLocked is the general path of a request's encoding (appendRequestFrame is
// the common case's): params with the progress token and the era's _meta, in the envelope.
func (c *Client) encodeRequestLocked(id int64, method string, params any, withToken bool) (b []byte, idRaw, pb json.RawMessage, err error) {
	idRaw = json.RawMessage(strconv.FormatInt(id, 10))
	var meta []metaEntry
	if withToken {
		meta = append(meta, metaEntry{"progressToken", idRaw})
	}
	meta = append(meta, c.eraMetaLocked()...)
	if pb, err = buildParams(params, meta); err != nil {
		return nil, nil, nil, err
	}
	b, err = json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", idRaw, method, pb})
	return b, idRaw, pb, err
}

type pendingReq struct {
	id       string // canonical id key
	method   string
	num      int64    // the id
	params   any      // kept for label, which is built only when an error needs it
	body     []byte   // the request as written, unframed (--framing auto may re-send it)
	msg      *Message // its envelope
	seq      uint64
	sent     time.Time
	ch       chan reqOutcome
	progress chan struct{}
}

// label names the request in errors by its JSON-RPC id: "request id 3 (tools/call crash)"
// (the UI numbers events "#N"; "id" keeps the two apart).
func (p *pendingReq) label() string {
	if l := requestLabel(p.method, p.params); l != "" {
		return fmt.Sprintf("request id %d (%s %s)", p.num, p.method, l)
	}
	return fmt.Sprintf("request id %d (%s)", p.num, p.method)
}

type reqOutcome struct {
	resp *Response
	err  error
}

func requestLabel(method string, params any) string {
	if method != "tools/call" && method != "prompts/get" && method != "resources/read" {
		return ""
	}
	b, err := json.Marshal(params)
	if err != nil {
		return ""
	}
	var v struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	_ = json.Unmarshal(b, &v)
	if v.Name != "" {
		return v.Name
	}
	return v.URI
}

// wait waits for p's outcome: its response (or the error it failed with), the end of ctx, or
// a timeout, idle (reset by progress, and held off while a server request awaits the user)
// or the cap. This is the one wait loop of both read modes: waiter.next says what happened.
func (c *Client) wait(ctx context.Context, p *pendingReq, opt *RequestOptions) (*Response, error) {
	w := waiter{c: c, p: p, ctx: ctx}
	w.idle, w.maxT = c.limits(opt)
	// The timeouts run from the request's sending (one clock read fewer per call).
	w.idleAt, w.maxAt = p.sent.Add(w.idle), p.sent.Add(w.maxT)
	w.now, w.fresh = p.sent, true
	defer w.stop()
	for {
		switch w.next() {
		case sigOutcome:
			c.recycle(p, w.o)
			return w.o.resp, w.o.err
		case sigProgress:
			w.resetIdle()
		case sigCancelled:
			if ok, err := c.giveUp(ctx, p, w.idle, false); ok {
				return nil, err
			}
		case sigIdle:
			if c.waitingForUser() {
				// The server asked the user something (sampling, elicitation, roots) and waits
				// for the answer: the request is not idle. MaxTimeout still applies.
				w.resetIdle()
				continue
			}
			if ok, err := c.giveUp(nil, p, w.idle, false); ok {
				return nil, err
			}
		case sigMax:
			if ok, err := c.giveUp(nil, p, w.maxT, true); ok {
				return nil, err
			}
		}
	}
}

// waitSignal is what a waiting request acts on next.
type waitSignal uint8

const (
	sigNone      waitSignal = iota // nothing yet: look again
	sigOutcome                     // the outcome arrived (waiter.o)
	sigProgress                    // a progress notification: reset the idle timeout
	sigCancelled                   // ctx ended
	sigIdle                        // the idle timeout passed
	sigMax                         // the cap passed
)

// waiter is one request's wait: its deadlines and, in caller-reads mode, its part in the
// read role (leading, or following as fw).
type waiter struct {
	c   *Client
	p   *pendingReq
	ctx context.Context
	o   reqOutcome

	idle, maxT      time.Duration
	idleAt, maxAt   time.Time
	idleT, maxTimer *time.Timer // made at the first blocking wait (a leader may need none)
	now             time.Time   // when poll last looked at the clock (for until)
	fresh           bool        // now was read just before the first poll (the request's sending)

	leading bool      // caller-reads mode: this caller holds the read role
	fw      *follower // caller-reads mode: this caller waits for the role
}

// next returns the next signal. In caller-reads mode a caller that holds (or takes) the
// read role looks at the signals without blocking and, when none is due, reads stdout
// itself until the nearest deadline (at most leaderSlice); every other caller blocks.
func (w *waiter) next() waitSignal {
	if lr := w.c.lr; lr != nil {
		if !w.leading {
			w.leading = lr.takeRole(&w.fw)
		}
		if w.leading {
			if s := w.poll(); s != sigNone {
				return s
			}
			if lr.lead(w.until()) {
				// The stream ended: the outcome comes from the supervisor.
				lr.release()
				w.leading = false
			}
			return sigNone
		}
	}
	return w.block()
}

// poll is next without blocking, for a leader: the outcome first, then progress, ctx and
// the deadlines.
func (w *waiter) poll() waitSignal {
	select {
	case w.o = <-w.p.ch:
		return sigOutcome
	default:
	}
	select {
	case <-w.p.progress:
		return sigProgress
	default:
	}
	now := w.now
	if w.fresh {
		w.fresh = false // the request was sent just now: its time serves
	} else {
		now = time.Now()
		w.now = now
	}
	switch {
	case w.ctx.Err() != nil:
		return sigCancelled
	case !now.Before(w.idleAt):
		return sigIdle
	case !now.Before(w.maxAt):
		return sigMax
	}
	return sigNone
}

// until is how long a leader may read before it must look at the signals again, from the
// time poll looked at the clock (just before).
func (w *waiter) until() time.Duration {
	now := w.now
	d := min(w.idleAt.Sub(now), w.maxAt.Sub(now), leaderSlice)
	if at, ok := w.ctx.Deadline(); ok {
		d = min(d, max(at.Sub(now), 0))
	}
	return d
}

// block waits for a signal; a follower is also woken when promoted to the read role.
func (w *waiter) block() waitSignal {
	if w.idleT == nil {
		now := time.Now()
		w.idleT, w.maxTimer = time.NewTimer(w.idleAt.Sub(now)), time.NewTimer(w.maxAt.Sub(now))
	}
	var wake chan struct{}
	if w.fw != nil {
		wake = w.fw.wake
	}
	select {
	case w.o = <-w.p.ch:
		return sigOutcome
	case <-wake:
		return sigNone // promoted: next takes the role
	case <-w.p.progress:
		return sigProgress
	case <-w.ctx.Done():
		return sigCancelled
	case <-w.idleT.C:
		return sigIdle
	case <-w.maxTimer.C:
		return sigMax
	}
}

// resetIdle restarts the idle timeout from now.
func (w *waiter) resetIdle() {
	w.idleAt = time.Now().Add(w.idle)
	if w.idleT == nil {
		return
	}
	if !w.idleT.Stop() {
		select {
		case <-w.idleT.C:
		default:
		}
	}
	w.idleT.Reset(w.idle)
}

// stop ends the wait: it stops the timers and gives up the read role or its place in line.
func (w *waiter) stop() {
	if w.idleT != nil {
		w.idleT.Stop()
		w.maxTimer.Stop()
	}
	switch {
	case w.leading:
		w.c.lr.release()
	case w.fw != nil:
		w.c.lr.leave(w.fw)
	}
}

// limits are a request's idle timeout (reset by progress) and its cap.
func (c *Client) limits(opt *RequestOptions) (idle, maxT time.Duration) {
	idle = c.cfg.Timeout
	if opt.Timeout > 0 {
		idle = opt.Timeout
	}
	maxT = c.cfg.MaxTimeout
	if maxT < idle {
		maxT = idle
	}
	if opt.NoTimeout {
		idle, maxT = 100*365*24*time.Hour, 100*365*24*time.Hour
	}
	return idle, maxT
}

// giveUp abandons p because ctx ended (ctx non-nil) or a timeout of length after passed
// (max: the cap), and sends notifications/cancelled for it (never for initialize). It
// returns true and the error the request ends with, or false when p's outcome arrived
// first, to be received instead.
func (c *Client) giveUp(ctx context.Context, p *pendingReq, after time.Duration, max bool) (bool, error) {
	why := "timed out"
	if ctx != nil {
		why = "cancelled"
	}
	if !c.abandon(p, why) {
		return false, nil
	}
	if ctx != nil {
		if p.method != "initialize" {
			_ = c.Cancel(p.id, "cancelled by the user")
		}
		return true, ctx.Err()
	}
	if p.method != "initialize" {
		_ = c.Cancel(p.id, "timed out after "+after.String())
	}
	return true, &TimeoutError{Request: p.label(), After: after, Max: max, From: c.cfg.TimeoutFrom, Meanwhile: c.straysSince(p.sent), Silent: c.silentHint(),
		FirstIDZero: p.method == "initialize" && string(p.id) == "0"}
}

// waitingForUser reports whether a server→client request is still unanswered.
func (c *Client) waitingForUser() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.awaitingUser > 0
}

// abandon removes p from the pending table; false means its outcome already arrived.
func (c *Client) abandon(p *pendingReq, why string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending[p.id] != p {
		return false
	}
	c.dropLocked(p)
	if p.method == "initialize" || p.method == "server/discover" {
		// Never cancelled with a notification, so the Pairer is told directly.
		c.pairer.Settle(json.RawMessage(p.id), why)
	}
	return true
}

// Cancel sends notifications/cancelled for the request whose id has the given JSON text
// (MCP basic/utilities/cancellation). The request's id is sent with its original JSON type.
func (c *Client) Cancel(idJSON string, reason string) error {
	params, _ := json.Marshal(struct {
		RequestID json.RawMessage `json:"requestId"`
		Reason    string          `json:"reason,omitempty"`
	}{json.RawMessage(idJSON), reason})
	return c.Notify("notifications/cancelled", params)
}

// Notify sends a JSON-RPC notification.
func (c *Client) Notify(method string, params json.RawMessage) error {
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", method, params})
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeMsgLocked(b, KindNotification, &Message{JSONRPC: "2.0", Method: method, Params: params}, time.Time{})
}

// SendRaw writes bytes to the server's stdin as they are (a newline is added when missing;
// with Content-Length framing the header goes before them instead), recorded like any
// frame: a debugger sends what the user asks, valid or not.
func (c *Client) SendRaw(b []byte) error {
	b = bytes.TrimSuffix(b, []byte("\n"))
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeLocked(append([]byte(nil), b...))
}

// writeLocked frames b (adding "\n"), records the event and queues the write. It fails when
// the session is dead or closed.
func (c *Client) writeLocked(b []byte) error {
	return c.writeMsgLocked(b, 0, nil, time.Time{})
}

// writeMsgLocked is writeLocked for a frame the client built itself, whose kind and envelope
// are known (kind 0: classify the bytes, as for raw frames the user sends). at is the
// event's time when the caller has just read the clock (zero: read it).
func (c *Client) writeMsgLocked(b []byte, known Kind, knownMsg *Message, at time.Time) error {
	if c.violation != nil {
		return c.violation
	}
	if c.framingErr != nil {
		return c.framingErr
	}
	if c.state == StateClosed {
		return ErrClosed
	}
	if c.dead != nil {
		return c.dead
	}
	if c.tr != nil {
		return c.sendHTTPLocked(b, known, knownMsg)
	}
	raw := c.frameLocked(b)
	c.recordSentLocked(raw, known, knownMsg, Classify, at)
	c.writer.write(raw)
	if known == KindRequest {
		c.watchSilenceLocked()
	}
	return nil
}

// recordSentLocked puts a client frame on the timeline as it goes on the wire (raw: the
// stdio frame with its newline or header, or the exact HTTP body): it classifies raw with
// classify unless known is set, numbers it in the client's direction and lets the pairer
// see it, at time at (zero: now). It returns the frame's kind and envelope.
func (c *Client) recordSentLocked(raw []byte, known Kind, knownMsg *Message, classify func([]byte) (Kind, *Message, []Problem), at time.Time) (Kind, *Message, uint64) {
	kind, msg := known, knownMsg
	var probs []Problem
	if known == 0 {
		kind, msg, probs = classify(raw)
		probs = SentProblems(probs)
	}
	c.stdinLine++
	ev := Event{Time: at, Dir: ClientToServer, Kind: kind, Msg: msg, Problems: probs, Raw: raw, Size: int64(len(raw)), Offset: c.stdinOff, Line: c.stdinLine}
	c.stampLocked(&ev)
	c.pairer.Add(&ev)
	c.stdinOff += int64(len(raw))
	return kind, msg, c.emitLocked(ev)
}

// metaEntry is one params._meta member to add.
type metaEntry struct {
	key string
	val json.RawMessage
}

// buildParams encodes params and adds the given _meta members (those the caller did not set
// already). The caller's member order is kept and _meta goes last, so the wire shows what the
// user built.
func buildParams(params any, meta []metaEntry) (json.RawMessage, error) {
	var raw json.RawMessage
	marshalled := false
	switch p := params.(type) {
	case nil:
	case json.RawMessage:
		raw = p
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("encoding params: %w", err)
		}
		raw, marshalled = b, true
	}
	if len(meta) == 0 {
		return raw, nil
	}
	if marshalled && len(raw) >= 2 && raw[0] == '{' && !bytes.Contains(raw, []byte(`"_meta"`)) {
		// json.Marshal's own output is a valid, compact object: splice _meta in without
		// decoding it again (every tools/call takes this path).
		out := make([]byte, 0, len(raw)+32*len(meta))
		out = append(out, raw[:len(raw)-1]...)
		return appendMeta(out, len(raw) > 2, meta), nil
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		trimmed = []byte("{}")
	}
	if trimmed[0] == '{' && json.Valid(trimmed) {
		// A valid object without _meta (bench call's prebuilt params, the TUI's raw JSON):
		// splice _meta in after one validating scan instead of decoding into a map. Line
		// breaks are compacted away (one message, one line); other spacing is kept.
		members, hasMeta := 0, false
		forEachMember(trimmed, func(key []byte, _ json.RawMessage) {
			members++
			hasMeta = hasMeta || string(key) == "_meta"
		})
		if !hasMeta {
			body := trimmed
			if bytes.ContainsAny(body, "\r\n") {
				var b bytes.Buffer
				if err := json.Compact(&b, body); err != nil {
					return nil, err
				}
				body = b.Bytes()
			}
			out := make([]byte, 0, len(body)+32*len(meta))
			out = append(out, body[:len(body)-1]...)
			return appendMeta(out, members > 0, meta), nil
		}
	}
	var obj map[string]json.RawMessage
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &obj) != nil {
		// Not an object: send as given, without _meta.
		return raw, nil
	}
	if m, ok := obj["_meta"]; ok {
		// Merge into the caller's _meta; member order of the whole object is then sorted.
		have := map[string]json.RawMessage{}
		_ = json.Unmarshal(m, &have)
		for _, e := range meta {
			if _, set := have[e.key]; !set {
				have[e.key] = e.val
			}
		}
		obj["_meta"], _ = json.Marshal(have)
		return json.Marshal(obj)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, trimmed); err != nil {
		return nil, err
	}
	return appendMeta(b.Bytes()[:b.Len()-1], len(obj) > 0, meta), nil
}

// appendMeta closes an object whose closing brace was cut off (out) with a "_meta" member
// holding meta; comma says the object already has members.
func appendMeta(out []byte, comma bool, meta []metaEntry) []byte {
	if comma {
		out = append(out, ',')
	}
	out = append(out, `"_meta":{`...)
	for i, e := range meta {
		if i > 0 {
			out = append(out, ',')
		}
		k, _ := json.Marshal(e.key)
		out = append(out, k...)
		out = append(out, ':')
		out = append(out, e.val...)
	}
	return append(out, "}}"...)
}
