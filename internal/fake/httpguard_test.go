package fake

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// guardDo sends one request to the scenario's endpoint: origin and host set those headers
// when not "", sid the session, version (at most one) MCP-Protocol-Version.
func guardDo(t *testing.T, endpoint, method, body, origin, host, sid string, version ...string) (*http.Response, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, endpoint, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if host != "" {
		req.Host = host
	}
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	for _, v := range version {
		req.Header.Set("MCP-Protocol-Version", v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

const guardInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

// TestHTTPGuarded: http-guarded refuses a foreign Origin and Host with 403, accepts its
// own, answers an unknown session 404, a notification 202 with no body, a GET 405 with Allow.
func TestHTTPGuarded(t *testing.T) {
	t.Parallel()
	_, endpoint := HTTPServer(t, "http-guarded", HTTPOptions{})
	u, _ := url.Parse(endpoint)
	own := "http://" + u.Host
	for _, c := range []struct{ origin, host string }{{"http://evil.example", ""}, {"", "evil.example:" + u.Port()}, {"http://127.0.0.1:1", ""}} {
		if resp, _ := guardDo(t, endpoint, "POST", guardInit, c.origin, c.host, ""); resp.StatusCode != http.StatusForbidden {
			t.Errorf("Origin %q Host %q: %s, want 403", c.origin, c.host, resp.Status)
		}
	}
	resp, body := guardDo(t, endpoint, "POST", guardInit, own, "localhost:"+u.Port(), "")
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" || !strings.Contains(body, `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("own Origin and Host: %s %q (session %q)", resp.Status, body, sid)
	}
	if resp, _ := guardDo(t, endpoint, "POST", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, "", "", "no-such"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown session: %s, want 404", resp.Status)
	}
	if resp, body := guardDo(t, endpoint, "POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", "", sid); resp.StatusCode != http.StatusAccepted || body != "" {
		t.Errorf("notification: %s %q, want 202 and no body", resp.Status, body)
	}
	if resp, _ := guardDo(t, endpoint, "POST", `{"jsonrpc":"2.0","id":4,"method":"ping"}`, "", "", sid, "1999-01-01"); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("MCP-Protocol-Version 1999-01-01: %s, want 400", resp.Status)
	}
	if resp, _ := guardDo(t, endpoint, "GET", "", "", "", sid); resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST, DELETE" {
		t.Errorf("GET: %s Allow %q", resp.Status, resp.Header.Get("Allow"))
	}
	if resp, _ := guardDo(t, endpoint, "DELETE", "", "", "", sid); resp.StatusCode != http.StatusOK {
		t.Errorf("DELETE: %s", resp.Status)
	}
	if resp, _ := guardDo(t, endpoint, "POST", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, "", "", sid); resp.StatusCode != http.StatusNotFound {
		t.Errorf("ended session: %s, want 404", resp.Status)
	}
}

// TestHTTPLax: http-lax and http-lax-get accept any Origin and Host, answer an unknown
// session 400, a notification 200 with a body, a GET 405 without Allow or 200 JSON.
func TestHTTPLax(t *testing.T) {
	t.Parallel()
	for _, sc := range []string{"http-lax", "http-lax-get"} {
		_, endpoint := HTTPServer(t, sc, HTTPOptions{})
		resp, _ := guardDo(t, endpoint, "POST", guardInit, "http://evil.example", "evil.example", "")
		sid := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != http.StatusOK || sid == "" {
			t.Fatalf("%s: hostile Origin and Host: %s (session %q), want 200", sc, resp.Status, sid)
		}
		if resp, body := guardDo(t, endpoint, "POST", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, "", "", "no-such"); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "No valid session ID") {
			t.Errorf("%s: unknown session: %s %q, want 400", sc, resp.Status, body)
		}
		if resp, _ := guardDo(t, endpoint, "POST", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, "", "", sid, "1999-01-01"); resp.StatusCode != http.StatusOK {
			t.Errorf("%s: MCP-Protocol-Version 1999-01-01: %s, want 200", sc, resp.Status)
		}
		if resp, body := guardDo(t, endpoint, "POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", "", sid); resp.StatusCode != http.StatusOK || body != `{"ok":true}` {
			t.Errorf("%s: notification: %s %q, want 200 with a body", sc, resp.Status, body)
		}
		resp, body := guardDo(t, endpoint, "GET", "", "", "", sid)
		want := http.StatusMethodNotAllowed
		if sc == "http-lax-get" {
			want = http.StatusOK
		}
		if resp.StatusCode != want || resp.Header.Get("Allow") != "" || (want == http.StatusOK) != strings.Contains(body, "no stream") {
			t.Errorf("%s: GET: %s Allow %q body %q", sc, resp.Status, resp.Header.Get("Allow"), body)
		}
	}
}
