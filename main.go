// Command mcp-inspect is a terminal debugger for MCP servers: it spawns a stdio server, shows
// the raw byte stream beside the parsed JSON-RPC messages, and lets you browse and call its
// tools. See README.md.
package main

import (
	"os"

	"github.com/mcp-inspect/mcp-inspect/cmd"
)

func main() {
	os.Exit(cmd.Execute(os.Args[1:]))
}
