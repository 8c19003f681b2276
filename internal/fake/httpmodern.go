package fake

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// modern is a stateless MCP 2026-07-28 Streamable HTTP server (no initialize, no session)
// that either keeps every rule mcp-inspect check holds such a server to (http-modern) or
// breaks each (http-modern-lax):
//
//	                                   strict (http-modern)        lax
//	Origin or Host not its own         403                         served
//	_meta missing, or without          400, -32602                 served
//	  protocolVersion/clientCapabilities
//	MCP-Protocol-Version ≠ _meta's     400, -32020                 served
//	unsupported version (both)         400, -32022 {supported,     served
//	                                     requested}
//	Mcp-Method missing or ≠ method     400, -32020                 served
//	Mcp-Name missing or ≠ name/uri     400, -32020                 served
//	  (tools/call, prompts/get,
//	  resources/read)
//	ttlMs, cacheScope on list results  present                     absent
//	  and resources/read
//	resources/read of an unknown uri   -32602, data {uri}          contents []
//	unknown method                     404, -32601                 200, -32601
//
// It has one tool (echo), one resource (fake://readme) and one prompt (greet).
type modern struct{ strict bool }

// modernVersion is the one revision the modern fakes speak.
const modernVersion = "2026-07-28"

// modernMsg is the part of a POSTed message the modern fakes read.
type modernMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta map[string]json.RawMessage `json:"_meta"`
		Name *string                    `json:"name"`
		URI  *string                    `json:"uri"`
	} `json:"params"`
}

func (s modern) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.strict && !ownHostAndOrigin(r) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, "Forbidden: Host or Origin not allowed")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m modernMsg
	if json.Unmarshal(body, &m) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if m.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if s.strict {
		if status, code, msg, data := refuse(r, m); status != 0 {
			writeRPCError(w, status, m.ID, code, msg, data)
			return
		}
	}
	s.answer(w, m)
}

// refuse is what the strict server refuses m for, in the order the suite expects: the
// _meta (-32602), the version header against it (-32020), the version itself (-32022),
// then the Mcp-Method and Mcp-Name headers (-32020). status 0: nothing.
func refuse(r *http.Request, m modernMsg) (status int, code int, msg, data string) {
	var pv string
	_, caps := m.Params.Meta["io.modelcontextprotocol/clientCapabilities"]
	if raw, ok := m.Params.Meta["io.modelcontextprotocol/protocolVersion"]; !ok || json.Unmarshal(raw, &pv) != nil || !caps {
		return http.StatusBadRequest, -32602, "_meta must carry io.modelcontextprotocol/protocolVersion and clientCapabilities", ""
	}
	if r.Header.Get("MCP-Protocol-Version") != pv {
		return http.StatusBadRequest, -32020, "MCP-Protocol-Version header does not match _meta", ""
	}
	if pv != modernVersion {
		q, _ := json.Marshal(pv)
		return http.StatusBadRequest, -32022, "Unsupported protocol version", `{"supported":["` + modernVersion + `"],"requested":` + string(q) + `}`
	}
	if r.Header.Get("Mcp-Method") != m.Method {
		return http.StatusBadRequest, -32020, "Mcp-Method header does not match the body's method", ""
	}
	want := m.Params.Name
	if m.Method == "resources/read" {
		want = m.Params.URI
	}
	switch m.Method {
	case "tools/call", "prompts/get", "resources/read":
		if want == nil || headerText(r.Header.Get("Mcp-Name")) != *want {
			return http.StatusBadRequest, -32020, "Mcp-Name header does not match the body", ""
		}
	}
	return 0, 0, "", ""
}

// headerText decodes a header value's =?base64?…?= form.
func headerText(v string) string {
	v = strings.TrimSpace(v)
	if inner, ok := strings.CutPrefix(v, "=?base64?"); ok && strings.HasSuffix(inner, "?=") {
		if b, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(inner, "?=")); err == nil {
			return string(b)
		}
	}
	return v
}

// answer answers m, a request the strict server has accepted (or any, for the lax one).
func (s modern) answer(w http.ResponseWriter, m modernMsg) {
	hints := ""
	if s.strict {
		hints = `,"ttlMs":60000,"cacheScope":"public"`
	}
	var result string
	switch m.Method {
	case "server/discover":
		result = `{"resultType":"complete","supportedVersions":["` + modernVersion + `"],"capabilities":{"tools":{},"resources":{},"prompts":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"fake-http-modern","version":"0.0.1"}}` + hints + `}`
	case "tools/list":
		result = `{"resultType":"complete","tools":[{"name":"echo","description":"Echo the text back","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]` + hints + `}`
	case "resources/list":
		result = `{"resultType":"complete","resources":[{"uri":"fake://readme","name":"readme","mimeType":"text/plain"}]` + hints + `}`
	case "resources/templates/list":
		result = `{"resultType":"complete","resourceTemplates":[]` + hints + `}`
	case "prompts/list":
		result = `{"resultType":"complete","prompts":[{"name":"greet","description":"Say hello"}]` + hints + `}`
	case "prompts/get":
		result = `{"resultType":"complete","messages":[{"role":"user","content":{"type":"text","text":"hello"}}]}`
	case "resources/read":
		switch {
		case m.Params.URI != nil && *m.Params.URI == "fake://readme":
			result = `{"resultType":"complete","contents":[{"uri":"fake://readme","mimeType":"text/plain","text":"read me"}]` + hints + `}`
		case s.strict:
			u, _ := json.Marshal(m.Params.URI)
			writeRPCError(w, http.StatusOK, m.ID, -32602, "Resource not found", `{"uri":`+string(u)+`}`)
			return
		default:
			result = `{"resultType":"complete","contents":[]}`
		}
	case "tools/call":
		if m.Params.Name == nil || *m.Params.Name != "echo" {
			writeRPCError(w, http.StatusOK, m.ID, -32602, "unknown tool", "")
			return
		}
		result = `{"resultType":"complete","content":[{"type":"text","text":"echo"}]}`
	default:
		status := http.StatusNotFound
		if !s.strict {
			status = http.StatusOK
		}
		writeRPCError(w, status, m.ID, -32601, "Method not found", "")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
}

// writeRPCError writes a JSON-RPC error response with the HTTP status; data is raw JSON or
// "" for none.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg, data string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	m, _ := json.Marshal(msg)
	if data != "" {
		data = `,"data":` + data
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s%s}}`, id, code, m, data)
}
