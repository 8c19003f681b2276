package otlpexport

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// session is a tap's view of a short stdio session: the frames, as lent, unclassified.
var session = []struct {
	dir  mcpclient.Direction
	line string
}{
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"hi"}],"isError":true}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"file:///x"}}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"Resource not found"}}`},
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`},
	// An edited copy of request 4 (a tap's --inject replace forwards one): it supersedes
	// the first, so request 4 has one span.
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{}}`},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"bye"}}`},
}

// keep is an in-memory span exporter that keeps its spans past Shutdown (Close shuts the
// provider down, which empties tracetest's).
type keep struct{ *tracetest.InMemoryExporter }

func (keep) Shutdown(context.Context) error { return nil }

// TestSpansOfALiveSession: a tap's frames (unclassified, their bytes reused after the
// call) become a client span per request and notification, a server span under each
// answered request, with the MCP semantic conventions' names and attributes, the
// traceparent of params._meta as the parent, the frames' times, and both histograms.
func TestSpansOfALiveSession(t *testing.T) {
	mem := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	x, err := newExporter(Options{Transport: "pipe", Live: true}, keep{mem}, reader)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	for i, f := range session {
		raw := []byte(f.line + "\n")
		x.Observe(mcpclient.Event{Seq: uint64(i + 1), Time: t0.Add(time.Duration(i) * 10 * time.Millisecond), Dir: f.dir, Raw: raw})
		copy(raw, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX") // the tap lends Raw: it is reused at once
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := mem.GetSpans()
	byName := map[string][]tracetest.SpanStub{}
	for _, s := range spans {
		byName[s.Name] = append(byName[s.Name], s)
	}
	// initialize, two notifications, tools/call, resources/read, and tools/list unanswered:
	// six client spans, three server spans under them.
	if len(spans) != 9 || x.Spans() != 6 {
		for _, s := range spans {
			t.Logf("%s %s", s.Name, s.SpanKind)
		}
		t.Fatalf("%d spans (%d client), want 9 (6)", len(spans), x.Spans())
	}
	call := byName["tools/call echo"]
	if len(call) != 2 {
		t.Fatalf("tools/call echo: %d spans, want a client and a server span", len(call))
	}
	client, server := call[0], call[1]
	if client.SpanKind != trace.SpanKindClient {
		client, server = server, client
	}
	if client.Parent.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || client.Parent.SpanID().String() != "00f067aa0ba902b7" || !client.Parent.IsRemote() {
		t.Errorf("client span's parent %v: want the traceparent of params._meta", client.Parent)
	}
	if server.SpanKind != trace.SpanKindServer || server.Parent.SpanID() != client.SpanContext.SpanID() {
		t.Errorf("server span: kind %s, parent %v, want a server span under the client span %v", server.SpanKind, server.Parent.SpanID(), client.SpanContext.SpanID())
	}
	if !client.StartTime.Equal(t0.Add(30*time.Millisecond)) || !client.EndTime.Equal(t0.Add(40*time.Millisecond)) {
		t.Errorf("client span %s..%s, want the request's and the response's times", client.StartTime, client.EndTime)
	}
	want := map[attribute.Key]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "jsonrpc.request.id": "a",
		"mcp.protocol.version": "2025-06-18", "network.transport": "pipe", "error.type": "tool_error",
	}
	hasAttrs(t, "tools/call client", client.Attributes, want)
	hasAttrs(t, "tools/call server", server.Attributes, want)
	if client.Status.Code != codes.Error {
		t.Errorf("tools/call status %v, want an error (isError)", client.Status)
	}
	read := byName["resources/read"]
	if len(read) != 2 {
		t.Fatalf("resources/read: %d spans", len(read))
	}
	hasAttrs(t, "resources/read", read[0].Attributes, map[attribute.Key]string{"error.type": "-32002", "mcp.resource.uri": "file:///x", "jsonrpc.request.id": "3"})
	if n := byName["notifications/initialized"]; len(n) != 1 || n[0].SpanKind != trace.SpanKindClient || n[0].Parent.IsValid() {
		t.Errorf("notification: %+v, want one root client span", n)
	}
	if l := byName["tools/list"]; len(l) != 1 {
		t.Errorf("tools/list: %d spans", len(l))
	} else {
		hasAttrs(t, "tools/list", l[0].Attributes, map[attribute.Key]string{"error.type": "no_response", "mcp.peer": "client"})
		// It starts at the edited copy and ends with the session's last event.
		if !l[0].StartTime.Equal(t0.Add(80*time.Millisecond)) || !l[0].EndTime.Equal(t0.Add(90*time.Millisecond)) {
			t.Errorf("unanswered tools/list %s..%s, want from its (edited) request to the last event", l[0].StartTime, l[0].EndTime)
		}
	}
	counts := histogramCounts(rm)
	if counts["mcp.client.operation.duration tools/call"] != 1 || counts["mcp.server.operation.duration resources/read"] != 1 || counts["mcp.client.operation.duration initialize"] != 1 {
		t.Errorf("histogram counts %v", counts)
	}
}

func hasAttrs(t *testing.T, what string, got []attribute.KeyValue, want map[attribute.Key]string) {
	t.Helper()
	m := map[attribute.Key]string{}
	for _, kv := range got {
		m[kv.Key] = kv.Value.Emit()
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s: %s = %q, want %q (all: %v)", what, k, m[k], v, m)
		}
	}
}

// histogramCounts is each histogram's count per method: "NAME METHOD" → count.
func histogramCounts(rm metricdata.ResourceMetrics) map[string]uint64 {
	out := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok {
				continue
			}
			for _, dp := range h.DataPoints {
				method, _ := dp.Attributes.Value("mcp.method.name")
				out[m.Name+" "+method.AsString()] += dp.Count
			}
		}
	}
	return out
}

// TestSpansOfTapWrittenFrames: an answer a tap wrote in the server's place (Written
// injected) ends the request's client span, marked, with no server span and no server
// duration: the server never had the request. A request the tap edited is marked on both
// spans.
func TestSpansOfTapWrittenFrames(t *testing.T) {
	mem := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	x, err := newExporter(Options{Transport: "pipe", Live: true}, keep{mem}, reader)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	frames := []struct {
		dir     mcpclient.Direction
		line    string
		written mcpclient.NoteCond
	}{
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_all"}}`, ""},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"no"}}`, mcpclient.NoteInjected},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a"}}`, ""},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b"}}`, mcpclient.NoteEdited},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`, ""},
	}
	for i, f := range frames {
		x.Observe(mcpclient.Event{Seq: uint64(i + 1), Time: t0.Add(time.Duration(i) * time.Millisecond), Dir: f.dir, Raw: []byte(f.line + "\n"), Written: f.written})
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	byName := map[string][]tracetest.SpanStub{}
	for _, s := range mem.GetSpans() {
		byName[s.Name] = append(byName[s.Name], s)
	}
	del := byName["tools/call delete_all"]
	if len(del) != 1 || del[0].SpanKind != trace.SpanKindClient {
		t.Fatalf("tools/call delete_all: %+v, want the client span alone", del)
	}
	hasAttrs(t, "injected answer", del[0].Attributes, map[attribute.Key]string{"mcp_inspect.response.written": "injected", "error.type": "-32000"})
	if b := byName["tools/call b"]; len(b) != 2 {
		t.Errorf("tools/call b: %d spans, want a client and a server span", len(b))
	} else {
		hasAttrs(t, "edited request", b[0].Attributes, map[attribute.Key]string{"mcp_inspect.request.written": "edited"})
		hasAttrs(t, "edited request", b[1].Attributes, map[attribute.Key]string{"mcp_inspect.request.written": "edited"})
	}
	counts := histogramCounts(rm)
	if counts["mcp.client.operation.duration tools/call"] != 2 || counts["mcp.server.operation.duration tools/call"] != 1 {
		t.Errorf("histogram counts %v, want two client and one server duration for tools/call", counts)
	}
}
