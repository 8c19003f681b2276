package mcpclient

import (
	"os"
	"sync"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// lineWriter writes frames to the server's stdin without ever blocking a caller (or the UI)
// on a full pipe, which a server that stops reading would cause. While nothing is queued a
// frame is written at once from the caller's goroutine with one non-blocking write(2): a
// hand-off to another goroutine per request costs more than the write itself (it wakes a
// thread on a busy machine). What the pipe does not take then, and everything after it
// until the queue drains, goes to the writer goroutine, in order. Where pipes cannot be
// non-blocking (Windows) every frame goes to the writer goroutine.
type lineWriter struct {
	f     *os.File
	fast  *platform.NonblockingWriter // the non-blocking fast path; nil: always queue
	onErr func(error)

	mu      sync.Mutex
	cond    *sync.Cond
	queue   [][]byte
	busy    bool // the writer goroutine holds a batch it has not finished writing
	closing bool
	failed  bool
}

func newLineWriter(f *os.File, onErr func(error)) *lineWriter {
	w := &lineWriter{f: f, onErr: onErr}
	// os.Pipe's descriptors are non-blocking on Unix (they use the runtime poller), which
	// the fast path relies on: a full pipe gives EAGAIN instead of blocking the caller.
	w.fast = platform.NewNonblockingWriter(f)
	w.cond = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// write sends b (a whole frame) or queues it; b must not be modified afterwards.
func (w *lineWriter) write(b []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing || w.failed {
		return
	}
	if len(w.queue) == 0 && !w.busy && w.fast != nil {
		n := w.fast.TryWrite(b)
		if n == len(b) {
			return
		}
		// EAGAIN, a short write or an error: the writer goroutine writes the rest (and meets
		// any error again, and reports it).
		b = b[n:]
	}
	w.queue = append(w.queue, b)
	w.cond.Signal()
}

// close flushes what is queued, then closes the pipe (the server sees EOF on stdin).
func (w *lineWriter) close() {
	w.mu.Lock()
	w.closing = true
	w.cond.Signal()
	w.mu.Unlock()
}

func (w *lineWriter) run() {
	defer w.f.Close()
	for {
		w.mu.Lock()
		w.busy = false
		for len(w.queue) == 0 && !w.closing {
			w.cond.Wait()
		}
		if len(w.queue) == 0 {
			w.mu.Unlock()
			return
		}
		batch := w.queue
		w.queue = nil
		w.busy = true
		w.mu.Unlock()
		for _, b := range batch {
			if _, err := w.f.Write(b); err != nil {
				w.mu.Lock()
				w.failed = true
				w.queue = nil
				w.mu.Unlock()
				if w.onErr != nil {
					w.onErr(err)
				}
				return
			}
		}
	}
}
