package main

import (
	"encoding/json"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

// batchScenarios are servers that write JSON-RPC batches (arrays), which only MCP
// 2025-03-26 allowed: "batch" answers tools/call echo with a batch of the response and a
// log notification, and after initialized sends a batch of a notification and a roots/list
// request. It answers initialize with the version the client asked for, so one server
// serves both the allowed and the forbidden case.
func batchScenarios() map[string]*scenario {
	return map[string]*scenario{
		"batch": {
			summary:      "tools/call echo answers with a batch [response, notifications/message]; after initialized a batch [notifications/message, roots/list request]",
			capabilities: `{"tools":{},"logging":{}}`,
			initialized: func(s *server) {
				// The batched roots/list is a real request: its answer is expected, not an
				// unknown id.
				s.mu.Lock()
				s.waiters[`"srv-1"`] = make(chan *stdioserver.Message, 1)
				s.mu.Unlock()
				s.write(`[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched hello"}},{"jsonrpc":"2.0","id":"srv-1","method":"roots/list"}]` + "\n")
			},
			calls: map[string]toolFunc{"echo": func(s *server, m *stdioserver.Message, args json.RawMessage) {
				resp := strings.TrimSuffix(respLine(m.ID, textResult(argString(args, "text", ""))), "\n")
				s.write(`[` + resp + `,{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"echoed in a batch"}}]` + "\n")
			}},
		},
	}
}
