package mcpclient

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// eventQueue is a FIFO between the client's goroutines and one ordered consumer, fed from
// its own goroutine. push never blocks: events are stamped and pushed under Client.mu, and a
// consumer may need that lock (State, Err) to make progress.
//
// The bound is backpressure, as a real MCP client has it: before reading the next frame,
// the stdout and stderr readers call waitRoom, which blocks (holding no lock) while the
// queue holds more than maxQueued events or maxQueuedBytes of frame bytes not yet handed
// to the consumer, until it has drained to half of that. The server's pipe then fills and
// its writes block, so a flood costs memory for a bounded backlog, not for its length, and
// nothing is lost or dropped. An HTTP session's SSE readers (the GET stream, a POST
// answered with a stream, its resumption, the HTTP+SSE stream) wait the same way after
// each frame they read (waitRoomHTTP): the connection's buffers fill and TCP stops the
// server's writes. The alternative, keeping only the queued events' bytes until
// the recorder has written them and reading them back, would still grow with the backlog
// (every event's parsed envelope and summary) and would make every consumer read files.
//
// What keeps it from hanging:
//   - push (requests written, lifecycle events, pairing) never waits, so a caller's
//     request is sent and a response read pairs with it under Client.mu whatever the
//     backlog; a response waits only for the consumer to take half the backlog.
//   - The Events queue is bounded only once Events has been called (activate): a client
//     whose events nobody reads (a headless helper that only calls) queues them as before
//     and never stalls its server.
//   - When the server process has exited, release lifts the bound: what is left in the
//     pipes is at most their buffers, and the readers must reach EOF for the session to
//     end (Close, the exit event) even when the consumer has stopped reading.
//   - close (the session's end) lifts it too.
//   - HTTP: a frame that holds the response to a pending request does not wait (its
//     request's own stream may be the one the flood is on), nor does a JSON response
//     body (one per request POSTed); a stream's wait ends when its context does (the
//     request cancelled, the session closing), so Close and its DELETE never wait for
//     the consumer.
type eventQueue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	room  *sync.Cond // waitRoom waits here; signalled when the backlog is below the low mark
	items []Event
	// pending and pendingBytes are the events (and their len(Raw)) pushed into items and
	// not yet delivered; waiting counts the readers in waitRoom.
	pending      atomic.Int64
	pendingBytes atomic.Int64
	waiting      atomic.Int32
	bounded      atomic.Bool // waitRoom applies the bound (activate)
	released     bool        // the bound is lifted for good (release, close)
	spare        []Event     // the last batch's array, emptied, for the next one (no allocation per batch)
	closed       bool
	busy         bool          // the pump holds a batch it has not delivered yet
	deliver      func(Event)   // each event, in order (nil: none)
	deliverRun   func([]Event) // each run the pump takes, before deliver (nil: none)
	// direct, for a channel queue, is the channel itself: while nothing waits in the queue
	// push sends into it at once when it has room, which spares the pump's wake-up per event
	// (most of an event's cost at one request at a time).
	direct chan Event
	// done is closed after the last event was delivered.
	done chan struct{}
	// linger, when set, is how long the pump waits for more events after the first one that
	// finds it idle, before it takes the batch (Config.ObserveGather); parked says it waits
	// for that first one.
	linger time.Duration
	parked bool
}

// lingerBatch is how many events wake a gathering pump early (Config.ObserveGather).
const lingerBatch = 512

func newEventQueue(deliver func(Event), finish func()) *eventQueue {
	q := &eventQueue{deliver: deliver, done: make(chan struct{})}
	q.cond = sync.NewCond(&q.mu)
	q.room = sync.NewCond(&q.mu)
	go q.pump(finish)
	return q
}

// newChanQueue delivers into a channel that is closed after the last event.
func newChanQueue() (*eventQueue, chan Event) {
	ch := make(chan Event, 256)
	q := newEventQueue(func(ev Event) { ch <- ev }, func() { close(ch) })
	q.direct = ch
	return q, ch
}

func (q *eventQueue) push(ev Event) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	if q.direct != nil && len(q.items) == 0 && !q.busy {
		// Everything before ev is in the channel already, so order holds.
		select {
		case q.direct <- ev:
			return
		default:
		}
	}
	q.items = append(q.items, ev)
	q.pending.Add(1)
	q.pendingBytes.Add(int64(len(ev.Raw)))
	if q.linger == 0 || q.parked || len(q.items) >= lingerBatch {
		q.parked = false
		q.cond.Signal()
	}
}

// Backlog bounds (see eventQueue): a reader waits above either high mark until the backlog
// is at or below half of both. 4,096 events are about one UI batch; 16 MiB lets a few
// large frames through without a wait. A single frame larger than the byte bound passes
// once the queue is empty.
const (
	maxQueued      = 4096
	maxQueuedBytes = 16 << 20
)

// activate turns the bound on (the consumer has started reading).
func (q *eventQueue) activate() { q.bounded.Store(true) }

// full reports whether the backlog is over the high marks; low whether it is at or below
// half of both.
func (q *eventQueue) full() bool {
	return q.pending.Load() > maxQueued || q.pendingBytes.Load() > maxQueuedBytes
}

func (q *eventQueue) low() bool {
	return q.pending.Load() <= maxQueued/2 && q.pendingBytes.Load() <= maxQueuedBytes/2
}

// waitRoom blocks while the queue is bounded and over its high marks, until the consumer
// has taken it down to the low marks or the bound is lifted. The caller must hold no lock
// the consumer may need.
func (q *eventQueue) waitRoom() { q.waitRoomCtx(context.Background()) }

// needsRoom reports whether waitRoom would wait now.
func (q *eventQueue) needsRoom() bool { return q.bounded.Load() && q.full() }

// waitRoomCtx is waitRoom that also returns once ctx is done (an HTTP stream whose request
// was cancelled, or the session's end).
func (q *eventQueue) waitRoomCtx(ctx context.Context) {
	if !q.needsRoom() {
		return
	}
	stop := context.AfterFunc(ctx, func() {
		q.mu.Lock()
		q.room.Broadcast()
		q.mu.Unlock()
	})
	defer stop()
	q.mu.Lock()
	q.waiting.Add(1)
	for !q.released && !q.low() && ctx.Err() == nil {
		q.room.Wait()
	}
	q.waiting.Add(-1)
	q.mu.Unlock()
}

// release lifts the bound for good and wakes the readers waiting for room.
func (q *eventQueue) release() {
	q.mu.Lock()
	q.released = true
	q.room.Broadcast()
	q.mu.Unlock()
}

// delivered accounts for one event handed to the consumer and wakes the waiting readers
// once the backlog is down to the low marks.
func (q *eventQueue) delivered(ev *Event) {
	q.pending.Add(-1)
	q.pendingBytes.Add(-int64(len(ev.Raw)))
	if q.waiting.Load() > 0 && q.low() {
		q.mu.Lock()
		q.room.Broadcast()
		q.mu.Unlock()
	}
}

// close lets the pump deliver what is queued, then finish.
func (q *eventQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.released = true
	q.cond.Signal()
	q.room.Broadcast()
	q.mu.Unlock()
}

// maxSpare bounds the batch array kept for reuse, in events (216 bytes each): twice the
// backlog bound, so that a consumer that runs seldom (bench call's, whose goroutine waits
// behind the caller reading its responses, takes a few thousand events at a time) reuses
// its two arrays. At 1,024 they were dropped and grown again from nothing for every batch:
// 1 KB and a tenth of the CPU of every call.
const maxSpare = 2 * maxQueued

func (q *eventQueue) pump(finish func()) {
	defer close(q.done)
	if finish != nil {
		defer finish()
	}
	if q.linger > 0 {
		// A gathering consumer keeps pace in batches, not event by event: its thread runs
		// at a lower priority, so that its bursts do not hold off the caller and the
		// server when they are woken on its CPU. The thread ends with the goroutine.
		runtime.LockOSThread()
		platform.LowerThreadPriority()
	}
	var batch []Event
	for {
		q.mu.Lock()
		q.busy = false
		if batch != nil && cap(batch) <= maxSpare {
			q.spare = batch[:0]
		}
		for len(q.items) == 0 && !q.closed {
			q.parked = true
			q.cond.Wait()
		}
		q.parked = false
		if len(q.items) == 0 && q.closed {
			q.mu.Unlock()
			return
		}
		if q.linger > 0 && !q.closed && len(q.items) < lingerBatch {
			q.mu.Unlock()
			time.Sleep(q.linger) // let the events that follow join this batch
			q.mu.Lock()
		}
		batch = q.items
		q.items, q.spare = q.spare, nil
		q.busy = true
		q.mu.Unlock()
		if q.deliverRun != nil {
			q.deliverRun(batch)
		}
		for i := range batch {
			if q.deliver != nil {
				q.deliver(batch[i])
			}
			q.delivered(&batch[i])
		}
		clear(batch) // the events' buffers are the consumer's now
	}
}
