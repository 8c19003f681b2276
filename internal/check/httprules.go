package check

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The http rules' probe values: an Origin and a Host no server of ours can be, a session id
// no server issued.
const (
	probeOrigin    = "http://evil.example"
	probeHost      = "evil.example"
	probeSessionID = "mcp-inspect-check-no-such-session"
	probeHTTPID    = `"mcp-inspect-check-http"`
)

// httpRuleIDs are the GroupHTTP rules, in order.
var httpRuleIDs = []string{"http-origin", "http-host", "http-session-unknown", "http-session-id", "http-notification-202", "http-get-405", "http-protocol-version", "http-headers"}

// httpRules probes a Streamable HTTP server's transport with plain HTTP requests of their
// own (SessionHTTP): a hostile Origin and Host, an unknown session, a notification, a GET.
func (r *run) httpRules(ctx context.Context) {
	if !r.remote || ctx.Err() != nil {
		return
	}
	if r.main.client.TransportKind() == mcpclient.TransportSSE {
		for _, id := range httpRuleIDs {
			r.na(id, "the server speaks the deprecated HTTP+SSE transport (2024-11-05): the Streamable HTTP rules do not apply")
		}
		return
	}
	some := false
	for _, id := range httpRuleIDs {
		some = some || r.active(id)
	}
	if !some {
		return
	}
	p := r.probes()
	r.httpOrigin(ctx, p)
	r.httpHost(ctx, p)
	r.httpSessionUnknown(ctx, p)
	r.httpSessionID()
	r.httpNotification(ctx, p)
	r.httpGet(ctx, p)
	r.httpProtocolVersion(ctx, p)
	r.httpHeaders(ctx)
}

// negotiated is the protocol version the main session agreed on.
func (r *run) negotiated() string {
	if r.init != nil && r.init.ProtocolVersion != "" {
		return r.init.ProtocolVersion
	}
	return mcpclient.LatestProtocolVersion
}

// postHeader is what every probe POST carries, with the 2026-07-28 headers for method in
// the modern era.
func (r *run) postHeader(method string) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if r.modern() {
		h.Set(mcpclient.HeaderProtocolVersion, mcpclient.ModernProtocolVersion)
		h.Set(mcpclient.HeaderMethod, method)
	}
	return h
}

// sessionHeader adds the main session's Mcp-Session-Id and MCP-Protocol-Version to h (a
// request inside the session), in the legacy era.
func (r *run) sessionHeader(h http.Header) http.Header {
	if r.modern() {
		return h
	}
	if sid := r.main.client.SessionID(); sid != "" {
		h.Set(mcpclient.HeaderSessionID, sid)
	}
	h.Set(mcpclient.HeaderProtocolVersion, r.negotiated())
	return h
}

// openingProbe is the request that opens a conversation: initialize (legacy) or
// server/discover (modern), as a request of no session.
func (r *run) openingProbe() probeReq {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + mcpclient.ModernProtocolVersion + `","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcp-inspect-check","version":"0"}}`
	if r.modern() {
		return probeReq{method: http.MethodPost, what: "server/discover", header: r.postHeader("server/discover"),
			body: `{"jsonrpc":"2.0","id":` + probeHTTPID + `,"method":"server/discover","params":{` + meta + `}}`}
	}
	v, _ := json.Marshal(r.negotiated())
	return probeReq{method: http.MethodPost, what: "initialize", header: r.postHeader("initialize"),
		body: `{"jsonrpc":"2.0","id":` + probeHTTPID + `,"method":"initialize","params":{"protocolVersion":` + string(v) + `,"capabilities":{},"clientInfo":{"name":"mcp-inspect-check","version":"0"}}}`}
}

// hostile sends the opening request with a hostile header (set edits it) and, when it is
// refused with another status than 403, the same request without it: a refusal of both is
// not about the header. It returns the answer, the control's (status 0 when none was sent)
// and the events of both; a session a 2xx answer opened is ended with DELETE.
func (r *run) hostile(ctx context.Context, p *prober, set func(*probeReq)) (a, control probeAnswer, evs []Event) {
	q := r.openingProbe()
	set(&q)
	a = p.do(ctx, q)
	evs = append(evs, a.events...)
	evs = append(evs, r.endSession(ctx, p, a)...)
	if a.status == 0 || a.status == http.StatusForbidden || a.status/100 == 2 {
		return a, control, evs
	}
	control = p.do(ctx, r.openingProbe())
	evs = append(evs, control.events...)
	evs = append(evs, r.endSession(ctx, p, control)...)
	return a, control, evs
}

// endSession DELETEs the session a probe's accepted initialize opened (a stateful server
// keeps it otherwise), and returns the exchange's events.
func (r *run) endSession(ctx context.Context, p *prober, a probeAnswer) []Event {
	sid := a.head.Get(mcpclient.HeaderSessionID)
	if a.status/100 != 2 || sid == "" {
		return nil
	}
	h := http.Header{}
	h.Set(mcpclient.HeaderSessionID, sid)
	h.Set(mcpclient.HeaderProtocolVersion, r.negotiated())
	return p.do(ctx, probeReq{method: http.MethodDelete, header: h, what: "(the session the probe opened)"}).events
}

// httpOrigin: an invalid Origin MUST get 403 Forbidden.
func (r *run) httpOrigin(ctx context.Context, p *prober) {
	const id = "http-origin"
	if ctx.Err() != nil || !r.active(id) {
		return
	}
	a, control, evs := r.hostile(ctx, p, func(q *probeReq) {
		q.header.Set("Origin", probeOrigin)
		q.shown = []string{"Origin: " + probeOrigin}
	})
	switch {
	case a.status == http.StatusForbidden:
		r.note(id, evs, "%s: refused", a.exchange())
	case a.status == 0:
		r.find(id, Must, evs, "%s: an invalid Origin MUST get 403 Forbidden", a.exchange())
	case a.status/100 == 2:
		r.find(id, Must, evs, "%s: accepted; an invalid Origin MUST get 403 Forbidden (no DNS rebinding protection)", a.exchange())
	case control.status != 0 && control.status/100 != 2:
		r.na(id, "the probe was refused with or without an Origin ("+a.exchange()+"; without it "+control.got()+"): the Origin check cannot be told apart")
	default:
		r.find(id, Must, evs, "%s: refused, but an invalid Origin MUST get 403 Forbidden", a.exchange())
	}
}

// httpHost: a local server should refuse a Host that is not its own (DNS rebinding).
func (r *run) httpHost(ctx context.Context, p *prober) {
	const id = "http-host"
	if ctx.Err() != nil || !r.active(id) {
		return
	}
	u, err := url.Parse(r.opt.Server.URL)
	if err != nil {
		r.na(id, "the URL does not parse: "+err.Error())
		return
	}
	if !loopback(u.Hostname()) {
		r.na(id, "the server is at "+u.Hostname()+", not a loopback address: the Host check is for local servers")
		return
	}
	host := probeHost
	if port := u.Port(); port != "" {
		host = net.JoinHostPort(probeHost, port)
	}
	a, control, evs := r.hostile(ctx, p, func(q *probeReq) {
		q.host = host
		q.shown = []string{"Host: " + host}
	})
	switch {
	case a.status == 0:
		r.note(id, evs, "%s: taken as refused", a.exchange())
	case a.status/100 == 2:
		r.find(id, Should, evs, "%s: accepted; a server on %s should refuse a Host that is not its own (DNS rebinding protection)", a.exchange(), u.Hostname())
	case control.status != 0 && control.status/100 != 2:
		r.na(id, "the probe was refused with or without the hostile Host ("+a.exchange()+"; with its own "+control.got()+"): the Host check cannot be told apart")
	default:
		r.note(id, evs, "%s: refused", a.exchange())
	}
}

// loopback reports whether host names this machine: localhost, 127.0.0.0/8, ::1.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// httpSessionUnknown: a session id the server never issued MUST get 404 Not Found.
func (r *run) httpSessionUnknown(ctx context.Context, p *prober) {
	const id = "http-session-unknown"
	if ctx.Err() != nil || !r.active(id) {
		return
	}
	if r.modern() {
		r.na(id, "the 2026-07-28 era has no sessions (Mcp-Session-Id is ignored)")
		return
	}
	if r.main.client.SessionID() == "" {
		r.na(id, "a stateless server: the initialize response carried no Mcp-Session-Id")
		return
	}
	h := r.sessionHeader(r.postHeader("ping"))
	h.Set(mcpclient.HeaderSessionID, probeSessionID)
	a := p.do(ctx, probeReq{method: http.MethodPost, header: h, what: "ping", shown: []string{"Mcp-Session-Id: " + probeSessionID},
		body: `{"jsonrpc":"2.0","id":` + probeHTTPID + `,"method":"ping"}`})
	switch {
	case a.status == http.StatusNotFound:
		r.note(id, a.events, "%s", a.exchange())
	case a.status/100 == 2:
		r.find(id, Must, a.events, "%s: answered in a session the server never issued; it MUST get 404 Not Found", a.exchange())
	default:
		r.find(id, Must, a.events, "%s: a session the server does not have MUST get 404 Not Found (the client then starts a new session)", a.exchange())
	}
}

// httpNotification: a notification or a response the server accepts MUST get 202 Accepted
// with no body (MCP 2025-11-25 basic/transports §Sending Messages to the Server 4). The
// response answers a request the server never sent: accepting and dropping it and refusing it
// with an error status are both within the spec; a 200 with a body is not.
func (r *run) httpNotification(ctx context.Context, p *prober) {
	const id = "http-notification-202"
	if ctx.Err() != nil || !r.active(id) {
		return
	}
	method, params := "notifications/cancelled", `{"requestId":"`+probeCancelID+`","reason":"mcp-inspect check: a request that was never sent"}`
	if r.modern() {
		// 2026-07-28 defines no client notification over HTTP; the mechanics still hold.
		method, params = probeNotify, `{}`
	}
	a := p.do(ctx, probeReq{method: http.MethodPost, header: r.sessionHeader(r.postHeader(method)), what: method,
		body: `{"jsonrpc":"2.0","method":"` + method + `","params":` + params + `}`})
	if !r.judge202(id, a, "notification") {
		switch {
		case r.modern():
			r.note(id, a.events, "%s: refused with an error status, which the spec allows for a notification the server cannot accept", a.exchange())
		default:
			r.find(id, Should, a.events, "%s: refused; the spec allows an error status for a notification the server cannot accept, but cancellation is part of the protocol", a.exchange())
		}
	}
	if r.modern() || ctx.Err() != nil {
		// 2026-07-28 has no server-to-client requests over HTTP (input_required replaces
		// them), so a client never POSTs a response there.
		return
	}
	a = p.do(ctx, probeReq{method: http.MethodPost, header: r.sessionHeader(r.postHeader("")), what: "a response (id " + probeResponseID + ", a request never sent)",
		body: `{"jsonrpc":"2.0","id":"` + probeResponseID + `","result":{}}`})
	if !r.judge202(id, a, "response") {
		r.note(id, a.events, "%s: refused with an error status, which the spec allows for a response the server cannot accept (it sent no such request)", a.exchange())
	}
}

// judge202 judges an answer to a POSTed notification or response (kind) and reports whether
// it did; an error status is left to the caller.
func (r *run) judge202(id string, a probeAnswer, kind string) bool {
	switch {
	case a.status == http.StatusAccepted && len(a.body) == 0 && !a.stream:
		r.note(id, a.events, "%s", a.exchange())
	case a.status == http.StatusAccepted:
		r.find(id, Must, a.events, "%s: 202 with a body; an accepted %s MUST get 202 Accepted with no body", a.exchange(), kind)
	case a.status/100 == 2:
		r.find(id, Must, a.events, "%s: an accepted %s MUST get 202 Accepted with no body", a.exchange(), kind)
	case a.status == 0:
		r.find(id, Must, a.events, "%s: a %s MUST get 202 Accepted, or an error status when refused", a.exchange(), kind)
	default:
		return false
	}
	return true
}

// httpGet: a GET MUST open an SSE stream or get 405 Method Not Allowed; a 405 carries Allow.
func (r *run) httpGet(ctx context.Context, p *prober) {
	const id = "http-get-405"
	if ctx.Err() != nil || !r.active(id) {
		return
	}
	h := r.sessionHeader(http.Header{})
	h.Set("Accept", "text/event-stream")
	q := probeReq{method: http.MethodGet, header: h, shown: []string{"Accept: text/event-stream"}}
	var pre []Event
	if h.Get(mcpclient.HeaderSessionID) != "" {
		// The main session holds its own GET stream, and a server may allow one per session
		// (the TypeScript SDK answers a second 409 Conflict): the GET goes in a session of
		// its own.
		sid, evs := r.freshSession(ctx, p)
		pre = evs
		if sid != "" {
			h.Set(mcpclient.HeaderSessionID, sid)
			q.shown = append(q.shown, "in a session of its own")
			defer func() {
				r.endSession(ctx, p, probeAnswer{status: http.StatusOK, head: http.Header{mcpclient.HeaderSessionID: {sid}}})
			}()
		}
	}
	a := p.do(ctx, q)
	a.events = append(pre, a.events...)
	switch {
	case a.status == http.StatusMethodNotAllowed && a.head.Get("Allow") != "":
		r.note(id, a.events, "%s, Allow: %s: no GET stream", a.exchange(), a.head.Get("Allow"))
	case a.status == http.StatusMethodNotAllowed:
		r.find(id, Should, a.events, "%s without an Allow header (RFC 9110 §15.5.6: a 405 MUST list the methods allowed)", a.exchange())
	case a.status/100 == 2 && a.stream:
		r.note(id, a.events, "%s: the server offers a GET stream (closed at once)", a.exchange())
	default:
		r.find(id, Must, a.events, "%s: a GET MUST get text/event-stream or 405 Method Not Allowed", a.exchange())
	}
}

// freshSession opens a session for a probe: initialize, then notifications/initialized.
// sid is "" when the server issued none; evs are the exchanges.
func (r *run) freshSession(ctx context.Context, p *prober) (sid string, evs []Event) {
	a := p.do(ctx, r.openingProbe())
	evs = a.events
	sid = a.head.Get(mcpclient.HeaderSessionID)
	if a.status/100 != 2 || sid == "" {
		return "", evs
	}
	h := r.postHeader("notifications/initialized")
	h.Set(mcpclient.HeaderSessionID, sid)
	h.Set(mcpclient.HeaderProtocolVersion, r.negotiated())
	n := p.do(ctx, probeReq{method: http.MethodPost, header: h, what: "notifications/initialized",
		body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`})
	return sid, append(evs, n.events...)
}
