package fake

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// modernMeta is a complete 2026-07-28 request _meta.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// modernDo POSTs body with the headers (name: value pairs) and returns the status, the
// JSON-RPC error code (0 for none) and the body.
func modernDo(t *testing.T, endpoint, body string, headers ...string) (int, int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m struct {
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(b, &m)
	code := 0
	if m.Error != nil {
		code = m.Error.Code
	}
	return resp.StatusCode, code, string(b)
}

// TestHTTPModern: http-modern refuses each malformed request with the status and code the
// 2026-07-28 revision names and serves a well-formed one with caching hints; http-modern-lax
// serves them all, without hints.
func TestHTTPModern(t *testing.T) {
	t.Parallel()
	good := []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "server/discover"}
	discover := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + modernMeta + `}}`
	cases := []struct {
		what    string
		body    string
		headers []string
		status  int
		code    int
	}{
		{"no _meta", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`, good, 400, -32602},
		{"version header mismatch", strings.Replace(discover, `"2026-07-28"`, `"v999.0.0"`, 1), good, 400, -32020},
		{"unsupported version", strings.Replace(discover, `"2026-07-28"`, `"2099-01-01"`, 1), []string{"MCP-Protocol-Version", "2099-01-01", "Mcp-Method", "server/discover"}, 400, -32022},
		{"no Mcp-Method", discover, good[:2], 400, -32020},
		{"Mcp-Method mismatch", discover, []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list"}, 400, -32020},
		{"no Mcp-Name", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}, ` + modernMeta + `}}`, []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call"}, 400, -32020},
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"no/such","params":{` + modernMeta + `}}`, []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "no/such"}, 404, -32601},
		{"unknown resource", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x:y",` + modernMeta + `}}`, []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "resources/read", "Mcp-Name", "x:y"}, 200, -32602},
		{"well formed", discover, good, 200, 0},
	}
	_, strict := HTTPServer(t, "http-modern", HTTPOptions{})
	_, lax := HTTPServer(t, "http-modern-lax", HTTPOptions{})
	for _, c := range cases {
		status, code, body := modernDo(t, strict, c.body, c.headers...)
		if status != c.status || code != c.code {
			t.Errorf("http-modern, %s: %d %d %s, want %d %d", c.what, status, code, body, c.status, c.code)
		}
		if c.code == 0 && !strings.Contains(body, `"cacheScope":"public"`) {
			t.Errorf("http-modern, %s: no caching hints: %s", c.what, body)
		}
		status, code, body = modernDo(t, lax, c.body, c.headers...)
		switch c.what {
		case "unknown method":
			if status != 200 || code != -32601 {
				t.Errorf("http-modern-lax, %s: %d %d %s, want 200 -32601", c.what, status, code, body)
			}
		default:
			if status != 200 || code != 0 || strings.Contains(body, "cacheScope") {
				t.Errorf("http-modern-lax, %s: %d %d %s, want 200, a result without hints", c.what, status, code, body)
			}
		}
	}
	if status, _, _ := modernDo(t, strict, discover, append(good, "Origin", "http://evil.example")...); status != http.StatusForbidden {
		t.Errorf("http-modern, foreign Origin: %d, want 403", status)
	}
}
