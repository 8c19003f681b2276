//go:build unix

package platform

import (
	"os"
	"syscall"
)

// signalOf is the short name of the signal that ended the process, "" when it exited.
func signalOf(st *os.ProcessState) string {
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return shortSignalName(ws.Signal())
	}
	return ""
}

func exitCode(st *os.ProcessState) int { return st.ExitCode() }
