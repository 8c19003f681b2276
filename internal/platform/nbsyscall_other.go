//go:build unix && !linux

package platform

import "syscall"

// writeNonblocking is write(2) on a non-blocking descriptor (a raw system call on Linux
// only: elsewhere system calls go through the C library).
func writeNonblocking(fd int, b []byte) (int, error) { return syscall.Write(fd, b) }
