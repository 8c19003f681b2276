package tap

import (
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The side path. The forward loops hand a copy of every chunk they read (and lifecycle
// changes) to one unbounded FIFO, which never blocks them. One sequencer goroutine takes the
// items in the order the tap saw them and lets a per-stream mcpclient.Framer consume each
// chunk completely before the next item is looked at, so events get sequence numbers in
// wire order across the three streams: a request is always numbered before the response
// the server could only write after reading it.

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
	data   []byte // a copy of the bytes read
	eof    bool   // the stream ended
	t      time.Time
	life   *mcpclient.LifeInfo // a lifecycle event instead of bytes
}

// fifo is an unbounded queue with one consumer. push never blocks: if the recorder falls
// behind, memory grows instead of the host↔server stream slowing down.
type fifo struct {
	mu     sync.Mutex
	items  []item
	wake   chan struct{}
	closed bool
	queued atomic.Int64 // bytes waiting, for tests and the log
}

func newFIFO() *fifo { return &fifo{wake: make(chan struct{}, 1)} }

func (q *fifo) push(it item) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.items = append(q.items, it)
	q.mu.Unlock()
	q.queued.Add(int64(len(it.data)))
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
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// take returns everything queued, waiting for at least one item; ok is false once the
// queue is closed and empty.
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
		q.mu.Unlock()
		if closed {
			return nil, false
		}
		<-q.wake
	}
}

// sequencer turns the FIFO's items into events and hands them to emit in order.
type sequencer struct {
	q       *fifo
	emit    func(mcpclient.Event)
	streams [numStreams]*framed
	done    chan struct{}
}

// framed runs one stream's Framer on its own goroutine, fed one chunk at a time.
type framed struct {
	dir      mcpclient.Direction
	in       chan item     // the next chunk (or EOF)
	consumed chan struct{} // the previous chunk was read to its end and its frames emitted
	cur      item
	off      int
	fed      bool // a chunk was handed in and not yet acknowledged
	ended    bool
}

func newSequencer(q *fifo, maxMessage int, emit func(mcpclient.Event)) *sequencer {
	s := &sequencer{q: q, emit: emit, done: make(chan struct{})}
	dirs := [numStreams]mcpclient.Direction{mcpclient.ClientToServer, mcpclient.ServerToClient, mcpclient.Stderr}
	for i := range s.streams {
		f := &framed{dir: dirs[i], in: make(chan item), consumed: make(chan struct{})}
		s.streams[i] = f
		max := maxMessage
		if dirs[i] == mcpclient.Stderr {
			max = 1 << 20
		}
		go f.run(mcpclient.NewFramer(f, max), emit)
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
			s.q.queued.Add(-int64(len(it.data)))
			if it.life != nil {
				s.emit(mcpclient.Event{Time: it.t, Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: it.life})
				continue
			}
			f := s.streams[it.stream]
			if f.ended {
				continue
			}
			f.in <- *it
			<-f.consumed
			if it.eof {
				f.ended = true
			}
			batch[i] = item{} // let the chunk's bytes go
		}
		buf = batch[:0]
	}
	// Streams that never saw their end (the tap is stopping) flush what they hold.
	for _, f := range s.streams {
		if !f.ended {
			f.in <- item{eof: true, t: time.Now()}
			<-f.consumed
			f.ended = true
		}
	}
}

// Read gives the Framer the current chunk. Being called again after a chunk was read to its
// end means every frame that chunk completed has been emitted: the sequencer may go on.
func (f *framed) Read(p []byte) (int, error) {
	for f.off >= len(f.cur.data) {
		if f.cur.eof {
			return 0, io.EOF
		}
		if f.fed {
			f.consumed <- struct{}{}
			f.fed = false
		}
		f.cur, f.off = <-f.in, 0
		f.fed = true
	}
	n := copy(p, f.cur.data[f.off:])
	f.off += n
	return n, nil
}

func (f *framed) run(fr *mcpclient.Framer, emit func(mcpclient.Event)) {
	for {
		fm, err := fr.Next()
		if err != nil {
			break
		}
		ev := mcpclient.Event{
			Time: f.cur.t, Dir: f.dir, Raw: fm.Raw, Size: fm.Size, Offset: fm.Offset, Line: fm.Line,
			Chunks: fm.Chunks, ChunkCount: fm.ChunkCount,
		}
		switch {
		case f.dir == mcpclient.Stderr:
			ev.Kind = mcpclient.KindStderr
		case fm.Oversize:
			ev.Kind = mcpclient.KindOversize
		default:
			ev.Kind, ev.Msg, ev.Problems = mcpclient.Classify(fm.Raw)
			if fm.Partial && !ev.Kind.IsMessage() {
				ev.Kind = mcpclient.KindPartial
			}
		}
		emit(ev)
	}
	// The end of the stream was read: acknowledge it.
	if f.fed {
		f.consumed <- struct{}{}
		f.fed = false
	}
}
