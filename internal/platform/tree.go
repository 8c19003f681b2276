package platform

import (
	"os/exec"
	"time"
)

// Tree is the process tree of one spawned server: the process Start started and everything
// it forks (npx → node, uvx → python, a shell script's children). On Unix it is the
// process group the server leads; on Windows a Job Object the server was put in before it
// ran a single instruction. MCP 2025-11-25 basic/lifecycle §Shutdown (stdio) asks the
// client to close stdin, wait, then terminate, then kill: Terminate and Kill are those
// last two steps for the whole tree, so no descendant outlives the session.
type Tree struct {
	pid int
	sys treeSys // the per-OS part (tree_unix.go, tree_windows.go)
}

// PID is the server's process id (on Unix also its process group id).
func (t *Tree) PID() int { return t.pid }

// WaitGone polls until nothing of the tree is left (Alive false), for at most d; it
// reports whether the tree is gone.
func (t *Tree) WaitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for t.Alive() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// Start starts cmd as the root of a new process tree (cmd.SysProcAttr is set here; a
// caller's own is replaced) and returns the tree. It is cmd.Start plus what makes the
// tree's end certain: on Linux a parent-death signal, on Unix a watchdog that kills the
// group if the inspector itself is killed, on Windows the Job Object (kill on close). On
// error nothing is left running and cmd.Start's error (or the job's) is returned.
func Start(cmd *exec.Cmd) (*Tree, error) {
	prepare(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t := &Tree{pid: cmd.Process.Pid}
	if err := t.adopt(cmd); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, err
	}
	return t, nil
}
