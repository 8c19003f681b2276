package check

import (
	"context"
	"fmt"
	"net/http"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// probeLegacyVersion is an MCP-Protocol-Version no revision has (http-protocol-version,
// legacy era).
const probeLegacyVersion = "1999-01-01"

// httpSessionID: a session id the server issues is visible ASCII, 0x21 to 0x7E (MCP
// 2025-11-25 basic/transports §Session Management 1).
func (r *run) httpSessionID() {
	const id = "http-session-id"
	if !r.active(id) {
		return
	}
	if r.modern() {
		r.na(id, "the 2026-07-28 era has no sessions (Mcp-Session-Id is ignored)")
		return
	}
	sid := r.main.client.SessionID()
	if sid == "" {
		r.na(id, "a stateless server: the initialize response carried no Mcp-Session-Id")
		return
	}
	evs := methodEvents(r.main, "initialize")
	for i := 0; i < len(sid); i++ {
		if c := sid[i]; c < 0x21 || c > 0x7e {
			r.find(id, Must, evs, "Mcp-Session-Id %q has byte 0x%02X at %d: a session id MUST be visible ASCII (0x21 to 0x7E)", sid, c, i)
			return
		}
	}
	r.note(id, evs, "Mcp-Session-Id %q (%d characters, visible ASCII)", sid, len(sid))
}

// httpProtocolVersion: an invalid or unsupported MCP-Protocol-Version MUST get 400 Bad
// Request; in the 2026-07-28 era with UnsupportedProtocolVersionError (-32022).
func (r *run) httpProtocolVersion(ctx context.Context, p *prober) {
	const id = "http-protocol-version"
	if ctx.Err() != nil || !r.active(id) {
		return
	}
	if r.modern() {
		r.refusal(id, r.unsupportedProbe(ctx), http.StatusBadRequest, -32022)
		return
	}
	if r.init != nil && r.init.ProtocolVersion < "2025-06-18" {
		r.na(id, "the session speaks "+r.init.ProtocolVersion+": MCP-Protocol-Version is a header of 2025-06-18 and later")
		return
	}
	h := r.sessionHeader(r.postHeader("ping"))
	h.Set(mcpclient.HeaderProtocolVersion, probeLegacyVersion)
	a := p.do(ctx, probeReq{method: http.MethodPost, header: h, what: "ping", shown: []string{mcpclient.HeaderProtocolVersion + ": " + probeLegacyVersion},
		body: `{"jsonrpc":"2.0","id":` + probeHTTPID + `,"method":"ping"}`})
	switch {
	case a.status == http.StatusBadRequest:
		r.note(id, a.events, "%s", a.exchange())
	case a.status == 0:
		r.find(id, Must, a.events, "%s: an invalid MCP-Protocol-Version MUST get 400 Bad Request", a.exchange())
	case a.status/100 == 2:
		r.find(id, Must, a.events, "%s: served; an invalid or unsupported MCP-Protocol-Version MUST get 400 Bad Request", a.exchange())
	default:
		r.find(id, Must, a.events, "%s: refused, but with 400 Bad Request is what the spec asks", a.exchange())
	}
}

// httpHeaders: in the 2026-07-28 era the Mcp-Method header MUST be there and equal the
// body's method, Mcp-Name the tool's name on tools/call, and MCP-Protocol-Version the
// _meta's; a request that breaks one is refused with 400 Bad Request and HeaderMismatch
// (-32020). The tools/call probes name a tool no server has, so nothing runs whatever the
// server does with them.
func (r *run) httpHeaders(ctx context.Context) {
	const id = "http-headers"
	if ctx.Err() != nil || !r.active(id) {
		return
	}
	if !r.modern() {
		r.na(id, "the session is in the legacy era: Mcp-Method and Mcp-Name are 2026-07-28's headers")
		return
	}
	meta := map[string]any{"_meta": modernMeta(mcpclient.ModernProtocolVersion)}
	call := map[string]any{"name": probeTool, "arguments": map[string]any{}, "_meta": modernMeta(mcpclient.ModernProtocolVersion)}
	for i, c := range []struct {
		what, method string
		params       map[string]any
		edit         func(http.Header)
	}{
		{"server/discover without Mcp-Method", "server/discover", meta, func(h http.Header) { h.Del(mcpclient.HeaderMethod) }},
		{"server/discover with Mcp-Method: tools/list", "server/discover", meta, func(h http.Header) { h.Set(mcpclient.HeaderMethod, "tools/list") }},
		{fmt.Sprintf("server/discover, _meta protocolVersion %s under MCP-Protocol-Version %s", probeBadVersion, mcpclient.ModernProtocolVersion), "server/discover",
			map[string]any{"_meta": modernMeta(probeBadVersion)}, func(h http.Header) { h.Set(mcpclient.HeaderProtocolVersion, mcpclient.ModernProtocolVersion) }},
		{"tools/call " + probeTool + " without Mcp-Name", "tools/call", call, func(h http.Header) { h.Del(mcpclient.HeaderName) }},
		{"tools/call " + probeTool + " with Mcp-Name: other", "tools/call", call, func(h http.Header) { h.Set(mcpclient.HeaderName, "other") }},
	} {
		a := r.bare(ctx, fmt.Sprintf("mcp-inspect-check-header-%d", i+1), c.method, c.params, c.what, c.edit)
		r.refusal(id, a, http.StatusBadRequest, -32020)
	}
}
