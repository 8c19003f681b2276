package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Outcome is how a recorded tools/call ended, in one byte.
type Outcome uint8

// Outcomes of a recorded call.
const (
	OutcomeNone Outcome = iota
	OutcomeOK
	OutcomeIsError
	OutcomeRPCError
	OutcomeBadResult
	OutcomeTaskFailed
	OutcomeTaskCancelled
	// OutcomeTaskUnfinished: the recording holds no terminal state of the task.
	OutcomeTaskUnfinished
	// OutcomeInputAsked: the latest round was answered input_required and the recording
	// holds no next round (the response is that answer).
	OutcomeInputAsked
	// OutcomeCancelled and OutcomeTimedOut: the client sent notifications/cancelled
	// ("timed out" is its reason when the timeout gave up).
	OutcomeCancelled
	OutcomeTimedOut
	// OutcomeServerExited: the server exited while the call (or its task) was pending.
	OutcomeServerExited

	// OutcomeViaTask is or'ed into the outcome of a call answered with a CreateTaskResult
	// (ext-tasks §Polymorphic Results): its result is the task's, not the response's.
	OutcomeViaTask Outcome = 0x80
)

// Words is the outcome in a few words, for a call's row; code is the JSON-RPC error code
// of the response (used by OutcomeRPCError only).
func (oc Outcome) Words(code int64) string {
	switch oc {
	case OutcomeViaTask | OutcomeTaskFailed:
		return "task failed"
	case OutcomeViaTask | OutcomeTaskCancelled:
		return "task cancelled"
	case OutcomeViaTask | OutcomeTaskUnfinished:
		return "task running"
	case OutcomeViaTask | OutcomeOK:
		return "ok (task)"
	case OutcomeViaTask | OutcomeIsError:
		return "isError (task)"
	case OutcomeViaTask | OutcomeBadResult:
		return "bad result"
	case OutcomeViaTask | OutcomeServerExited, OutcomeServerExited:
		return "server exited"
	case OutcomeInputAsked:
		return "input asked"
	case OutcomeCancelled:
		return "cancelled"
	case OutcomeTimedOut:
		return "timed out"
	case OutcomeNone:
		return "no response"
	case OutcomeRPCError:
		return fmt.Sprintf("error %d", code)
	case OutcomeBadResult:
		return "bad result"
	case OutcomeIsError:
		return "isError"
	}
	return "ok"
}

// PastCall is a recorded tools/call as a list row shows it.
type PastCall struct {
	// ReqSeq is the first request's event; RespSeq the event that ended the call (its
	// response, the task's latest state, the cancel or the exit; 0 while none).
	ReqSeq, RespSeq uint64
	Tool            string
	Outcome         Outcome
	// Rounds counts the requests the call sent (1, or more after input_required answers).
	Rounds int
}

// Calls is how many tools/call the recording holds so far.
func (o *Recorded) Calls() int { return len(o.calls) }

// Call is recorded call k (0 ≤ k < Calls()).
func (o *Recorded) Call(k int) PastCall {
	c := &o.calls[k]
	return PastCall{ReqSeq: c.reqSeq, RespSeq: c.respSeq, Tool: o.tools[c.tool], Outcome: c.outcome, Rounds: o.roundCount(k)}
}

// CallsOf lists the indexes of the calls of tool, in order.
func (o *Recorded) CallsOf(tool string) []int {
	var out []int
	ti, ok := o.toolIdx[tool]
	if !ok {
		return nil
	}
	for i := range o.calls {
		if o.calls[i].tool == ti {
			out = append(out, i)
		}
	}
	return out
}

// roundCount is how many requests call k sent: its input_required answers, plus the
// final round unless the last answer asked for input.
func (o *Recorded) roundCount(k int) int {
	n := len(o.rounds[k])
	if n == 0 {
		return 1
	}
	if o.calls[k].outcome != OutcomeInputAsked {
		n++
	}
	return n
}

// RoundAnswers are the Seqs of call k's input_required responses, in order.
func (o *Recorded) RoundAnswers(k int) []uint64 { return o.rounds[k] }

// Late is the Seq of a response recorded after call k had ended (cancelled, timed out,
// the server exited); ok is false when none came.
func (o *Recorded) Late(k int) (seq uint64, ok bool) {
	seq, ok = o.late[k]
	return seq, ok
}

// DeadTask reports whether call k ran as a task that was still running when the server
// exited (its status is the last known one).
func (o *Recorded) DeadTask(k int) bool {
	_, ok := o.deadTasks[k]
	return ok
}

// NoResponseError is the outcome of a recorded tools/call the recording holds no answer to.
type NoResponseError struct{}

func (NoResponseError) Error() string {
	return "no response in the recording (the session ended, or the trace was cut, before the server answered)"
}

// EventSource reads recorded events back by Seq (a trace's index, or a UI's cache).
type EventSource interface {
	// Event is the event numbered seq. ok is false while it is not available yet (still
	// loading, or not seen); err says why it cannot be read at all.
	Event(seq uint64) (ev mcpclient.Event, ok bool, err error)
}

// CallDetail is a recorded tools/call read back from its events, as a live call's state
// looks when it has ended: the arguments, the result or error, the response, the time
// taken, its rounds and the task it ran as.
type CallDetail struct {
	// ID is the call's number (its index + 1).
	ID      int
	Tool    string
	Args    json.RawMessage
	Started time.Time
	ReqSeq  uint64
	Res     *mcpclient.CallToolResult
	Resp    *mcpclient.Response
	Err     error
	Elapsed time.Duration
	// Rounds counts the requests sent when more than one round was recorded (0 otherwise);
	// FirstSeq is then the first request's Seq.
	Rounds   int
	FirstSeq uint64
	// Task is the task the call ran as; ViaTask is set for a call answered with a task.
	Task    *mcpclient.Task
	ViaTask bool
	// RespProblems are the problems of the response frame; RespSeen once it was read.
	RespProblems []mcpclient.Problem
	RespSeen     bool
}

// Detail is recorded call k read back through src; nil while its events are still
// loading. The last one built is kept until the call changes.
func (o *Recorded) Detail(k int, src EventSource) *CallDetail {
	if o.curIdx == k && o.cur != nil {
		return o.cur
	}
	c := &o.calls[k]
	req, ok, err := src.Event(c.reqSeq)
	if !ok && err == nil {
		return nil
	}
	r := &CallDetail{ID: k + 1, Tool: o.tools[c.tool], Args: json.RawMessage("{}"), Started: req.Time, ReqSeq: c.reqSeq, Err: NoResponseError{}}
	if len(o.rounds[k]) > 0 {
		// As the live Call pane: "took X over N rounds · request #first → response #final".
		r.Rounds, r.FirstSeq = o.roundCount(k), c.reqSeq
	}
	if err != nil {
		r.Err = fmt.Errorf("the request could not be read back from the trace: %w", err)
		o.cur, o.curIdx = r, k
		return r
	}
	if req.Msg != nil {
		var p struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		if json.Unmarshal(req.Msg.Params, &p) == nil && len(p.Arguments) > 0 {
			r.Args = p.Arguments
		}
	}
	if c.respSeq != 0 {
		resp, ok, err := src.Event(c.respSeq)
		switch {
		case !ok && err != nil:
			r.Err = fmt.Errorf("the response could not be read back from the trace: %w", err)
		case !ok:
			return nil
		case resp.Msg == nil && resp.Life == nil:
			r.Err = errors.New("the response could not be read back from the trace as a message")
		default:
			o.endCall(r, k, &resp, c.outcome)
		}
		if ok && resp.Kind.IsMessage() && resp.Dir == mcpclient.ServerToClient {
			r.RespSeen, r.RespProblems = true, resp.Problems
		}
	}
	o.cur, o.curIdx = r, k
	return r
}

// endCall fills recorded call k from the event that ended it: its response (finishCall),
// an input_required answer with no next round, the client's cancel or the server's exit.
func (o *Recorded) endCall(r *CallDetail, k int, ev *mcpclient.Event, outcome Outcome) {
	switch outcome &^ OutcomeViaTask {
	case OutcomeInputAsked:
		r.Elapsed = ev.Time.Sub(r.Started)
		r.Resp = &mcpclient.Response{Msg: ev.Msg, Seq: ev.Seq, RequestSeq: ev.Pair, Elapsed: r.Elapsed}
		r.Err = fmt.Errorf("the server asked for input (input_required: %s) and the recording holds no next round: the call has no result", AskedOf(ev))
	case OutcomeCancelled:
		r.Elapsed = ev.Time.Sub(r.Started)
		r.Err = context.Canceled
	case OutcomeTimedOut:
		r.Elapsed = ev.Time.Sub(r.Started)
		r.Err = fmt.Errorf("timed out after %s: the client gave up and sent notifications/cancelled (#%d)", r.Elapsed.Round(time.Millisecond), ev.Seq)
	case OutcomeServerExited:
		o.exitedCall(r, k, ev, outcome)
	default:
		finishCall(r, ev, outcome&OutcomeViaTask != 0)
	}
}

// exitedCall fills call k that the server's exit (ev) ended.
func (o *Recorded) exitedCall(r *CallDetail, k int, ev *mcpclient.Event, outcome Outcome) {
	r.Elapsed = ev.Time.Sub(r.Started)
	how := "server exited"
	if ev.Life != nil && ev.Life.Text != "" {
		how = ev.Life.Text
	}
	req := strconv.FormatUint(r.ReqSeq, 10)
	what := "request #" + req + " (tools/call " + r.Tool + ") was pending"
	if outcome&OutcomeViaTask != 0 {
		what = "the task request #" + req + " created was still running"
		if ts, ok := o.deadTasks[k]; ok && ts.id != "" {
			what = "task " + ts.id + " of tools/call " + r.Tool + " (request #" + req + ") was still running"
			// The call was answered (the CreateTaskResult): say which response, and the
			// task as it last stood, as the live pane did.
			if ts.created != 0 {
				r.Resp = &mcpclient.Response{Seq: ts.created, RequestSeq: r.ReqSeq, Elapsed: r.Elapsed}
			}
			r.Task, r.ViaTask = &mcpclient.Task{TaskID: ts.id, Status: ts.status}, true
		}
	}
	r.Err = fmt.Errorf("%s (event #%d) while %s", how, ev.Seq, what)
}

// AskedOf lists the input requests of an input_required answer: "roots/list,
// sampling/createMessage" (the keys when a method is missing).
func AskedOf(ev *mcpclient.Event) string {
	if ev.Msg == nil {
		return "?"
	}
	ir, ok := mcpclient.ParseInputRequired(ev.Msg.Result)
	if !ok || len(ir.Order) == 0 {
		return "no input requests"
	}
	var names []string
	for _, k := range ir.Order {
		m := ir.Requests[k].Method
		if m == "" {
			m = k
		}
		names = append(names, m)
	}
	return strings.Join(names, ", ")
}

// finishCall fills a recorded call from its response: the result, an isError result or
// the JSON-RPC error, and the time between the two events. For a call that ran as a task
// (viaTask), ev is the task's latest recorded state and the result is the task's.
func finishCall(r *CallDetail, ev *mcpclient.Event, viaTask bool) {
	r.Elapsed = ev.Time.Sub(r.Started)
	msg := *ev.Msg
	msg.Params = nil
	r.Resp = &mcpclient.Response{Msg: &msg, Seq: ev.Seq, RequestSeq: ev.Pair, Elapsed: r.Elapsed}
	r.Err, r.Res = nil, nil
	result := ev.Msg.Result
	if viaTask {
		var t mcpclient.Task
		state := ev.Msg.Result
		if ev.Msg.Method != "" { // notifications/tasks: the task is the params
			state = ev.Msg.Params
		}
		if err := json.Unmarshal(state, &t); err != nil {
			r.Err = fmt.Errorf("the task's recorded state could not be read: %w", err)
			return
		}
		r.Task, r.ViaTask = &t, true
		r.Resp.RequestSeq = r.ReqSeq // the tools/call, not the tasks/get that ended it
		if !t.Terminal() {
			r.Err = fmt.Errorf("task %s was still %s when the recording ended: no result was recorded", t.TaskID, t.Status)
			return
		}
		res, err := t.Outcome()
		if err != nil {
			r.Err = err
			return
		}
		result = res
	} else if ev.Msg.Error != nil {
		r.Err = ev.Msg.Error
		return
	}
	var res mcpclient.CallToolResult
	if err := json.Unmarshal(result, &res); err != nil {
		r.Err = fmt.Errorf("tools/call result is not a CallToolResult: %w", err)
		return
	}
	r.Res = &res
}
