package platformtest

import "os/exec"

// NewSession does nothing on Windows, which has no setsid: a child stays in the Job Object
// of its parent (the server's job allows no breakaway), so ending the server's tree ends
// it too.
func NewSession(*exec.Cmd) {}
