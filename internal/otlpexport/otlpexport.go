// Package otlpexport sends what mcp-inspect sees on the wire to an OpenTelemetry receiver
// over OTLP/HTTP (issue 28): for each JSON-RPC request a client span (the side that sent
// it) with a server span as its child (the side that answered), a span per notification,
// and the mcp.client.operation.duration and mcp.server.operation.duration histograms,
// following the OpenTelemetry semantic conventions for MCP (semantic-conventions-genai
// docs/gen-ai/mcp.md, Development status). The spans carry the times the frames were seen,
// so a recorded session exports with its recorded timestamps.
//
// Export is batched by the SDK off the caller's path: Observe only keeps a pending request
// or hands a finished span to the batch processor.
package otlpexport

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Options configure an Exporter.
type Options struct {
	// Endpoint is the receiver's OTLP/HTTP base URL (http://127.0.0.1:4318); the signal
	// paths /v1/traces and /v1/metrics are added to its path.
	Endpoint string
	// ServiceName is the resource's service.name ("mcp-inspect" when empty).
	ServiceName string
	// Transport is network.transport: "pipe" for stdio, "tcp" for Streamable HTTP.
	Transport string
	// Bodies adds each request's params and each response's result or error, as
	// mcp.request.params and mcp.response.body, passed through Mask first.
	Bodies bool
	// Mask masks secrets in a body (nil: none to mask).
	Mask func([]byte) []byte
	// Live says the events come as a tap emits them: unclassified, unpaired, their Raw
	// lent for the call. Observe then copies, classifies and pairs them itself. Events
	// read from a trace come classified and paired.
	Live bool
}

// Exporter turns wire events into spans and metrics. Its methods are safe for concurrent use.
type Exporter struct {
	opt     Options
	tp      *sdktrace.TracerProvider
	counted *countingExporter
	mp      *sdkmetric.MeterProvider
	tracer  trace.Tracer
	client  metric.Float64Histogram
	server  metric.Float64Histogram

	mu      sync.Mutex
	pairer  *mcpclient.Pairer          // Live only
	pending map[uint64]*pendingRequest // by the request event's Seq
	version string                     // mcp.protocol.version, once seen
	last    time.Time                  // the latest event's time: when an unanswered request ends
	emitted int                        // spans ended (client and server)
	byID    map[string]uint64          // a pending request's Seq by direction and id
	session string                     // mcp.session.id (Mcp-Session-Id), once seen
	spans   int
}

// pendingRequest is what the spans of a request (or notification) need, taken from its
// frame when it is seen: a request may wait long for its response, and its frame (perhaps
// large, perhaps lent by a tap) is not kept.
type pendingRequest struct {
	at     time.Time
	dir    mcpclient.Direction
	method string
	id     string // jsonrpc.request.id; "" for a notification
	target target
	params string // the masked params, with Options.Bodies only
	parent context.Context
	// written: a tap wrote this request in place of the one sent (mcpclient.Event.Written).
	written mcpclient.NoteCond
}

// request takes what the spans need from a request or notification event, and the
// protocol version its _meta names (2026-07-28), "" when none.
func (x *Exporter) request(ev *mcpclient.Event) (*pendingRequest, string) {
	m := readMeta(ev.Msg.Params)
	p := &pendingRequest{at: ev.Time, dir: ev.Dir, method: ev.Msg.Method, target: targetOf(ev.Msg), parent: m.parent(), written: ev.Written}
	if len(ev.Msg.ID) > 0 {
		p.id = idText(ev.Msg.ID)
	}
	if x.opt.Bodies && len(ev.Msg.Params) > 0 {
		p.params = x.body(ev.Msg.Params)
	}
	return p, m.version
}

// retryFor is how long an export is retried against a receiver that does not take it.
const retryFor = 3 * time.Second

// New starts an exporter to opt.Endpoint. The exporters connect lazily: an unreachable
// receiver shows as an error from Close, not here. Errors: an Endpoint that is not an
// http(s) URL.
func New(ctx context.Context, opt Options) (*Exporter, error) {
	u, err := url.Parse(opt.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--otlp %q: want the receiver's OTLP/HTTP URL, e.g. http://127.0.0.1:4318", opt.Endpoint)
	}
	// The base URL, also when given with a signal's path (…/v1/traces).
	base := strings.TrimSuffix(u.String(), "/")
	for _, sig := range []string{"/v1/traces", "/v1/metrics"} {
		base = strings.TrimSuffix(base, sig)
	}
	// Retries stop after a few seconds: a session's end waits for them, and a receiver
	// that is down should cost the user a short wait and one line, not a minute.
	te, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(base+"/v1/traces"),
		otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: true, InitialInterval: 200 * time.Millisecond, MaxInterval: time.Second, MaxElapsedTime: retryFor}))
	if err != nil {
		return nil, fmt.Errorf("--otlp: %w", err)
	}
	me, err := otlpmetrichttp.New(ctx, otlpmetrichttp.WithEndpointURL(base+"/v1/metrics"),
		otlpmetrichttp.WithRetry(otlpmetrichttp.RetryConfig{Enabled: true, InitialInterval: 200 * time.Millisecond, MaxInterval: time.Second, MaxElapsedTime: retryFor}))
	if err != nil {
		return nil, fmt.Errorf("--otlp: %w", err)
	}
	return newExporter(opt, te, sdkmetric.NewPeriodicReader(me))
}

// countingExporter counts the spans the receiver took and keeps the last refusal, which
// the batch processor would otherwise only hand to the SDK's global error handler.
type countingExporter struct {
	sdktrace.SpanExporter
	mu           sync.Mutex
	sent, failed int
	err          error
}

func (c *countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := c.SpanExporter.ExportSpans(ctx, spans)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.failed += len(spans)
		c.err = err
	} else {
		c.sent += len(spans)
	}
	return err
}

// result is the spans taken and an error naming the ones that were not.
func (c *countingExporter) result() (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failed == 0 {
		return c.sent, nil
	}
	return c.sent, fmt.Errorf("%d of %d spans were not taken: %w", c.failed, c.sent+c.failed, c.err)
}

// newExporter builds an Exporter on a span exporter and a metric reader (tests give
// in-memory ones).
func newExporter(opt Options, te sdktrace.SpanExporter, reader sdkmetric.Reader) (*Exporter, error) {
	if opt.ServiceName == "" {
		opt.ServiceName = "mcp-inspect"
	}
	res := resource.NewSchemaless(attribute.String("service.name", opt.ServiceName))
	counted := &countingExporter{SpanExporter: te}
	x := &Exporter{
		opt:     opt,
		counted: counted,
		tp:      sdktrace.NewTracerProvider(sdktrace.WithBatcher(counted), sdktrace.WithResource(res)),
		mp:      sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithResource(res)),
		pending: map[uint64]*pendingRequest{},
		byID:    map[string]uint64{},
	}
	if opt.Live {
		x.pairer = mcpclient.NewPairer()
	}
	x.tracer = x.tp.Tracer("github.com/mcp-inspect/mcp-inspect")
	meter := x.mp.Meter("github.com/mcp-inspect/mcp-inspect")
	buckets := metric.WithExplicitBucketBoundaries(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300)
	var err error
	if x.client, err = meter.Float64Histogram("mcp.client.operation.duration", metric.WithUnit("s"), buckets,
		metric.WithDescription("The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received.")); err != nil {
		return nil, err
	}
	if x.server, err = meter.Float64Histogram("mcp.server.operation.duration", metric.WithUnit("s"), buckets,
		metric.WithDescription("MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.")); err != nil {
		return nil, err
	}
	return x, nil
}

// Observe takes one wire event: a request is kept until its response (Event.Pair) ends its
// spans; a notification is a span of its own; the initialize result and HTTP responses give
// the protocol version and session id. Other events are ignored.
func (x *Exporter) Observe(ev mcpclient.Event) {
	if ev.Kind == mcpclient.KindHTTPResponse {
		x.sawHTTPResponse(ev.Raw)
		return
	}
	if ev.Dir != mcpclient.ClientToServer && ev.Dir != mcpclient.ServerToClient {
		return
	}
	x.mu.Lock()
	if ev.Time.After(x.last) {
		x.last = ev.Time
	}
	x.mu.Unlock()
	if x.pairer != nil {
		if ev.Kind != 0 {
			return // oversize or cut short: not a whole message
		}
		// Raw is lent by the tap: what is kept of it is copied out (pendingRequest).
		ev.Kind, ev.Msg, ev.Problems = mcpclient.Classify(ev.Raw)
		x.mu.Lock()
		x.pairer.Add(&ev)
		x.mu.Unlock()
	}
	if ev.Msg == nil {
		return
	}
	switch ev.Kind {
	case mcpclient.KindRequest:
		p, version := x.request(&ev)
		x.mu.Lock()
		if version != "" {
			x.version = version
		}
		// A request with the id of one still pending in the same direction supersedes it
		// (a tap's --inject replace forwards an edited copy; ids of requests in flight are
		// unique): one span for the request, not a second one left unanswered.
		key := sender(ev.Dir) + " " + p.id
		if old, ok := x.byID[key]; ok {
			delete(x.pending, old)
		}
		x.byID[key] = ev.Seq
		x.pending[ev.Seq] = p
		x.mu.Unlock()
	case mcpclient.KindNotification:
		p, _ := x.request(&ev)
		x.finish(p, nil)
	case mcpclient.KindResponse, mcpclient.KindErrorResponse:
		x.mu.Lock()
		p := x.pending[ev.Pair]
		delete(x.pending, ev.Pair)
		if p != nil {
			delete(x.byID, sender(p.dir)+" "+p.id)
		}
		if p != nil && p.method == "initialize" && ev.Msg.Result != nil {
			var r struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			if json.Unmarshal(ev.Msg.Result, &r) == nil && r.ProtocolVersion != "" {
				x.version = r.ProtocolVersion
			}
		}
		x.mu.Unlock()
		if p != nil {
			x.finish(p, &ev)
		}
	}
}

// sawHTTPResponse takes the Mcp-Session-Id of an HTTP response head.
func (x *Exporter) sawHTTPResponse(head []byte) {
	for _, line := range strings.Split(string(head), "\n") {
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), mcpclient.HeaderSessionID) {
			x.mu.Lock()
			x.session = strings.TrimSpace(value)
			x.mu.Unlock()
			return
		}
	}
}

// finish emits the client span of p and, for a request (resp non-nil), the server span
// under it and both durations. A response a tap injected (the tap answered in the
// receiver's place, mcpclient.Event.Written) has no server span or server duration: the
// receiver never had the request. What a tap wrote itself is marked on the spans
// (attributes mcp_inspect.request.written, mcp_inspect.response.written: "edited",
// "injected").
func (x *Exporter) finish(p *pendingRequest, resp *mcpclient.Event) {
	served := resp != nil && resp.Written != mcpclient.NoteInjected
	x.mu.Lock()
	attrs := x.common(p)
	x.spans++
	x.emitted++
	if served {
		x.emitted++ // the server span
	}
	x.mu.Unlock()
	if p.written != "" {
		attrs = append(attrs, attribute.String("mcp_inspect.request.written", string(p.written)))
	}
	if resp != nil && resp.Written != "" {
		attrs = append(attrs, attribute.String("mcp_inspect.response.written", string(resp.Written)))
	}
	start, end := p.at, p.at
	var errType, errMsg string
	if resp != nil {
		end = resp.Time
		errType, errMsg = failure(resp.Msg)
		if x.opt.Bodies {
			attrs = append(attrs, attribute.String("mcp.response.body", x.body(resp.Raw)))
		}
		if errType != "" {
			attrs = append(attrs, attribute.String("error.type", errType))
		}
	}
	name := spanName(p.method, p.target)
	ctx, client := x.tracer.Start(p.parent, name, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(start), trace.WithAttributes(attrs...), trace.WithAttributes(attribute.String("mcp.peer", sender(p.dir))))
	var d float64
	var mattrs metric.MeasurementOption
	if resp != nil {
		d, mattrs = end.Sub(start).Seconds(), metric.WithAttributes(metricAttrs(attrs)...)
		x.client.Record(context.Background(), d, mattrs)
	}
	if served {
		_, server := x.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithTimestamp(start), trace.WithAttributes(attrs...), trace.WithAttributes(attribute.String("mcp.peer", sender(resp.Dir))))
		if errType != "" {
			server.SetStatus(codes.Error, errMsg)
		}
		server.End(trace.WithTimestamp(end))
		x.server.Record(context.Background(), d, mattrs)
	}
	if errType != "" {
		client.SetStatus(codes.Error, errMsg)
	}
	client.End(trace.WithTimestamp(end))
}

// common is the attributes every span of p's exchange carries; x.mu is held.
func (x *Exporter) common(p *pendingRequest) []attribute.KeyValue {
	a := []attribute.KeyValue{attribute.String("mcp.method.name", p.method)}
	if x.session != "" {
		a = append(a, attribute.String("mcp.session.id", x.session))
	}
	if x.version != "" {
		a = append(a, attribute.String("mcp.protocol.version", x.version))
	}
	if p.id != "" {
		a = append(a, attribute.String("jsonrpc.request.id", p.id))
	}
	a = append(a, attribute.String("jsonrpc.protocol.version", "2.0"))
	if x.opt.Transport != "" {
		a = append(a, attribute.String("network.transport", x.opt.Transport))
	}
	t := p.target
	switch {
	case p.method == "tools/call" && t.Name != "":
		a = append(a, attribute.String("gen_ai.tool.name", t.Name), attribute.String("gen_ai.operation.name", "execute_tool"))
	case p.method == "prompts/get" && t.Name != "":
		a = append(a, attribute.String("gen_ai.prompt.name", t.Name))
	}
	if t.URI != "" {
		a = append(a, attribute.String("mcp.resource.uri", t.URI))
	}
	if p.params != "" {
		a = append(a, attribute.String("mcp.request.params", p.params))
	}
	return a
}

// metricAttrs keeps the low-cardinality attributes the duration metrics carry.
func metricAttrs(a []attribute.KeyValue) []attribute.KeyValue {
	var out []attribute.KeyValue
	for _, kv := range a {
		switch kv.Key {
		case "mcp.method.name", "mcp.protocol.version", "network.transport", "gen_ai.tool.name", "gen_ai.prompt.name", "error.type":
			out = append(out, kv)
		}
	}
	return out
}

func (x *Exporter) body(b []byte) string {
	if x.opt.Mask != nil {
		b = x.opt.Mask(b)
	}
	return strings.TrimRight(string(b), "\r\n")
}

// Close ends the spans of requests never answered (status error "no response"), then
// flushes and shuts down both providers. Errors: the receiver could not be reached or
// refused the export.
func (x *Exporter) Close(ctx context.Context) error {
	x.mu.Lock()
	left := x.pending
	x.pending = map[uint64]*pendingRequest{}
	x.mu.Unlock()
	for _, p := range left {
		x.finishUnanswered(p)
	}
	traceErr, metricErr := x.tp.Shutdown(ctx), x.mp.Shutdown(ctx)
	sent, lost := x.counted.result()
	x.mu.Lock()
	emitted := x.emitted
	x.mu.Unlock()
	switch {
	case lost != nil:
		return lost
	case traceErr != nil && sent < emitted:
		return fmt.Errorf("%d of %d spans were not taken: %w", emitted-sent, emitted, traceErr)
	case traceErr != nil:
		return traceErr
	case metricErr != nil:
		return fmt.Errorf("the metrics were not taken: %w", metricErr)
	}
	return nil
}

// Sent is how many spans the receiver has taken so far.
func (x *Exporter) Sent() int {
	n, _ := x.counted.result()
	return n
}

// finishUnanswered ends an unanswered request's client span at the session's last event.
func (x *Exporter) finishUnanswered(p *pendingRequest) {
	x.mu.Lock()
	attrs := append(x.common(p), attribute.String("error.type", "no_response"), attribute.String("mcp.peer", sender(p.dir)))
	x.spans++
	x.emitted++
	end := p.at
	if x.last.After(end) {
		end = x.last
	}
	x.mu.Unlock()
	_, s := x.tracer.Start(p.parent, spanName(p.method, p.target), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(p.at), trace.WithAttributes(attrs...))
	s.SetStatus(codes.Error, "no response before the session ended")
	s.End(trace.WithTimestamp(end))
}

// Spans is how many client spans (one per request or notification) were emitted so far.
func (x *Exporter) Spans() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.spans
}

// sender names the side that sent a frame in direction d.
func sender(d mcpclient.Direction) string {
	if d == mcpclient.ClientToServer {
		return "client"
	}
	return "server"
}
