package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// opState is where a request the UI started stands.
type opState uint8

const (
	opRunning opState = iota
	opDone
	opFailed
	opCancelled
)

// op is one request the UI started outside the Call tab (resources/read, prompts/get,
// tasks/…): tracked from send to answer, with its progress, its cancel func and a late
// response after cancel. Its request is found on the wire by method and target (the name,
// uri or taskId in params), so a modern retry with a new id is followed too.
type op struct {
	id      int
	method  string
	target  string
	started time.Time
	ended   time.Time
	cancel  context.CancelFunc
	state   opState
	err     error

	// reqSeq is the Seq of the request on the wire (the latest one, after modern retries);
	// answered is set once a response to it arrived.
	reqSeq   uint64
	answered bool
	progress float64
	total    float64
	progMsg  string
	// late is the response that came after the user cancelled.
	late *mcpclient.Event
}

// running reports whether the op waits for its answer.
func (o *op) running() bool { return o != nil && o.state == opRunning }

// opTable holds the UI's ops by id.
type opTable struct {
	next int
	all  map[int]*op
}

func newOpTable() *opTable { return &opTable{all: map[int]*op{}} }

// start registers a new op and gives its context (cancelled by the cancel key).
func (t *opTable) start(parent context.Context, method, target string, now time.Time) (*op, context.Context) {
	t.next++
	ctx, cancel := context.WithCancel(parent)
	o := &op{id: t.next, method: method, target: target, started: now, cancel: cancel}
	t.all[o.id] = o
	return o, ctx
}

// get finds an op by id.
func (t *opTable) get(id int) *op { return t.all[id] }

// finish records the outcome of op id: done, failed, or cancelled (context.Canceled).
// It returns the op, or nil when it is unknown.
func (t *opTable) finish(id int, err error, now time.Time) *op {
	o := t.all[id]
	if o == nil || o.state != opRunning {
		return o
	}
	o.ended = now
	o.err = err
	switch {
	case err == nil:
		o.state = opDone
	case errors.Is(err, context.Canceled):
		o.state = opCancelled
	default:
		o.state = opFailed
	}
	if o.cancel != nil && err == nil {
		o.cancel()
	}
	return o
}

// cancelOp cancels a running op: mcpclient sends notifications/cancelled with its id.
func (t *opTable) cancelOp(id int) bool {
	o := t.all[id]
	if o.running() && o.cancel != nil {
		o.cancel()
		return true
	}
	return false
}

// inFlight counts running ops.
func (t *opTable) inFlight() int {
	n := 0
	for _, o := range t.all {
		if o.running() {
			n++
		}
	}
	return n
}

// requestTarget reads the name, uri or taskId a request is about.
func requestTarget(params json.RawMessage) string {
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

// observe follows the ops on the wire: their requests, progress and late responses.
func (t *opTable) observe(ev *mcpclient.Event) {
	if ev.Msg == nil || len(t.all) == 0 {
		return
	}
	switch {
	case ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindRequest:
		target := requestTarget(ev.Msg.Params)
		var retry *op
		for _, o := range t.sorted() {
			if !o.running() || o.method != ev.Msg.Method || o.target != target {
				continue
			}
			if o.reqSeq == 0 {
				o.reqSeq = ev.Seq
				return
			}
			if o.answered && retry == nil {
				retry = o
			}
		}
		if retry != nil {
			// A modern retry (input_required answered): follow the new request.
			retry.reqSeq, retry.answered = ev.Seq, false
		}
	case ev.Kind == mcpclient.KindNotification && ev.Msg.Method == "notifications/progress" && ev.Pair != 0:
		for _, o := range t.all {
			if o.reqSeq == ev.Pair && o.running() {
				var p progressParams
				if json.Unmarshal(ev.Msg.Params, &p) == nil {
					o.progress, o.total, o.progMsg = p.Progress, p.Total, p.Message
				}
			}
		}
	case ev.Dir == mcpclient.ServerToClient && (ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse) && ev.Pair != 0:
		for _, o := range t.all {
			if o.reqSeq != ev.Pair {
				continue
			}
			o.answered = true
			if o.state == opCancelled && o.late == nil {
				e := *ev
				o.late = &e
			}
		}
	}
}

// sorted lists ops oldest first.
func (t *opTable) sorted() []*op {
	out := make([]*op, 0, len(t.all))
	for i := 1; i <= t.next; i++ {
		if o := t.all[i]; o != nil {
			out = append(out, o)
		}
	}
	return out
}

// opLines draws an op's state: elapsed time and progress while running; cancelled with the
// late response when one came; the error when it failed. Done ops draw nothing (the pane
// shows the result).
func opLines(st *stylesT, bar barView, o *op, now time.Time, w int) []string {
	if o == nil {
		return nil
	}
	var out []string
	switch o.state {
	case opRunning:
		out = append(out, st.Accent.Render(fmt.Sprintf("⟳ %s %s: waiting for the answer… %s", o.method, clean(o.target), now.Sub(o.started).Round(100*time.Millisecond))))
		if o.total > 0 {
			out = append(out, bar(min(o.progress/o.total, 1))+fmt.Sprintf("  %g/%g", o.progress, o.total))
		} else if o.progress > 0 {
			out = append(out, fmt.Sprintf("progress: %g", o.progress))
		}
		if o.progMsg != "" {
			out = append(out, wrapStyled(st.Muted, clean(o.progMsg), w)...)
		}
		out = append(out, st.Muted.Render("ctrl+x cancels (sends notifications/cancelled)"))
	case opCancelled:
		out = append(out, st.Warning.Render(fmt.Sprintf("%s %s: cancelled by you after %s (notifications/cancelled sent)", o.method, clean(o.target), o.ended.Sub(o.started).Round(time.Millisecond))))
		if o.late != nil {
			out = append(out, wrapStyled(st.Warning, fmt.Sprintf("a late response arrived after the cancel (#%d); it is not used:", o.late.Seq), w)...)
			out = append(out, wrap(clean(strings.TrimSpace(string(o.late.Raw))), w)...)
		}
	case opFailed:
		out = append(out, errorLines(st, o.err, w)...)
	}
	return out
}

// barView draws a progress bar at a fraction.
type barView func(frac float64) string
