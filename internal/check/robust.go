package check

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The probes' names: an id the client never numbers, a method and a tool no server has.
const (
	probeStringID = "mcp-inspect-check-1"
	probeMethod   = "mcp-inspect/no-such-method"
	probeTool     = "mcp-inspect-no-such-tool"
	probeNotJSON  = "mcp-inspect check: this line is not JSON {"
	probeNotify   = "notifications/mcp-inspect-check"
	probeCancelID = "mcp-inspect-check-never-sent"
	// probeResponseID is the id of the response http-notification-202 POSTs: a request the
	// server never sent.
	probeResponseID = "mcp-inspect-check-no-such-request"
)

// parseGrace is how long the -32700 may come after the ping sent behind the bad line.
const parseGrace = 200 * time.Millisecond

// robustness sends what a server must survive: an unknown method and tool, ids of both
// types written raw, a line that is not JSON, a notification and a cancellation for an
// unknown request.
func (r *run) robustness(ctx context.Context) {
	if ctx.Err() == nil && r.ready(ctx, "unknown-method") && r.active("unknown-method") {
		if r.modern() && r.remote {
			// Over HTTP the 2026-07-28 refusal is 404 with -32601 (streamable-http §Error Statuses).
			a := r.bare(ctx, "mcp-inspect-check-unknown", probeMethod, map[string]any{"_meta": modernMeta(mcpclient.ModernProtocolVersion)}, probeMethod, nil)
			r.refusal("unknown-method", a, http.StatusNotFound, -32601)
		} else {
			x := r.main.request(ctx, probeMethod, nil, r.opt.Wait)
			r.wantError("unknown-method", probeMethod, -32601, Should, x)
		}
	}
	if ctx.Err() == nil && r.ready(ctx, "unknown-tool") && r.active("unknown-tool") {
		if _, ok := r.caps["tools"]; !ok {
			r.na("unknown-tool", "the server declares no tools capability")
		} else {
			x := r.main.request(ctx, "tools/call", map[string]any{"name": probeTool, "arguments": map[string]any{}}, r.opt.Wait)
			r.unknownTool(x)
		}
	}
	if r.ready(ctx, "string-id") {
		r.rawID(ctx, "string-id", `"`+probeStringID+`"`)
	}
	if r.ready(ctx, "id-zero") {
		r.rawID(ctx, "id-zero", `0`)
	}
	if r.ready(ctx, "parse-error") {
		r.notJSON(ctx)
	}
	if r.ready(ctx, "notification") {
		r.silent(ctx, "notification", probeNotify, nil)
	}
	if r.ready(ctx, "cancel-unknown") {
		r.silent(ctx, "cancel-unknown", "notifications/cancelled", map[string]any{"requestId": probeCancelID, "reason": "mcp-inspect check: a request that was never sent"})
	}
}

// wantError checks that x is an error response with code; another code is a finding at
// level other.
func (r *run) wantError(id, what string, code int64, other Level, x exchange) {
	rpc := x.rpcErr()
	switch {
	case rpc != nil && rpc.Code == code:
		r.note(id, x.events, "%s: %d %q", what, rpc.Code, rpc.Message)
	case rpc != nil:
		r.find(id, other, x.events, "%s: error %d %q, not %d", what, rpc.Code, rpc.Message, code)
	case x.err != nil && strings.Contains(x.err.Error(), "("+what+")"):
		r.find(id, Must, x.events, "%v", x.err) // "request id N (what): …" names it already
	case x.err != nil:
		r.find(id, Must, x.events, "%s: %v", what, x.err)
	default:
		r.find(id, Must, x.events, "%s: answered a result, not an error", what)
	}
}

func (r *run) unknownTool(x exchange) {
	what := "tools/call " + probeTool
	if x.err == nil {
		r.find("unknown-tool", Should, x.events, "%s: answered a result (%s), not the protocol error -32602 an unknown tool gets", what, clip(string(x.result())))
		return
	}
	r.wantError("unknown-tool", what, -32602, Should, x)
}

// rawID writes a ping with the raw id and waits for the answer carrying the same id, of
// the same JSON type.
func (r *run) rawID(ctx context.Context, rule, id string) {
	if ctx.Err() != nil || !r.active(rule) {
		return
	}
	if req, ok := r.main.sentID(id); ok {
		// The session numbered a request of its own with this id (--first-id 0): sending
		// it again would reuse an id, which the requester MUST NOT do (MCP 2025-11-25
		// basic §Requests). That request's answer shows the rule as well.
		r.ownID(rule, id, req)
		return
	}
	r.rawIDs[idValue([]byte(id))] = true
	seq, mark, err := r.main.raw(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	if err != nil {
		r.find(rule, Must, r.main.ev(seq), "ping with id %s could not be sent: %v", id, err)
		return
	}
	want := idValue([]byte(id))
	ev, ok := r.main.waitFor(ctx, mark, r.opt.Wait, func(ev mcpclient.Event) bool {
		return isExit(ev) || ev.Dir == mcpclient.ServerToClient && ev.Msg != nil &&
			(ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse) && idValue(ev.Msg.ID) == want
	})
	evs := r.main.ev(seq, ev.Seq)
	if ok && !isExit(ev) {
		r.rawAnswers[ev.Seq] = true
	}
	switch {
	case ok && isExit(ev):
		// The wait ends at the death; the rules after it run on a fresh copy (revive.go).
		r.find(rule, Must, evs, "ping with id %s: the server exited without an answer", id)
	case !ok:
		r.find(rule, Must, evs, "ping with id %s: no answer with that id within %s", id, r.opt.Wait)
	case string(ev.Msg.ID) != id:
		r.find(rule, Must, evs, "ping with id %s was answered with id %s: the id's type changed", id, ev.Msg.ID)
	default:
		r.note(rule, evs, "ping with id %s answered with id %s", id, ev.Msg.ID)
	}
}

// ownID judges rule on req, the session's own request that carried id: its answer came
// (or not) long before, during the battery.
func (r *run) ownID(rule, id string, req mcpclient.Event) {
	want, seq := idValue([]byte(id)), req.Seq
	ev, ok := r.main.waitFor(context.Background(), 0, 0, func(ev mcpclient.Event) bool {
		return ev.Seq > seq && ev.Dir == mcpclient.ServerToClient && ev.Msg != nil &&
			(ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse) &&
			(ev.Pair == seq || idValue(ev.Msg.ID) == want)
	})
	what := fmt.Sprintf("%s with id %s (the session's own, --first-id 0)", req.Msg.Method, id)
	evs := r.main.ev(seq, ev.Seq)
	switch {
	case !ok:
		r.find(rule, Must, evs, "%s: no answer with that id", what)
	case string(ev.Msg.ID) != id:
		r.find(rule, Must, evs, "%s was answered with id %s: the id's type changed", what, ev.Msg.ID)
	default:
		r.note(rule, evs, "%s answered with id %s", what, ev.Msg.ID)
	}
}

// notJSON writes a line that is not JSON: the server should answer -32700 with id null,
// and must go on answering.
func (r *run) notJSON(ctx context.Context) {
	if ctx.Err() != nil || !r.active("parse-error") {
		return
	}
	r.rawIDs["null"] = true
	seq, mark, err := r.main.raw(probeNotJSON)
	if err != nil {
		r.find("parse-error", Must, r.main.ev(seq), "the line could not be sent: %v", err)
		return
	}
	// A ping behind the line: a server that answers in order has answered the line by the
	// time the ping's answer comes; one that does not gets a short grace after it.
	x, probe := r.alive(ctx, r.opt.Wait)
	isParseErr := func(ev mcpclient.Event) bool {
		return ev.Dir == mcpclient.ServerToClient && ev.Kind == mcpclient.KindErrorResponse && ev.Msg != nil && idValue(ev.Msg.ID) == "null"
	}
	ev, ok := r.main.waitFor(ctx, mark, parseGrace, isParseErr)
	evs := r.main.ev(seq, ev.Seq)
	if ok {
		r.rawAnswers[ev.Seq] = true
	}
	switch {
	case !ok:
		r.find("parse-error", Should, evs, "no -32700 Parse error (id null) for a line that is not JSON (a ping sent after it was answered first)")
	case ev.Msg.Error.Code != -32700:
		r.find("parse-error", Should, evs, "the line that is not JSON got error %d %q, not -32700", ev.Msg.Error.Code, ev.Msg.Error.Message)
	default:
		r.note("parse-error", evs, "-32700 %q", ev.Msg.Error.Message)
	}
	if !x.answered() {
		r.find("parse-error", Must, append(evs, x.events...), "after the line that is not JSON, %s failed: %v", probe, x.err)
		return
	}
	r.note("parse-error", x.events, "%s answered afterwards", probe)
}

// silent sends a notification, then a ping: nothing may answer the notification, and the
// ping must be answered.
func (r *run) silent(ctx context.Context, rule, method string, params any) {
	if ctx.Err() != nil || !r.active(rule) {
		return
	}
	mark := r.main.mark()
	if err := r.main.client.Notify(method, marshal(params)); err != nil {
		r.find(rule, Must, nil, "%s could not be sent: %v", method, err)
		return
	}
	sent := r.main.sent(mark)
	x, probe := r.alive(ctx, r.opt.Wait)
	evs := append(r.main.ev(sent), x.events...)
	answered := false
	for _, ev := range r.main.since(mark) {
		if ev.Dir != mcpclient.ServerToClient || ev.Msg == nil || ev.Pair != 0 && !mcpclient.HasCode(ev.Problems, mcpclient.CodeNotificationReply) {
			continue
		}
		if v := idValue(ev.Msg.ID); v != "null" && r.rawIDs[v] {
			continue // a late answer to a raw probe
		}
		if mcpclient.HasCode(ev.Problems, mcpclient.CodeIDTypeMismatch) {
			continue // an earlier request's answer with its id retyped: the envelope rule's
		}
		if ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse {
			r.find(rule, Must, r.main.ev(sent, ev.Seq), "%s was answered (id %s): a notification gets no response", method, ev.Msg.ID)
			answered = true
		}
	}
	if !x.answered() {
		r.find(rule, Must, evs, "after %s, %s failed: %v", method, probe, x.err)
		return
	}
	if answered {
		r.note(rule, evs, "%s answered after %s", probe, method)
		return
	}
	r.note(rule, evs, "%s: no response; %s answered after it", method, probe)
}

// finalPing shows the server survived the battery.
func (r *run) finalPing(ctx context.Context) {
	if ctx.Err() != nil || !r.active("final-ping") || !r.ready(ctx, "final-ping") {
		return
	}
	x, probe := r.alive(ctx, r.opt.Server.Timeout)
	switch {
	case probe == "ping":
		r.checkPing("final-ping", x)
	case !x.answered():
		r.find("final-ping", Must, x.events, "%s: %v", probe, x.err)
	default:
		r.note("final-ping", x.events, "%s answered (the 2026-07-28 era has no ping)", probe)
	}
}

// marshal is params as raw JSON (nil for nil).
func marshal(params any) []byte {
	if params == nil {
		return nil
	}
	b, err := jsonMarshal(params)
	if err != nil {
		panic(fmt.Sprintf("check: marshal %T: %v", params, err)) // the probes' params always marshal
	}
	return b
}
