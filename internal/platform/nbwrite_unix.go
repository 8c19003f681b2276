//go:build unix

package platform

import (
	"os"
	"syscall"
)

// NonblockingWriter writes to a non-blocking pipe (os.Pipe's ends are) from the caller's
// goroutine with one write(2) that never waits: a hand-off to another goroutine per frame
// costs more than the write itself. It is not safe for concurrent use (its one caller
// holds a lock around TryWrite): the frame and the count live in it, so a write allocates
// nothing.
type NonblockingWriter struct {
	rc    syscall.RawConn
	write func(fd uintptr) bool // w.writeFD, bound once
	b     []byte                // the frame TryWrite is writing
	n     int                   // what write(2) returned for it
}

// NewNonblockingWriter returns the fast path for f, nil where there is none (f has no raw
// descriptor; Windows pipes): the caller then always queues.
func NewNonblockingWriter(f *os.File) *NonblockingWriter {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	w := &NonblockingWriter{rc: rc}
	w.write = w.writeFD
	return w
}

// TryWrite makes one non-blocking write of b and returns how many bytes went out: fewer
// than len(b) (0 included) when the pipe is full or the write failed; the caller's slow
// path writes the rest and meets any error again.
func (w *NonblockingWriter) TryWrite(b []byte) int {
	w.b, w.n = b, 0
	err := w.rc.Write(w.write)
	n := w.n
	w.b = nil
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// writeFD is TryWrite's write(2), retried on EINTR.
func (w *NonblockingWriter) writeFD(fd uintptr) bool {
	var err error
	for {
		w.n, err = writeNonblocking(int(fd), w.b)
		if err != syscall.EINTR {
			break
		}
	}
	return true // never wait for the poller: a full pipe is the slow path's job
}
