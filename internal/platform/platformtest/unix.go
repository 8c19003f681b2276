//go:build unix

package platformtest

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// The POSIX signals tests send to a child or check in a wait status.
const (
	SIGINT  = syscall.SIGINT
	SIGTERM = syscall.SIGTERM
	SIGHUP  = syscall.SIGHUP
	SIGKILL = syscall.SIGKILL
	SIGQUIT = syscall.SIGQUIT
	SIGTSTP = syscall.SIGTSTP
)

// Mkfifo makes a named pipe at path, mode 0600.
func Mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

// Alive reports whether process pid exists (kill(pid, 0) succeeds; zombies count).
func Alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// Gone reports whether process pid no longer exists (kill(pid, 0) is ESRCH).
func Gone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// SignalGroup sends sig to every process of process group pgid; a group already gone is
// no error.
func SignalGroup(pgid int, sig syscall.Signal) error {
	err := syscall.Kill(-pgid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// GroupExists reports whether process group pgid has members (zombies count).
func GroupExists(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }

// Signal sends sig (one of the constants above) to process pid.
func Signal(pid int, sig os.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(sig)
}

// WaitSignal is the signal that ended a waited-for process, 0 when it exited.
func WaitSignal(st *os.ProcessState) syscall.Signal {
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal()
	}
	return 0
}

// MaxRSS is the largest resident set this process has had, in bytes (getrusage(2):
// kilobytes on Linux, bytes on macOS).
func MaxRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return int64(ru.Maxrss) * maxrssUnit
}

// WriteFD writes b to descriptor fd with one write(2), retrying on EINTR (the bare-loop
// benchmarks measure the system calls themselves, without Go's poller).
func WriteFD(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Write(fd, b)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// ReadFD reads into b from descriptor fd with one read(2), retrying on EINTR.
func ReadFD(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, b)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// SetBlocking makes descriptor fd blocking.
func SetBlocking(fd int) error { return syscall.SetNonblock(fd, false) }

// ShutdownFD shuts a socket descriptor down both ways.
func ShutdownFD(fd int) error { return syscall.Shutdown(fd, syscall.SHUT_RDWR) }

// SignalString is the system's name of signal number n ("terminated", "killed").
func SignalString(n int) string { return syscall.Signal(n).String() }

// NewSession makes cmd's process call setsid(2) before it runs: it leaves the process
// group (and session) of its parent, as a daemonizing grandchild of a server does, so a
// signal to the server's group no longer reaches it.
func NewSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
