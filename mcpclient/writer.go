package mcpclient

import (
	"os"
	"sync"
)

// lineWriter writes frames to the server's stdin from its own goroutine, so a server that
// stops reading never blocks a caller (or the UI) on a full pipe.
type lineWriter struct {
	f     *os.File
	onErr func(error)

	mu      sync.Mutex
	cond    *sync.Cond
	queue   [][]byte
	closing bool
	failed  bool
}

func newLineWriter(f *os.File, onErr func(error)) *lineWriter {
	w := &lineWriter{f: f, onErr: onErr}
	w.cond = sync.NewCond(&w.mu)
	go w.run()
	return w
}

func (w *lineWriter) write(b []byte) {
	w.mu.Lock()
	if !w.closing && !w.failed {
		w.queue = append(w.queue, b)
		w.cond.Signal()
	}
	w.mu.Unlock()
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
		for len(w.queue) == 0 && !w.closing {
			w.cond.Wait()
		}
		if len(w.queue) == 0 {
			w.mu.Unlock()
			return
		}
		batch := w.queue
		w.queue = nil
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
