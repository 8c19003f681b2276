package ui

import (
	"github.com/mcp-inspect/mcp-inspect/internal/otlpexport"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// traceContextLines name the W3C trace context a request carries in params._meta (the
// traceparent a host propagates), which --otlp makes the parent of the request's span
// (issue 28); none for other frames.
func traceContextLines(st *themes.Styles, ev *mcpclient.Event, w int) []string {
	if ev.Dir != mcpclient.ClientToServer && ev.Dir != mcpclient.ServerToClient {
		return nil
	}
	kind, msg := ev.Kind, ev.Msg
	if msg == nil { // the timeline keeps frames as bytes: parse the one shown
		kind, msg, _ = mcpclient.Classify(ev.Raw)
	}
	if msg == nil || len(msg.Params) == 0 || (kind != mcpclient.KindRequest && kind != mcpclient.KindNotification) {
		return nil
	}
	sc, ok := otlpexport.ParentOf(msg.Params)
	if !ok {
		return nil
	}
	sampled := "not sampled"
	if sc.IsSampled() {
		sampled = "sampled"
	}
	text := "trace context (params._meta.traceparent): trace " + sc.TraceID().String() + " · parent span " + sc.SpanID().String() + " · " + sampled
	return wrapStyled(st.Muted, text, w)
}
