package main

import (
	"bufio"
	"encoding/json"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

// statsTool answers with non-finite numbers (the nan scenario).
const statsTool = `{"name":"stats","description":"Mean and max of nothing","inputSchema":{"type":"object"}}`

// peopleScenarios are stdio servers as people write them (issue 24): Python's json.dumps
// defaults, replies to notifications.
func peopleScenarios() map[string]*scenario {
	return map[string]*scenario{
		"nan": {
			summary: "tools/call stats answers NaN, Infinity and -Infinity, as Python's json.dumps writes them by default",
			tools:   `{"tools":[` + echoTool + `,` + statsTool + `]}`,
			calls: map[string]toolFunc{"stats": func(s *server, m *stdioserver.Message, _ json.RawMessage) {
				s.result(m.ID, `{"content":[{"type":"text","text":"mean NaN"}],"structuredContent":{"mean": NaN, "max": Infinity, "min": -Infinity, "note": "NaN stays in strings"}}`)
			}},
		},
		"buffered": buffered(),
		"reply-to-notification": {
			summary: "answers notifications/initialized with a response (id null), and every other notification with an error (no id)",
			initialized: func(s *server) {
				s.write(`{"jsonrpc":"2.0","id":null,"result":{}}` + "\n")
			},
			notification: func(s *server, m *stdioserver.Message) {
				s.write(`{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"}}` + "\n")
			},
		},
	}
}

// buffered is a server whose stdout is block-buffered (4 KiB), as Python's is on a pipe
// without -u: its answers come when the buffer fills, or when stdin closes and it exits.
func buffered() *scenario {
	var bw *bufio.Writer
	return &scenario{
		summary: "stdout block-buffered (FAKE_BUFFER bytes, 4 KiB), as Python's on a pipe without -u: answers come when the buffer fills, or at exit; FAKE_FLUSH_INIT=1 flushes the answer to initialize",
		startup: func(s *server) int {
			size := 4096
			if v, ok := s.envInt("FAKE_BUFFER"); ok && v > 0 {
				size = v
			}
			bw = bufio.NewWriterSize(s.stdout, size)
			s.out = stdioserver.NewWriter(bw)
			return -1
		},
		initialize: func(s *server, m *stdioserver.Message) {
			s.write(s.initializeLine(m))
			if s.getenv("FAKE_FLUSH_INIT") != "" {
				_ = bw.Flush() // a server that flushes its handshake, and nothing after
			}
		},
		onEOF: func(*server) { _ = bw.Flush() },
	}
}
