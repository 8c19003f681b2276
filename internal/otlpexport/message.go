package otlpexport

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// target is what a request acts on: a tool or prompt name, a resource URI.
type target struct {
	Name string `json:"name"`
	URI  string `json:"uri"`
}

// targetOf reads params' name and uri, walking the members instead of decoding them: this
// runs for every request a tap with --otlp forwards.
func targetOf(m *mcpclient.Message) target {
	var t target
	mcpclient.ForEachMember(m.Params, func(key []byte, v json.RawMessage) {
		switch string(key) {
		case "name":
			t.Name = stringValue(v)
		case "uri":
			t.URI = stringValue(v)
		}
	})
	return t
}

// stringValue is the text of a JSON string value, "" for any other value.
func stringValue(v json.RawMessage) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1])
	}
	var s string
	_ = json.Unmarshal(v, &s)
	return s
}

// spanName is "{mcp.method.name} {target}", the target being the tool or prompt name where
// there is one; a resource URI is left out of the name (high cardinality), as the
// conventions advise.
func spanName(method string, t target) string {
	if (method == "tools/call" || method == "prompts/get") && t.Name != "" {
		return method + " " + t.Name
	}
	return method
}

// idText is a JSON-RPC id as the jsonrpc.request.id attribute: a string's text, a number
// as written.
func idText(id json.RawMessage) string {
	if len(id) > 0 && id[0] == '"' {
		return stringValue(id)
	}
	return string(id)
}

// failure is the error.type of a response and its message: the JSON-RPC error code, or
// "tool_error" for a CallToolResult with isError true; "" for a success.
func failure(m *mcpclient.Message) (errType, msg string) {
	if m.Error != nil {
		return strconv.FormatInt(int64(m.Error.Code), 10), m.Error.Message
	}
	isError := false
	mcpclient.ForEachMember(m.Result, func(key []byte, v json.RawMessage) {
		isError = isError || string(key) == "isError" && string(v) == "true"
	})
	if isError {
		return "tool_error", "the tool answered isError: true"
	}
	return "", ""
}

// meta is the part of params._meta the exporter reads: W3C trace context (MCP's
// convention for propagating it) and the 2026-07-28 protocol version.
type meta struct {
	traceParent, traceState, version string
}

func readMeta(params json.RawMessage) meta {
	var m meta
	mcpclient.ForEachMember(params, func(key []byte, v json.RawMessage) {
		if string(key) != "_meta" {
			return
		}
		mcpclient.ForEachMember(v, func(key []byte, v json.RawMessage) {
			switch string(key) {
			case "traceparent":
				m.traceParent = stringValue(v)
			case "tracestate":
				m.traceState = stringValue(v)
			case "io.modelcontextprotocol/protocolVersion":
				m.version = stringValue(v)
			}
		})
	})
	return m
}

// parent is a context whose remote parent is m's traceparent, or the background context
// when there is none (or it is not valid W3C trace context).
func (m meta) parent() context.Context {
	if m.traceParent == "" {
		return context.Background()
	}
	carrier := propagation.MapCarrier{"traceparent": m.traceParent}
	if m.traceState != "" {
		carrier["tracestate"] = m.traceState
	}
	return propagation.TraceContext{}.Extract(context.Background(), carrier)
}

// ParentOf is the W3C trace context a request carries in params._meta (traceparent, with
// tracestate), which --otlp makes the parent of the request's span; ok is false when there
// is none or it is not valid (W3C Trace Context §3.2).
func ParentOf(params json.RawMessage) (sc trace.SpanContext, ok bool) {
	sc = trace.SpanContextFromContext(readMeta(params).parent())
	return sc, sc.IsValid()
}
