package platformtest

import "github.com/mcp-inspect/mcp-inspect/internal/platform"

// Running reports whether process pid is running.
func Running(pid int) bool { return platform.ProcessExists(pid) }
