package session

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Inbound is one thing the server asks of the user: a legacy server→client request or one
// entry of a modern input_required result (or of an input_required task).
type Inbound struct {
	Method string
	Params json.RawMessage
	// ID is the legacy request's JSON id (nil for a modern input request).
	ID json.RawMessage
	// Key names a modern input request inside its inputRequests ("" for a legacy request).
	Key string
	// Seq is the event that carried it: the request (legacy) or the input_required
	// response (modern).
	Seq     uint64
	Arrived time.Time

	// respond answers it exactly once: a result, or an error.
	respond func(result json.RawMessage, e *mcpclient.RPCError) error
}

// NewInbound makes a request whose answer goes to respond (called once, with a result or
// an error). Handle makes them for the client's requests; task input requests use it too.
func NewInbound(method string, params json.RawMessage, key string, seq uint64, arrived time.Time, respond func(result json.RawMessage, e *mcpclient.RPCError) error) *Inbound {
	return &Inbound{Method: method, Params: params, Key: key, Seq: seq, Arrived: arrived, respond: respond}
}

// Modern reports whether the request came inside an input_required result.
func (r *Inbound) Modern() bool { return r.Key != "" }

// Respond answers the request: result, or the JSON-RPC error e when e is not nil. It does
// I/O (a UI runs it off its update loop).
func (r *Inbound) Respond(result json.RawMessage, e *mcpclient.RPCError) error {
	return r.respond(result, e)
}

// Answered is how answering a server request went (Answer's report).
type Answered struct {
	Method string
	// What says what the answer was ("refused", "accepted", …): the note's words.
	What string
	Err  error
}

// Answer sends result (or e) to r and reports how it went; what names the answer for the
// note. It does I/O.
func Answer(r *Inbound, result json.RawMessage, e *mcpclient.RPCError, what string) Answered {
	return Answered{Method: r.Method, What: what, Err: r.Respond(result, e)}
}

// Note is what the user is told about the answer.
func (a Answered) Note() Note {
	if a.Err != nil {
		return Note{Error, fmt.Sprintf("answering %s failed: %s", a.Method, a.Err)}
	}
	return Note{Info, fmt.Sprintf("%s: %s", a.Method, a.What)}
}

// Refusal is a request the features do not cover, with the error to answer it at once.
type Refusal struct {
	Req *Inbound
	Err *mcpclient.RPCError
}

// Note says the request was answered at once, and how.
func (r Refusal) Note() Note {
	return Note{Warning, fmt.Sprintf("answered %s with %d at once: %s", r.Req.Method, r.Err.Code, r.Err.Message)}
}

// Decision is what the client does with one server request: answer it at once with Err
// (the features do not cover it), answer roots/list at once with Roots (roots are
// configured), or put it to a person (Ask).
type Decision struct {
	Err   *mcpclient.RPCError
	Roots []mcpclient.Root
	Ask   bool
}

// Decide is the one server-request policy, for the TUI and the headless commands alike
// (MCP 2025-11-25 client/roots, client/sampling, client/elicitation): a request the
// features do not cover is refused (-32601, or -32602 for an undeclared elicitation mode,
// as Supports says); roots/list is answered at once with roots when rootsSet (the user
// gave them: --root, or the roots editor); anything else is asked.
func (f ClientFeatures) Decide(method string, params json.RawMessage, roots []mcpclient.Root, rootsSet bool) Decision {
	if e := f.Supports(method, params); e != nil {
		return Decision{Err: e}
	}
	if method == "roots/list" && rootsSet {
		return Decision{Roots: slices.Clone(roots)}
	}
	return Decision{Ask: true}
}

// QueuedNote is the transient line shown when a request joins others waiting (n in all).
func QueuedNote(method string, n int) string {
	return fmt.Sprintf("%s queued: %d server requests waiting", method, n)
}

// ServerCancelled finds the open request a server's notifications/cancelled (params)
// names, by its JSON-RPC id (MCP basic/utilities/cancellation): its index in open, and the
// note saying its dialog closes unanswered. ok is false when params name none of them.
func ServerCancelled(params json.RawMessage, open []*Inbound) (index int, note Note, ok bool) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == nil {
		return 0, Note{}, false
	}
	want := jsontext.Compact(p.RequestID)
	for i, r := range open {
		if r.ID != nil && jsontext.Compact(r.ID) == want {
			return i, Note{Warning, fmt.Sprintf("the server cancelled its %s (id %s): the dialog is closed unanswered, as the spec asks", r.Method, jsontext.Compact(r.ID))}, true
		}
	}
	return 0, Note{}, false
}

// ServerGoneNote is the note when the server exits with n requests still open.
func ServerGoneNote(n int) Note {
	return Note{Warning, fmt.Sprintf("the server is gone: %d server request(s) closed unanswered", n)}
}

// InputsClosedNote is the note when n modern input requests of a request (method target)
// are closed because the request ended (cancelled, failed).
func InputsClosedNote(n int, method, target string) Note {
	return Note{Info, fmt.Sprintf("%d input request(s) of %s %s closed: the request ended", n, method, target)}
}

// Quitting answers every open request -32603 as the program ends.
func Quitting(open []*Inbound) {
	for _, r := range open {
		_ = r.Respond(nil, &mcpclient.RPCError{Code: -32603, Message: "mcp-inspect is quitting"})
	}
}

// RequestQueue carries server→client requests from mcpclient (Config.OnServerRequest,
// called on the client's goroutines) to whoever answers them. Handle never blocks: the
// queue grows as needed, so a server that asks a lot never stalls the client.
type RequestQueue struct {
	mu     sync.Mutex
	items  []*Inbound
	signal chan struct{}
	now    func() time.Time
}

// NewRequestQueue makes an empty queue stamping arrivals with now (time.Now when nil).
func NewRequestQueue(now func() time.Time) *RequestQueue {
	if now == nil {
		now = time.Now
	}
	return &RequestQueue{signal: make(chan struct{}, 1), now: now}
}

// Handle queues r; it is the Config.OnServerRequest of a client whose requests a person
// answers.
func (q *RequestQueue) Handle(r *mcpclient.ServerRequest) {
	in := NewInbound(r.Method, r.Params, r.InputKey, r.Seq, q.now(), func(result json.RawMessage, e *mcpclient.RPCError) error {
		if e != nil {
			return r.Fail(e)
		}
		return r.Respond(result)
	})
	if r.Msg != nil {
		in.ID = r.Msg.ID
	}
	q.Push(in)
}

// Push queues a request made elsewhere (a task's input requests).
func (q *RequestQueue) Push(in *Inbound) {
	q.mu.Lock()
	q.items = append(q.items, in)
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

// Take returns the requests queued so far, in arrival order, without waiting (nil when
// none).
func (q *RequestQueue) Take() []*Inbound {
	q.mu.Lock()
	defer q.mu.Unlock()
	items := q.items
	q.items = nil
	return items
}

// Next waits until requests are queued and takes them all, in arrival order; it fails
// only with ctx's error. A UI calls it again after each batch: one ordered path, like the
// event pump.
func (q *RequestQueue) Next(ctx context.Context) ([]*Inbound, error) {
	for {
		if items := q.Take(); len(items) > 0 {
			return items, nil
		}
		select {
		case <-q.signal:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
