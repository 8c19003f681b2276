package testservers

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// RPC is the part of a POSTed JSON-RPC message a fake HTTP server decides on. ID is nil
// for a notification; Body is the whole POST body.
type RPC struct {
	ID     json.RawMessage
	Method string
	Body   []byte
}

// FakeHTTP starts an httptest server on 127.0.0.1 that answers every method but POST with
// 405 (no GET stream, MCP 2025-11-25 basic/transports) and hands each POST, decoded, to
// handle. It is closed when the test ends. Tests use it for servers that break one
// Streamable HTTP rule on purpose, which no real server does on demand.
func FakeHTTP(t testing.TB, handle func(w http.ResponseWriter, r *http.Request, m RPC)) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &m)
		handle(w, r, RPC{ID: m.ID, Method: m.Method, Body: body})
	}))
	t.Cleanup(srv.Close)
	return srv
}
