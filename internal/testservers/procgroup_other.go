//go:build !unix

package testservers

import "os/exec"

// ownProcessGroup does nothing where there are no Unix process groups.
func ownProcessGroup(*exec.Cmd) {}

// terminateProcessGroup kills the process (no SIGTERM or groups here).
func terminateProcessGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

// killProcessGroup kills the process.
func killProcessGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
