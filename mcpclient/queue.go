package mcpclient

import "sync"

// eventQueue is an unbounded FIFO between the readers (which must never block on a slow
// consumer, or the server's pipes fill and it stalls) and one ordered consumer, fed from its
// own goroutine.
type eventQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	items   []Event
	spare   []Event // the last batch's array, emptied, for the next one (no allocation per batch)
	closed  bool
	busy    bool // the pump holds a batch it has not delivered yet
	deliver func(Event)
	// direct, for a channel queue, is the channel itself: while nothing waits in the queue
	// push sends into it at once when it has room, which spares the pump's wake-up per event
	// (most of an event's cost at one request at a time).
	direct chan Event
	// done is closed after the last event was delivered.
	done chan struct{}
}

func newEventQueue(deliver func(Event), finish func()) *eventQueue {
	q := &eventQueue{deliver: deliver, done: make(chan struct{})}
	q.cond = sync.NewCond(&q.mu)
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
	q.cond.Signal()
}

// close lets the pump deliver what is queued, then finish.
func (q *eventQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Signal()
	q.mu.Unlock()
}

// maxSpare bounds the batch array kept for reuse, in events.
const maxSpare = 1024

func (q *eventQueue) pump(finish func()) {
	defer close(q.done)
	if finish != nil {
		defer finish()
	}
	var batch []Event
	for {
		q.mu.Lock()
		q.busy = false
		if batch != nil && cap(batch) <= maxSpare {
			q.spare = batch[:0]
		}
		for len(q.items) == 0 && !q.closed {
			q.cond.Wait()
		}
		if len(q.items) == 0 && q.closed {
			q.mu.Unlock()
			return
		}
		batch = q.items
		q.items, q.spare = q.spare, nil
		q.busy = true
		q.mu.Unlock()
		for _, ev := range batch {
			q.deliver(ev)
		}
		clear(batch) // the events' buffers are the consumer's now
	}
}
