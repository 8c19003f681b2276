//go:build unix

package mcpclient_test

import "github.com/mcp-inspect/mcp-inspect/internal/platform"

// serverTreeAlive reports whether anything of the process group a server (pid) leads is
// left.
func serverTreeAlive(pid int) bool { return platform.GroupAlive(pid) }
