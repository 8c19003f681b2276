package check

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The rules of the 2026-07-28 revision's stateless requests (issue 25): every request
// carries its _meta, an unsupported version is refused with the versions supported, and
// (Streamable HTTP) the headers mirror the body. The probes are written bare, as the rules
// need them malformed: on the main session over stdio, as probes over HTTP, where the
// status matters as much as the JSON-RPC error.

// The modern probes' values: a revision no server supports, and a mismatching one.
const (
	probeVersion     = "2099-01-01"
	probeBadVersion  = "v999.0.0"
	metaVersion      = "io.modelcontextprotocol/protocolVersion"
	metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo   = "io.modelcontextprotocol/clientInfo"
)

// bareAnswer is the answer to a request written bare.
type bareAnswer struct {
	// status is the HTTP status (0 over stdio, or when no answer came).
	status int
	// rpc is the JSON-RPC error, result the result; both nil when neither came (an SSE
	// answer is not read: stream is set).
	rpc    *mcpclient.RPCError
	result json.RawMessage
	stream bool
	// what is the request in a few words, got the answer.
	what, got string
	events    []Event
}

// served reports an answer that is not a refusal: a result, or a 2xx stream.
func (a bareAnswer) served() bool {
	return a.result != nil || a.rpc == nil && a.stream && a.status/100 == 2
}

// modernMeta is a complete request _meta with version v, less the keys in drop.
func modernMeta(v string, drop ...string) map[string]any {
	m := map[string]any{
		metaVersion:      v,
		metaCapabilities: map[string]any{},
		metaClientInfo:   map[string]any{"name": "mcp-inspect-check", "version": "0"},
	}
	for _, k := range drop {
		delete(m, k)
	}
	return m
}

// bare sends method with params as written, with id (a JSON string), and waits for its
// answer: over stdio on the main session, over HTTP as a probe whose headers are the
// modern ones for the body (MCP-Protocol-Version from _meta, else the revision) changed by
// edit. what names the request in findings.
func (r *run) bare(ctx context.Context, id, method string, params map[string]any, what string, edit func(http.Header)) bareAnswer {
	body := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		body["params"] = params
	}
	b, _ := json.Marshal(body)
	a := bareAnswer{what: what}
	if !r.remote {
		return r.bareStdio(ctx, string(b), id, a)
	}
	h := r.postHeader(method)
	if meta, ok := params["_meta"].(map[string]any); ok {
		if v, ok := meta[metaVersion].(string); ok {
			h.Set(mcpclient.HeaderProtocolVersion, v)
		}
	}
	if edit != nil {
		edit(h)
	}
	var shown []string
	for _, k := range []string{mcpclient.HeaderProtocolVersion, mcpclient.HeaderMethod, mcpclient.HeaderName} {
		if v := h.Get(k); v != "" {
			shown = append(shown, k+": "+v)
		}
	}
	if len(shown) > 0 {
		a.what += " [" + strings.Join(shown, ", ") + "]"
	}
	pa := r.probes().do(ctx, probeReq{method: http.MethodPost, header: h, body: string(b), what: what, shown: shown})
	a.status, a.stream, a.events, a.got = pa.status, pa.stream, pa.events, pa.got()
	var m mcpclient.Message
	if json.Unmarshal(pa.body, &m) == nil {
		a.rpc, a.result = m.Error, m.Result
	}
	if a.rpc != nil {
		a.got += fmt.Sprintf(", error %d %q", a.rpc.Code, a.rpc.Message)
	}
	return a
}

// bareStdio writes line on the main session and waits for the answer with id.
func (r *run) bareStdio(ctx context.Context, line, id string, a bareAnswer) bareAnswer {
	raw := `"` + id + `"`
	r.rawIDs[idValue([]byte(raw))] = true
	seq, mark, err := r.main.raw(line)
	if err != nil {
		a.events, a.got = r.main.ev(seq), "not sent: "+err.Error()
		return a
	}
	ev, ok := r.main.waitFor(ctx, mark, r.opt.Wait, answerTo(raw))
	a.events = r.main.ev(seq, ev.Seq)
	if !ok {
		a.got = "no answer within " + r.opt.Wait.String()
		return a
	}
	r.rawAnswers[ev.Seq] = true
	a.rpc, a.result = ev.Msg.Error, ev.Msg.Result
	if a.rpc != nil {
		a.got = fmt.Sprintf("error %d %q", a.rpc.Code, a.rpc.Message)
	} else {
		a.got = "a result"
	}
	return a
}

// probes is the run's http probe session, opened on first use (closed by battery).
func (r *run) probes() *prober {
	if r.prober == nil {
		r.prober = r.newProber()
	}
	return r.prober
}

// modernRules runs the 2026-07-28 request rules: meta-required and, in that era,
// version-future.
func (r *run) modernRules(ctx context.Context) {
	if r.ready(ctx, "meta-required") && r.active("meta-required") {
		if !r.modern() {
			r.na("meta-required", "the session is in the legacy era (the initialize handshake): requests carry no _meta there")
		} else {
			r.metaRequired(ctx)
		}
	}
	if r.modern() && r.ready(ctx, "version-future") && r.active("version-future") {
		r.versionUnsupported(ctx)
	}
}

// metaRequired: a request whose _meta lacks protocolVersion or clientCapabilities (or that
// has none) is refused with -32602, over HTTP with 400; one without clientInfo is served.
func (r *run) metaRequired(ctx context.Context) {
	const id = "meta-required"
	for i, c := range []struct {
		what   string
		params map[string]any
	}{
		{"no _meta", map[string]any{}},
		{"_meta without protocolVersion", map[string]any{"_meta": modernMeta(mcpclient.ModernProtocolVersion, metaVersion)}},
		{"_meta without clientCapabilities", map[string]any{"_meta": modernMeta(mcpclient.ModernProtocolVersion, metaCapabilities)}},
	} {
		a := r.bare(ctx, fmt.Sprintf("mcp-inspect-check-meta-%d", i+1), "server/discover", c.params, "server/discover, "+c.what, func(h http.Header) {
			h.Set(mcpclient.HeaderProtocolVersion, mcpclient.ModernProtocolVersion)
		})
		r.refusal(id, a, http.StatusBadRequest, -32602)
	}
	a := r.bare(ctx, "mcp-inspect-check-meta-4", "server/discover", map[string]any{"_meta": modernMeta(mcpclient.ModernProtocolVersion, metaClientInfo)}, "server/discover, _meta without clientInfo", nil)
	switch {
	case a.served():
		r.note(id, a.events, "%s: served", a.what)
	case a.rpc == nil && a.status == 0:
		r.find(id, Must, a.events, "%s: %s", a.what, a.got)
	default:
		r.find(id, Must, a.events, "%s: %s; clientInfo is a SHOULD, and a server MUST NOT require it", a.what, a.got)
	}
}

// refusal judges a under rule id: it must be refused with JSON-RPC error code and, over
// HTTP, with HTTP status; another code is a SHOULD-level finding.
func (r *run) refusal(id string, a bareAnswer, status int, code int64) {
	switch {
	case a.rpc == nil: // served, or no JSON-RPC error at all
		r.find(id, Must, a.events, "%s: %s; it MUST be refused with %d%s", a.what, a.got, code, httpStatusText(r.remote, status))
	case r.remote && a.status != status:
		r.find(id, Must, a.events, "%s: %s; the HTTP status MUST be %d %s", a.what, a.got, status, http.StatusText(status))
	case a.rpc.Code != code:
		r.find(id, Should, a.events, "%s: %s, not %d", a.what, a.got, code)
	default:
		r.note(id, a.events, "%s: %s", a.what, a.got)
	}
}

// httpStatusText is " (HTTP 400 Bad Request)" over HTTP, "" over stdio.
func httpStatusText(remote bool, status int) string {
	if !remote {
		return ""
	}
	return fmt.Sprintf(" (HTTP %d %s)", status, http.StatusText(status))
}

// versionUnsupported: in the 2026-07-28 era, a request for a revision the server does not
// support gets UnsupportedProtocolVersionError -32022 whose data lists supported versions
// (those server/discover offers) and echoes the requested one; over HTTP with 400.
func (r *run) versionUnsupported(ctx context.Context) {
	const id = "version-future"
	a := r.unsupportedProbe(ctx)
	r.refusal(id, a, http.StatusBadRequest, -32022)
	if a.rpc == nil || a.rpc.Code != -32022 {
		return
	}
	var data struct {
		Supported []string `json:"supported"`
		Requested *string  `json:"requested"`
	}
	_ = json.Unmarshal(a.rpc.Data, &data)
	var offered []string
	if r.init != nil && r.init.Discover != nil {
		offered = r.init.Discover.SupportedVersions
	}
	switch {
	case len(data.Supported) == 0:
		r.find(id, Must, a.events, "%s: error.data.supported is missing or empty; it MUST list the versions the server supports", a.what)
	case len(offered) > 0 && slices.ContainsFunc(data.Supported, func(v string) bool { return !slices.Contains(offered, v) }):
		r.find(id, Must, a.events, "%s: error.data.supported %v names versions server/discover does not offer (%v)", a.what, data.Supported, offered)
	}
	if data.Requested == nil || *data.Requested != probeVersion {
		r.find(id, Must, a.events, "%s: error.data.requested MUST echo %q, got %s", a.what, probeVersion, rawOr(a.rpc.Data, "requested"))
	}
}

// unsupportedProbe sends server/discover for a revision no server supports (probeVersion
// in _meta, and over HTTP in MCP-Protocol-Version) once: version-future judges its JSON-RPC
// error, http-protocol-version its HTTP status.
func (r *run) unsupportedProbe(ctx context.Context) bareAnswer {
	if r.unsupported == nil {
		a := r.bare(ctx, "mcp-inspect-check-version", "server/discover", map[string]any{"_meta": modernMeta(probeVersion)}, "server/discover for "+probeVersion, nil)
		r.unsupported = &a
	}
	return *r.unsupported
}

// rawOr is the raw JSON of key in obj, "nothing" when absent.
func rawOr(obj json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil || m[key] == nil {
		return "nothing"
	}
	return string(m[key])
}

// cacheMethods are the results that carry caching hints in 2026-07-28 (CacheableResult).
var cacheMethods = []string{"server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"}

// cacheHints: in the 2026-07-28 era, every result of cacheMethods the main session got
// carries ttlMs (a non-negative integer) and cacheScope ("public" or "private"). A result
// of each method is judged once: the first that breaks it, or a note.
func (r *run) cacheHints() {
	const id = "cache-hints"
	if !r.active(id) {
		return
	}
	if !r.modern() {
		r.na(id, "the session is in the legacy era: caching hints are 2026-07-28's")
		return
	}
	judged := map[string]bool{}
	var seen []string
	for _, ev := range r.main.all() {
		if ev.Dir != mcpclient.ServerToClient || ev.Kind != mcpclient.KindResponse || ev.Msg == nil || !slices.Contains(cacheMethods, ev.Method) || judged[ev.Method] {
			continue
		}
		if r.rawAnswers[ev.Seq] {
			continue
		}
		judged[ev.Method] = true
		if p := hintProblem(ev.Msg.Result); p != "" {
			r.find(id, Must, r.main.ev(ev.Pair, ev.Seq), "%s result: %s", ev.Method, p)
			continue
		}
		seen = append(seen, ev.Method)
	}
	if len(judged) == 0 {
		r.na(id, "no result that carries caching hints was received")
		return
	}
	if len(seen) > 0 {
		r.note(id, nil, "ttlMs and cacheScope on %s", strings.Join(seen, ", "))
	}
}

// hintProblem says what is wrong with a result's caching hints, "" when nothing.
func hintProblem(result json.RawMessage) string {
	var h struct {
		TTL   json.RawMessage `json:"ttlMs"`
		Scope json.RawMessage `json:"cacheScope"`
	}
	_ = json.Unmarshal(result, &h)
	var probs []string
	var ttl float64
	switch {
	case h.TTL == nil:
		probs = append(probs, "ttlMs is missing")
	case json.Unmarshal(h.TTL, &ttl) != nil || ttl < 0 || ttl != float64(int64(ttl)):
		probs = append(probs, "ttlMs is "+string(h.TTL)+", not a non-negative integer")
	}
	var scope string
	switch {
	case h.Scope == nil:
		probs = append(probs, "cacheScope is missing")
	case json.Unmarshal(h.Scope, &scope) != nil || scope != "public" && scope != "private":
		probs = append(probs, "cacheScope is "+string(h.Scope)+`, not "public" or "private"`)
	}
	return strings.Join(probs, "; ")
}
