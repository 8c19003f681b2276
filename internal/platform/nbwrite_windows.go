package platform

import "os"

// NonblockingWriter has no Windows form: anonymous pipes are synchronous, and a write to
// a full one would block the caller.
type NonblockingWriter struct{}

// NewNonblockingWriter returns nil on Windows: the caller always queues.
func NewNonblockingWriter(*os.File) *NonblockingWriter { return nil }

// TryWrite writes nothing (never called: there is no writer).
func (*NonblockingWriter) TryWrite([]byte) int { return 0 }
