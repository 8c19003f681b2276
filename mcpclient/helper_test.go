package mcpclient

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// The test binary doubles as small stdio servers for client tests: TestMain runs helperServer
// when MCPCLIENT_HELPER names a behaviour. Case-by-case fake servers live in internal/fake.
func TestMain(m *testing.M) {
	if mode := os.Getenv("MCPCLIENT_HELPER"); mode != "" {
		helperServer(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func helperConfig(mode string) Config {
	return Config{Command: os.Args[0], Env: []string{"MCPCLIENT_HELPER=" + mode}, ShutdownGrace: 300 * time.Millisecond}
}

func helperServer(mode string) {
	switch mode {
	case "inspector":
		// Act as an inspector: start a server that starts a grandchild, print both pids
		// ("SERVER GRANDCHILD"), wait to be killed.
		c, err := Start(helperConfig("fork"))
		if err != nil {
			os.Exit(1)
		}
		for ev := range c.Events() {
			var gc int
			if ev.Dir == Stderr && ev.Kind == KindStderr {
				if _, err := fmt.Sscanf(string(ev.Raw), "grandchild %d", &gc); err == nil {
					fmt.Printf("%d %d\n", c.PID(), gc)
				}
			}
		}
		time.Sleep(time.Hour)
		return
	case "sleep":
		time.Sleep(time.Hour)
		return
	}
	out := bufio.NewWriter(os.Stdout)
	send := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	switch mode {
	case "ignore-term":
		platform.IgnoreTerminate()
	case "fork":
		// A grandchild in the same process tree that would outlive a careless client.
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "MCPCLIENT_HELPER=sleep")
		c.Start()
		fmt.Fprintf(os.Stderr, "grandchild %d\n", c.Process.Pid)
	}
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			if mode == "ignore-term" || mode == "fork" {
				// Keep running after stdin closes, so Close must escalate.
				if mode == "ignore-term" {
					time.Sleep(time.Hour)
				}
			}
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
				Meta struct {
					ProgressToken json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &req) != nil || req.ID == nil {
			continue
		}
		switch req.Method {
		case "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "helper", "version": "1"}}})
		case "tools/list":
			if mode == "dup-tools" {
				echo := map[string]any{"name": "echo", "inputSchema": map[string]any{"type": "object"}}
				send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"tools": []any{echo, map[string]any{"name": "other", "inputSchema": map[string]any{"type": "object"}}, echo}}})
				continue
			}
			send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"tools": []any{map[string]any{"name": "echo", "inputSchema": map[string]any{"type": "object"}}}}})
		case "tools/call":
			switch req.Params.Name {
			case "silent":
				// never answers
			case "progress":
				for i := 1; i <= 12; i++ {
					time.Sleep(150 * time.Millisecond)
					send(map[string]any{"jsonrpc": "2.0", "method": "notifications/progress", "params": map[string]any{"progressToken": req.Params.Meta.ProgressToken, "progress": i, "total": 12}})
				}
				send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}}})
			case "ask-then-answer":
				// A server request written just before the call's own response: a client
				// that closes right after the response must still answer it.
				send(map[string]any{"jsonrpc": "2.0", "id": "late-ask", "method": "roots/list"})
				send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"content": []any{}}})
			case "ask":
				// A server request whose id collides with the client's own ids (case B13).
				send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": map[string]any{"messages": []any{}, "maxTokens": 5}})
				reply, _ := in.ReadBytes('\n')
				send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": string(reply)}}}})
			default:
				send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "hi"}}}})
			}
		default:
			send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "Method not found"}})
		}
	}
}
