package check

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Session names: the main session runs the battery (and is the one --record keeps); the
// others only open a connection to test the handshake.
const (
	SessionMain     = "main"
	SessionFuture   = "version-future"
	SessionOldest   = "version-oldest"
	SessionDiscover = "discover"
)

// wire is one session: its client and every event it emitted, in order, gathered from
// Config.OnEvent so a check can look for a frame the client did not pair (a response to a
// raw request, a response to a notification).
type wire struct {
	name   string
	client *mcpclient.Client
	start  time.Time
	// trace is the file the session is recorded to ("" when it is not); traceDone
	// finishes it once the client has closed (Options.Record).
	trace     string
	traceDone func()

	mu      sync.Mutex
	events  []mcpclient.Event
	changed chan struct{} // closed and replaced on every event
}

func newWire(name string) *wire {
	return &wire{name: name, changed: make(chan struct{}), start: time.Now()}
}

// close shuts a short session down and finishes its trace.
func (w *wire) close() {
	if w.client != nil {
		w.client.Close()
	}
	if w.traceDone != nil {
		w.traceDone()
		w.traceDone = nil
	}
}

// observe is the session's Config.OnEvent.
func (w *wire) observe(ev mcpclient.Event) {
	w.mu.Lock()
	w.events = append(w.events, ev)
	close(w.changed)
	w.changed = make(chan struct{})
	w.mu.Unlock()
}

// mark is the number of events so far: a later since(mark) gives what came after.
func (w *wire) mark() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.events)
}

// since is the events from index mark on.
func (w *wire) since(mark int) []mcpclient.Event {
	w.mu.Lock()
	defer w.mu.Unlock()
	if mark > len(w.events) {
		return nil
	}
	return append([]mcpclient.Event(nil), w.events[mark:]...)
}

// all is every event so far.
func (w *wire) all() []mcpclient.Event { return w.since(0) }

// waitFor waits up to d for an event from index mark on that match accepts; ok is false
// when none came (or ctx ended).
func (w *wire) waitFor(ctx context.Context, mark int, d time.Duration, match func(mcpclient.Event) bool) (mcpclient.Event, bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		w.mu.Lock()
		for i := mark; i < len(w.events); i++ {
			if match(w.events[i]) {
				ev := w.events[i]
				w.mu.Unlock()
				return ev, true
			}
		}
		mark = len(w.events)
		ch := w.changed
		w.mu.Unlock()
		select {
		case <-ch:
		case <-t.C:
			return mcpclient.Event{}, false
		case <-ctx.Done():
			return mcpclient.Event{}, false
		}
	}
}

// ev is seq as an Event of this session.
func (w *wire) ev(seqs ...uint64) []Event {
	var out []Event
	for _, s := range seqs {
		if s > 0 {
			out = append(out, Event{Session: w.name, Seq: s})
		}
	}
	return out
}

// exchange is one request's outcome with the events that show it.
type exchange struct {
	resp   *mcpclient.Response
	err    error
	events []Event
}

// rpcErr is the JSON-RPC error the server answered, nil when it answered a result or did
// not answer.
func (x exchange) rpcErr() *mcpclient.RPCError {
	var e *mcpclient.RPCError
	if errors.As(x.err, &e) {
		return e
	}
	return nil
}

// result is the raw result, nil on any error.
func (x exchange) result() json.RawMessage {
	if x.err != nil || x.resp == nil || x.resp.Msg == nil {
		return nil
	}
	return x.resp.Msg.Result
}

// request sends one request on the session with timeout d and keeps the request's and the
// response's seqs.
func (w *wire) request(ctx context.Context, method string, params any, d time.Duration) exchange {
	var x exchange
	opt := &mcpclient.RequestOptions{Timeout: d, OnSent: func(seq uint64, _ json.RawMessage) {
		x.events = append(x.events, w.ev(seq)...)
	}}
	x.resp, x.err = w.client.Request(ctx, method, params, opt)
	if x.resp != nil {
		x.events = append(x.events[:0], w.ev(x.resp.RequestSeq, x.resp.Seq)...)
		w.seen(x.resp.Seq)
	}
	return x
}

// observeWait bounds how long the check waits for an event the client has emitted to
// reach the wire (Config.OnEvent runs on a goroutine of its own).
const observeWait = 2 * time.Second

// await waits until the wire has observed an event match accepts.
func (w *wire) await(match func(mcpclient.Event) bool) (mcpclient.Event, bool) {
	return w.waitFor(context.Background(), 0, observeWait, match)
}

// seen waits until the wire has observed event seq.
func (w *wire) seen(seq uint64) {
	w.await(func(ev mcpclient.Event) bool { return ev.Seq >= seq })
}

// sent waits for the next frame the client wrote from mark on and returns its seq.
func (w *wire) sent(mark int) uint64 {
	ev, _ := w.waitFor(context.Background(), mark, observeWait, func(ev mcpclient.Event) bool {
		return ev.Dir == mcpclient.ClientToServer
	})
	return ev.Seq
}

// raw writes b as it is and returns the seq of the frame written (0 when it could not be
// found) with the mark to look for its answer from.
func (w *wire) raw(b string) (uint64, int, error) {
	m := w.mark()
	if err := w.client.SendRaw([]byte(b)); err != nil {
		return 0, m, err
	}
	return w.sent(m), m, nil
}

// sentID finds the request the client numbered with id (raw JSON) on this session.
func (w *wire) sentID(id string) (mcpclient.Event, bool) {
	for _, ev := range w.all() {
		if ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindRequest && ev.Msg != nil && idValue(ev.Msg.ID) == idValue([]byte(id)) {
			return ev, true
		}
	}
	return mcpclient.Event{}, false
}

// answerTo matches a server response or error response whose id is exactly id (raw JSON,
// the same type).
func answerTo(id string) func(mcpclient.Event) bool {
	return func(ev mcpclient.Event) bool {
		return ev.Dir == mcpclient.ServerToClient && ev.Msg != nil &&
			(ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse) &&
			string(ev.Msg.ID) == id
	}
}
