package platform

import "os"

// Pipe makes an anonymous pipe (os.Pipe: synchronous, not inherited). Windows anonymous
// pipes cannot be non-blocking; writeNonblocking is ignored, and a write to a server that
// stopped reading is ended by terminating the server.
func Pipe(bool) (r, w *os.File, err error) { return os.Pipe() }
