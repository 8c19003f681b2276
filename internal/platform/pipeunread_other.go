//go:build !linux

package platform

import "os"

// PipeUnread is how many bytes written to the pipe f its reader has not read yet. Only
// Linux answers this on a pipe's write end (FIONREAD); elsewhere ok is false.
func PipeUnread(f *os.File) (n int, ok bool) { return 0, false }
