//go:build unix

package platform

import (
	"os"
	"syscall"
)

// NonblockingWriter writes to a non-blocking pipe (os.Pipe's ends are) from the caller's
// goroutine with one write(2) that never waits: a hand-off to another goroutine per frame
// costs more than the write itself.
type NonblockingWriter struct {
	rc syscall.RawConn
}

// NewNonblockingWriter returns the fast path for f, nil where there is none (f has no raw
// descriptor; Windows pipes): the caller then always queues.
func NewNonblockingWriter(f *os.File) *NonblockingWriter {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	return &NonblockingWriter{rc: rc}
}

// TryWrite makes one non-blocking write of b and returns how many bytes went out: fewer
// than len(b) (0 included) when the pipe is full or the write failed; the caller's slow
// path writes the rest and meets any error again.
func (w *NonblockingWriter) TryWrite(b []byte) int {
	var n int
	err := w.rc.Write(func(fd uintptr) bool {
		var werr error
		for {
			n, werr = syscall.Write(int(fd), b)
			if werr != syscall.EINTR {
				break
			}
		}
		return true // never wait for the poller: a full pipe is the slow path's job
	})
	if err != nil || n < 0 {
		return 0
	}
	return n
}
