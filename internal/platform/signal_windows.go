package platform

import (
	"os"
	"os/signal"
	"syscall"
)

// StopSignals are the signals that stop a command in order on Windows: os.Interrupt
// (CTRL_C and CTRL_BREAK) and SIGTERM (the console closed, logoff, shutdown).
func StopSignals() []os.Signal { return []os.Signal{os.Interrupt, syscall.SIGTERM} }

// SignalName names a signal the inspector received as Windows users know it: "CTRL_C"
// (CTRL_BREAK too), "CTRL_CLOSE" (the console closed, logoff or shutdown).
func SignalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "CTRL_C"
	case syscall.SIGTERM:
		return "CTRL_CLOSE"
	}
	return sig.String()
}

// SignalExitCode is the exit code for a command stopped by sig: 128+n as on Unix (130 for
// ctrl+c), so scripts read the same codes on every system.
func SignalExitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// RaiseSignal cannot end a Windows process by a signal: false. The caller exits with
// SignalExitCodeOf(name) instead.
func RaiseSignal(string) bool { return false }

// NotifyBrokenPipe does nothing: Windows has no SIGPIPE; a write to a closed pipe fails.
func NotifyBrokenPipe(chan<- os.Signal) (stop func()) { return func() {} }

// IgnoreTerminate makes this process survive Tree.Terminate (CTRL_BREAK): the signal is
// caught and dropped (ignoring it would leave the default handler, which exits).
func IgnoreTerminate() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	go func() {
		for range c {
		}
	}()
}
