package mcpclient_test

import "github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"

// serverTreeAlive reports whether the server (pid) still runs; its job's other processes
// went with the job (TestCloseKillsForkedChildren checks a grandchild on every system).
func serverTreeAlive(pid int) bool { return platformtest.Running(pid) }
