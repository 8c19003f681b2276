package tap

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The side path. The forward loops hand every buffer they read (and lifecycle changes) to
// one unbounded FIFO, which never blocks them, and go on. One sequencer goroutine takes the
// items in the order the tap saw them and splits each stream into frames, so events get
// sequence numbers in wire order across the three streams: a request is always numbered
// before the response the server could only write after reading it.
//
// Framing happens on that one goroutine with mcpclient.Framer in push mode (one per
// stream): the pull mode would need a goroutine per stream fed chunk by chunk, and that
// lockstep hand-off kept the scheduler so busy that the forward path lost most of its
// throughput. Push mode also lends frames that lie within one read without copying them.

// streamID names one of the three byte streams the tap copies.
type streamID uint8

const (
	streamIn     streamID = iota // host → server (the server's stdin)
	streamOut                    // server → host (the server's stdout)
	streamStderr                 // server's stderr
	numStreams
)

// item is one entry of the side path's FIFO.
type item struct {
	stream streamID
	data   []byte    // the bytes read (in buf, shared with the forward path)
	buf    *chunkBuf // released once the bytes were framed
	eof    bool      // the stream ended
	t      time.Time
	life   *mcpclient.LifeInfo // a lifecycle event instead of bytes
	ev     *mcpclient.Event    // a frame the tap wrote itself (--inject), recorded as it is
}

// chunkBuf is a forward-path buffer: a large read handed to the recorder as it is, or a
// slab that small reads are copied into. Every holder (the forward loop, each queued item)
// has a reference; the last one released gives it back to the pool.
type chunkBuf struct {
	b    []byte
	refs atomic.Int32
	pool *chunkPool
}

// chunkPool keeps forward-path buffers for reuse. Unlike a sync.Pool it is not emptied by
// every garbage collection, which made the forward loops allocate and zero a new 64 KiB
// buffer after each GC cycle (the recorder allocates steadily, so GCs are frequent).
type chunkPool struct{ free chan *chunkBuf }

// maxFreeChunks bounds what the pool keeps: 2 MiB.
const maxFreeChunks = 32

func newChunkPool() *chunkPool { return &chunkPool{free: make(chan *chunkBuf, maxFreeChunks)} }

// get returns a free buffer, or a new one, holding one reference.
func (p *chunkPool) get() *chunkBuf {
	var c *chunkBuf
	select {
	case c = <-p.free:
	default:
		c = &chunkBuf{b: make([]byte, chunkSize), pool: p}
	}
	c.refs.Store(1)
	return c
}

// put keeps c for reuse, or drops it when the pool is full.
func (p *chunkPool) put(c *chunkBuf) {
	select {
	case p.free <- c:
	default:
	}
}

// release drops one reference; the last one returns the buffer to its pool.
func (c *chunkBuf) release() {
	if c != nil && c.refs.Add(-1) == 0 {
		c.pool.put(c)
	}
}

// fifo is an unbounded queue with one consumer. push never blocks: if the recorder falls
// behind, memory grows instead of the host↔server stream slowing down.
//
// Waking the consumer (a goroutine made ready, often a thread woken) costs far more than
// queueing, so it is done only when the consumer is parked: add says so, and
// the consumer, once awake, pauses recordPause between batches instead of parking, so a
// busy stream wakes it about once per pause rather than once per read.
type fifo struct {
	mu     sync.Mutex
	items  []item
	wake   chan struct{}
	idle   bool // the consumer found the queue empty and waits for a ring
	closed bool
}

func newFIFO() *fifo { return &fifo{wake: make(chan struct{}, 1)} }

// push queues an item and wakes the consumer if it waits.
func (q *fifo) push(it item) {
	if q.add(it) {
		q.ring()
	}
}

// add queues an item without waking the consumer and reports whether the consumer waits
// (the caller then rings). The forward loops queue what they read before writing it on (so
// a request is always in line before its answer), and ring only after the write, so waking
// the recorder never delays the bytes.
func (q *fifo) add(it item) (wake bool) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		it.buf.release()
		return false
	}
	q.items = append(q.items, it)
	wake, q.idle = q.idle, false
	q.mu.Unlock()
	return wake
}

// ring wakes the consumer.
func (q *fifo) ring() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// close lets the consumer take what is queued, then stop.
func (q *fifo) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.ring()
}

// take returns everything queued, waiting for at least one item; ok is false once the
// queue is closed and empty. buf is a drained slice to reuse.
func (q *fifo) take(buf []item) ([]item, bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			batch := q.items
			q.items = buf[:0]
			q.mu.Unlock()
			return batch, true
		}
		closed := q.closed
		q.idle = !closed
		q.mu.Unlock()
		if closed {
			return nil, false
		}
		<-q.wake
	}
}

// recordPause is how long the sequencer lets items gather after a batch before it takes
// the next: the recorder and viewers lag the wire by up to this much, and a busy stream
// costs one wake-up per pause instead of one per read.
const recordPause = time.Millisecond

// sequencer turns the FIFO's items into events and hands them to emit in order; flush is
// called after each batch of items (and may be nil).
type sequencer struct {
	q     *fifo
	emit  func(mcpclient.Event)
	flush func()
	split [numStreams]*splitter
	done  chan struct{}
}

func newSequencer(q *fifo, maxMessage int, emit func(mcpclient.Event), flush func()) *sequencer {
	if flush == nil {
		flush = func() {}
	}
	s := &sequencer{q: q, emit: emit, flush: flush, done: make(chan struct{})}
	s.split[streamIn] = newSplitter(mcpclient.ClientToServer, maxMessage)
	s.split[streamOut] = newSplitter(mcpclient.ServerToClient, maxMessage)
	s.split[streamStderr] = newSplitter(mcpclient.Stderr, 1<<20)
	for _, sp := range s.split {
		sp.emit = func(fm mcpclient.Frame) { s.emit(sp.event(fm)) }
	}
	go s.run()
	return s
}

func (s *sequencer) run() {
	defer close(s.done)
	var buf []item
	for {
		batch, ok := s.q.take(buf)
		if !ok {
			break
		}
		for i := range batch {
			it := &batch[i]
			if it.life != nil {
				s.emit(mcpclient.Event{Time: it.t, Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: it.life})
				continue
			}
			if it.ev != nil {
				it.ev.Time = it.t
				s.emit(*it.ev)
				continue
			}
			sp := s.split[it.stream]
			sp.t = it.t
			sp.fr.Feed(it.data, sp.emit)
			it.buf.release()
			if it.eof {
				sp.fr.End(sp.emit)
			}
			batch[i] = item{}
		}
		s.flush()
		buf = batch[:0]
		time.Sleep(recordPause)
	}
	for _, sp := range s.split {
		sp.t = time.Now()
		sp.fr.End(sp.emit)
	}
	s.flush()
}

// splitter frames one stream: a push-mode mcpclient.Framer, the stream's direction, and
// when the bytes being fed were read. The frames it emits are lent (see Framer.Feed): the
// trace writer encodes Raw at once and keeps nothing.
type splitter struct {
	dir  mcpclient.Direction
	fr   *mcpclient.Framer
	emit func(mcpclient.Frame)
	t    time.Time
}

func newSplitter(dir mcpclient.Direction, max int) *splitter {
	return &splitter{dir: dir, fr: mcpclient.NewPushFramer(max)}
}

// event makes the trace event of a frame. The trace stores raw bytes only and readers
// classify them again, so only what the writer needs is set: parsing every message here
// would cost the side path for nothing.
func (f *splitter) event(fm mcpclient.Frame) mcpclient.Event {
	ev := mcpclient.Event{
		Time: f.t, Dir: f.dir, Raw: fm.Raw, Size: fm.Size, Offset: fm.Offset, Line: fm.Line,
		Chunks: fm.Chunks, ChunkCount: fm.ChunkCount,
	}
	switch {
	case f.dir == mcpclient.Stderr:
		ev.Kind = mcpclient.KindStderr
	case fm.Oversize:
		ev.Kind = mcpclient.KindOversize
	case fm.Partial:
		ev.Kind = mcpclient.KindPartial
	}
	return ev
}
