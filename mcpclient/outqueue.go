package mcpclient

import "sync"

// outQueue is an HTTP transport's queue of frames waiting to be sent: send appends, the
// transport's one sender goroutine takes everything queued at once, in order. It exists so
// the Streamable HTTP and HTTP+SSE transports share one ordering rule.
type outQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	frames  []outFrame
	closing bool
}

func newOutQueue() *outQueue {
	q := &outQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// push queues f and wakes the sender.
func (q *outQueue) push(f outFrame) {
	q.mu.Lock()
	q.frames = append(q.frames, f)
	q.cond.Signal()
	q.mu.Unlock()
}

// take blocks until frames are queued or the queue is closed, and returns what is queued,
// oldest first. It returns nil only once the queue is closed and empty: frames queued before
// close still come out.
func (q *outQueue) take() []outFrame {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.frames) == 0 && !q.closing {
		q.cond.Wait()
	}
	batch := q.frames
	q.frames = nil
	return batch
}

// close makes take return nil once what is queued has been taken.
func (q *outQueue) close() {
	q.mu.Lock()
	q.closing = true
	q.cond.Signal()
	q.mu.Unlock()
}
