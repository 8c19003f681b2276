//go:build unix && !linux && !darwin

package platform

import "syscall"

// setParentDeath does nothing: only Linux has a parent-death signal.
func setParentDeath(*syscall.SysProcAttr) {}

// groupAlive reports whether process group pgid still has members (zombies included).
func groupAlive(pgid int) bool { return pgid > 0 && syscall.Kill(-pgid, 0) == nil }
