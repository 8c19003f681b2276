package platform

import (
	"errors"
	"fmt"
	"os/exec"
)

// Exit is how a process ended.
type Exit struct {
	// Code is the exit status, -1 when a signal ended the process (Unix). On Windows it is
	// the whole 32-bit exit code, NTSTATUS values such as 0xC0000005 included.
	Code int
	// Signal is the short name of the signal that ended it ("KILL", "TERM", "SEGV"), ""
	// when it exited (always on Windows).
	Signal string
}

// ExitOf turns cmd.Wait's result (err) into an Exit; Code is -1 when cmd never ran.
func ExitOf(cmd *exec.Cmd, err error) Exit {
	st := cmd.ProcessState
	if st == nil {
		return Exit{Code: -1}
	}
	if sig := signalOf(st); sig != "" {
		return Exit{Code: -1, Signal: sig}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return Exit{Code: exitCode(ee.ProcessState)}
	}
	return Exit{Code: exitCode(st)}
}

// ntStatus names the NTSTATUS exit codes a crashed or stopped Windows process ends with
// (ntstatus.h), so "exited with code 3221225477" says what happened. They mean nothing
// on Unix, where exit codes stop at 255, so naming them everywhere is safe: a trace
// recorded on Windows reads the same on any system.
func ntStatus(code uint32) string {
	switch code {
	case 0xC0000005:
		return "access violation"
	case 0xC000001D:
		return "illegal instruction"
	case 0xC0000094:
		return "integer division by zero"
	case 0xC00000FD:
		return "stack overflow"
	case 0xC0000135:
		return "a DLL was not found"
	case 0xC0000139:
		return "an entry point was not found in a DLL"
	case 0xC0000142:
		return "a DLL failed to initialize"
	case 0xC000013A:
		return "ended by CTRL_C or CTRL_BREAK"
	case 0xC0000409:
		return "stack buffer overrun or fail-fast abort"
	case 0xC0000374:
		return "heap corruption"
	case 0x40010004:
		return "terminated by a debugger"
	}
	return ""
}

// ExitCodeText is "code N" for an exit code, with the hexadecimal form and a name for the
// Windows NTSTATUS codes a crash gives: "code 3221225477 (0xC0000005: access violation)".
func ExitCodeText(code int) string {
	u := uint32(code)
	if code < 0 || u < 0x40000000 || int(u) != code {
		return fmt.Sprintf("code %d", code)
	}
	if name := ntStatus(u); name != "" {
		return fmt.Sprintf("code %d (0x%08X: %s)", code, u, name)
	}
	return fmt.Sprintf("code %d (0x%08X)", code, u)
}
