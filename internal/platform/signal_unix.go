//go:build unix

package platform

import (
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// StopSignals are the signals that stop a command in order: SIGINT (ctrl+c), SIGTERM, and
// SIGHUP (a closed terminal).
func StopSignals() []os.Signal {
	return []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}
}

// SignalName is the usual name of a signal the inspector received: "SIGINT", "SIGTERM".
func SignalName(sig os.Signal) string {
	if s, ok := sig.(syscall.Signal); ok {
		return "SIG" + shortSignalName(s)
	}
	return sig.String()
}

// SignalExitCode is the exit code a shell reports for a command stopped by sig: 128+n.
func SignalExitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// shortSignalName names a signal the way the status bar and traces do: "KILL", "TERM".
func shortSignalName(s syscall.Signal) string {
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

// signalNamed maps a short name back to the signal; 0 when unknown.
func signalNamed(name string) syscall.Signal {
	for _, s := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGSEGV, syscall.SIGABRT, syscall.SIGPIPE, syscall.SIGQUIT, syscall.SIGBUS} {
		if shortSignalName(s) == name {
			return s
		}
	}
	return 0
}

// RaiseSignal ends this process with the signal of short name name ("KILL", "SEGV"), as a
// recorded server ended: its handler is reset first so nothing catches it. It returns
// false when the name is unknown or the process lived on.
func RaiseSignal(name string) bool {
	s := signalNamed(name)
	if s == 0 {
		return false
	}
	signal.Reset(s)
	if syscall.Kill(os.Getpid(), s) != nil {
		return false
	}
	// Delivery to this process is asynchronous; give it a moment.
	time.Sleep(100 * time.Millisecond)
	return false
}

// NotifyBrokenPipe relays SIGPIPE to c, so a write to a pipe whose reader went away fails
// with EPIPE instead of killing the process (Notify, not Ignore: an ignored signal would
// stay ignored in the children). The returned func stops it.
func NotifyBrokenPipe(c chan<- os.Signal) (stop func()) {
	signal.Notify(c, syscall.SIGPIPE)
	return func() { signal.Stop(c) }
}

// IgnoreTerminate makes this process survive Tree.Terminate (SIGTERM): the fake servers
// that test the shutdown ladder's last step use it.
func IgnoreTerminate() { signal.Ignore(syscall.SIGTERM) }
