package session

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// OpState is where a request started outside the Call tab stands.
type OpState uint8

// Op states.
const (
	OpRunning OpState = iota
	OpDone
	OpFailed
	OpCancelled
)

// Op is one request the user started outside the Call tab (resources/read, prompts/get,
// tasks/…): tracked from send to answer, with its progress, its cancel func and a late
// response after cancel. Its request is found on the wire by method and target (the name,
// uri or taskId in params), so a modern retry with a new id is followed too.
type Op struct {
	ID      int
	Method  string
	Target  string
	Started time.Time
	Ended   time.Time
	State   OpState
	Err     error

	// ReqSeq is the Seq of the request on the wire (the latest one, after modern
	// retries); Answered is set once a response to it arrived.
	ReqSeq   uint64
	Answered bool
	// Progress, Total and ProgressMessage are the latest notifications/progress.
	Progress        float64
	Total           float64
	ProgressMessage string
	// Late is the response that came after the user cancelled.
	Late *mcpclient.Event

	cancel context.CancelFunc
}

// Running reports whether the op waits for its answer (false for nil).
func (o *Op) Running() bool { return o != nil && o.State == OpRunning }

// Inflight holds the ops by id.
type Inflight struct {
	next int
	all  map[int]*Op
}

// NewInflight makes an empty table.
func NewInflight() *Inflight { return &Inflight{all: map[int]*Op{}} }

// Start registers a new op sent at now and gives the context to send it with (cancelled
// by Cancel, or by parent).
func (t *Inflight) Start(parent context.Context, method, target string, now time.Time) (*Op, context.Context) {
	t.next++
	ctx, cancel := context.WithCancel(parent)
	o := &Op{ID: t.next, Method: method, Target: target, Started: now, cancel: cancel}
	t.all[o.ID] = o
	return o, ctx
}

// Get finds an op by id (nil when unknown).
func (t *Inflight) Get(id int) *Op { return t.all[id] }

// Finish records the outcome of op id at now: done, failed, or cancelled
// (context.Canceled). It returns the op, or nil when it is unknown.
func (t *Inflight) Finish(id int, err error, now time.Time) *Op {
	o := t.all[id]
	if o == nil || o.State != OpRunning {
		return o
	}
	o.Ended = now
	o.Err = err
	switch {
	case err == nil:
		o.State = OpDone
	case errors.Is(err, context.Canceled):
		o.State = OpCancelled
	default:
		o.State = OpFailed
	}
	if o.cancel != nil && err == nil {
		o.cancel()
	}
	return o
}

// Cancel cancels a running op (the client then sends notifications/cancelled with its
// id); false when op id is not running.
func (t *Inflight) Cancel(id int) bool {
	o := t.all[id]
	if o.Running() && o.cancel != nil {
		o.cancel()
		return true
	}
	return false
}

// CancelAll cancels every running op (the program ends).
func (t *Inflight) CancelAll() {
	for _, o := range t.all {
		if o.Running() && o.cancel != nil {
			o.cancel()
		}
	}
}

// Running counts running ops.
func (t *Inflight) Running() int {
	n := 0
	for _, o := range t.all {
		if o.Running() {
			n++
		}
	}
	return n
}

// RequestTarget reads the name, uri or taskId a request's params are about.
func RequestTarget(params json.RawMessage) string {
	var p struct {
		Name   string `json:"name"`
		URI    string `json:"uri"`
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(params, &p)
	switch {
	case p.Name != "":
		return p.Name
	case p.URI != "":
		return p.URI
	}
	return p.TaskID
}

// ProgressParams are notifications/progress params (MCP basic/utilities/progress).
type ProgressParams struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total"`
	Message  string  `json:"message"`
}

// Observe follows the ops on the wire: their requests, progress and late responses.
func (t *Inflight) Observe(ev *mcpclient.Event) {
	if ev.Msg == nil || len(t.all) == 0 {
		return
	}
	switch {
	case ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindRequest:
		t.request(ev)
	case ev.Kind == mcpclient.KindNotification && ev.Msg.Method == "notifications/progress" && ev.Pair != 0:
		for _, o := range t.all {
			if o.ReqSeq == ev.Pair && o.Running() {
				var p ProgressParams
				if json.Unmarshal(ev.Msg.Params, &p) == nil {
					o.Progress, o.Total, o.ProgressMessage = p.Progress, p.Total, p.Message
				}
			}
		}
	case ev.Dir == mcpclient.ServerToClient && (ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse) && ev.Pair != 0:
		for _, o := range t.all {
			if o.ReqSeq != ev.Pair {
				continue
			}
			o.Answered = true
			if o.State == OpCancelled && o.Late == nil {
				e := *ev
				o.Late = &e
			}
		}
	}
}

// request matches a request on the wire to the oldest running op of its method and
// target that has none yet, else follows a modern retry of an answered one.
func (t *Inflight) request(ev *mcpclient.Event) {
	target := RequestTarget(ev.Msg.Params)
	var retry *Op
	for _, o := range t.Sorted() {
		if !o.Running() || o.Method != ev.Msg.Method || o.Target != target {
			continue
		}
		if o.ReqSeq == 0 {
			o.ReqSeq = ev.Seq
			return
		}
		if o.Answered && retry == nil {
			retry = o
		}
	}
	if retry != nil {
		// A modern retry (input_required answered): follow the new request.
		retry.ReqSeq, retry.Answered = ev.Seq, false
	}
}

// Sorted lists the ops oldest first.
func (t *Inflight) Sorted() []*Op {
	out := make([]*Op, 0, len(t.all))
	for i := 1; i <= t.next; i++ {
		if o := t.all[i]; o != nil {
			out = append(out, o)
		}
	}
	return out
}
