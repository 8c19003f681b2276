package ui

import "os"

// killProcess kills process pid outright (SIGKILL on Unix, TerminateProcess on Windows), as
// a crash or the OOM killer would.
func killProcess(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
