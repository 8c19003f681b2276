package otlpexport

import (
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

func targetOf(m *mcpclient.Message) target {
	var t target
	if len(m.Params) > 0 {
		_ = json.Unmarshal(m.Params, &t)
	}
	return t
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
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(id)
}

// failure is the error.type of a response and its message: the JSON-RPC error code, or
// "tool_error" for a CallToolResult with isError true; "" for a success.
func failure(m *mcpclient.Message) (errType, msg string) {
	if m.Error != nil {
		return strconv.FormatInt(int64(m.Error.Code), 10), m.Error.Message
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	if len(m.Result) > 0 && json.Unmarshal(m.Result, &r) == nil && r.IsError {
		return "tool_error", "the tool answered isError: true"
	}
	return "", ""
}

// meta is the part of params._meta the exporter reads: W3C trace context (MCP's
// convention for propagating it) and the 2026-07-28 protocol version.
type meta struct {
	Meta struct {
		TraceParent string `json:"traceparent"`
		TraceState  string `json:"tracestate"`
		Version     string `json:"io.modelcontextprotocol/protocolVersion"`
	} `json:"_meta"`
}

func readMeta(params json.RawMessage) meta {
	var m meta
	if len(params) > 0 {
		_ = json.Unmarshal(params, &m)
	}
	return m
}

// metaVersion is the protocol version a 2026-07-28 request carries in its _meta.
func metaVersion(params json.RawMessage) string { return readMeta(params).Meta.Version }

// parentContext is a context whose remote parent is the traceparent in params._meta, or
// the background context when there is none (or it is not valid W3C trace context).
func parentContext(params json.RawMessage) context.Context {
	m := readMeta(params)
	if m.Meta.TraceParent == "" {
		return context.Background()
	}
	carrier := propagation.MapCarrier{"traceparent": m.Meta.TraceParent}
	if m.Meta.TraceState != "" {
		carrier["tracestate"] = m.Meta.TraceState
	}
	return propagation.TraceContext{}.Extract(context.Background(), carrier)
}

// ParentOf is the W3C trace context a request carries in params._meta (traceparent, with
// tracestate), which --otlp makes the parent of the request's span; ok is false when there
// is none or it is not valid (W3C Trace Context §3.2).
func ParentOf(params json.RawMessage) (sc trace.SpanContext, ok bool) {
	sc = trace.SpanContextFromContext(parentContext(params))
	return sc, sc.IsValid()
}
