package platform

import (
	"os"
	"syscall"
)

// signalOf is always "": no signal ends a Windows process.
func signalOf(*os.ProcessState) string { return "" }

// exitCode is the process's whole 32-bit exit code (ProcessState.ExitCode gives it too,
// but as a signed int on 32-bit systems).
func exitCode(st *os.ProcessState) int {
	if ws, ok := st.Sys().(syscall.WaitStatus); ok {
		return int(ws.ExitCode)
	}
	return st.ExitCode()
}
