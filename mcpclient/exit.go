package mcpclient

import (
	"errors"
	"os/exec"
	"strings"
	"syscall"
)

// exitStatus turns cmd.Wait's result into an exit code (-1 when signalled) and a signal name
// in the form the status bar shows ("KILL", "TERM").
func exitStatus(cmd *exec.Cmd, err error) (int, string) {
	st := cmd.ProcessState
	if st == nil {
		return -1, ""
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, signalName(ws.Signal())
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), ""
	}
	return st.ExitCode(), ""
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "KILL"
	case syscall.SIGTERM:
		return "TERM"
	case syscall.SIGINT:
		return "INT"
	case syscall.SIGHUP:
		return "HUP"
	case syscall.SIGSEGV:
		return "SEGV"
	case syscall.SIGABRT:
		return "ABRT"
	case syscall.SIGPIPE:
		return "PIPE"
	case syscall.SIGQUIT:
		return "QUIT"
	case syscall.SIGBUS:
		return "BUS"
	}
	return strings.ToUpper(s.String())
}
